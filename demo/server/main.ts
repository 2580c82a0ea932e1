import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createReferenceServer, DEMO_PUBLISHABLE_KEY, faultsFromEnv } from './app.js';
import { SESSION_PATH } from './session.js';
import { modelSettingsFromEnv } from './model-agent.js';

/** `npm run server`: the reference server alone, for a widget served from anywhere else. */
const port = Number(process.env.PORT ?? 8787);
let model;
try {
  model = modelSettingsFromEnv();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const faults = faultsFromEnv(model ?? null);
const reference = createReferenceServer({ model, faults });

const server = serve({ fetch: reference.app.fetch, port }, (info) => {
  console.log(`Reference server: http://localhost:${info.port}`);
  console.log(`WebSocket session (provisional): ws://localhost:${info.port}/messaging/v1/session`);
  console.log(`Demo publishable key: ${DEMO_PUBLISHABLE_KEY}`);
  console.log(`Answering: ${reference.agent}`);
  console.log(
    faults
      ? 'Fault knobs for tests live under /__demo/keys (not part of the service; REFERENCE_FAULTS=0 turns them off).'
      : 'Fault knobs are off (REFERENCE_FAULTS=1 turns them on).',
  );
});
reference.attachSessions(server as Server);
// Alone, nobody else takes upgrades: refuse other paths instead of leaving them hanging.
server.on('upgrade', (req, socket) => {
  if ((req.url ?? '').split('?')[0] === SESSION_PATH) return;
  socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
});
