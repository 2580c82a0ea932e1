#!/usr/bin/env node
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createReferenceServer, DEMO_PUBLISHABLE_KEY, faultsFromEnv } from './app.js';
import { SESSION_PATH } from './messaging/session.js';
import { modelSettingsFromEnv } from './agents/model-agent.js';
import { isLoopback, listenFromEnv } from './http/node.js';
import { DEFAULT_ALLOWED_ORIGINS, originsFromEnv } from './http/origins.js';
import { organizationKeyFromEnv } from './auth/management-auth.js';
import { hostsFromEnv } from './http/hosts.js';

/**
 * `npm run server`: the reference server alone, for a widget served from anywhere else. It
 * listens on this machine only and answers pages on this machine only unless `HOST` and
 * `ALLOWED_ORIGINS` say otherwise (README.md "Running it for others").
 */
let settings;
try {
  const listen = listenFromEnv();
  settings = {
    listen,
    model: modelSettingsFromEnv(),
    allowedOrigins: originsFromEnv(),
    allowedHosts: hostsFromEnv(process.env, listen.hostname),
  };
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { listen, model, allowedOrigins, allowedHosts } = settings;
const faults = faultsFromEnv(model ?? null);
const organization = organizationKeyFromEnv(process.env, listen.hostname, allowedOrigins);
const reference = createReferenceServer({ model, faults, allowedOrigins, allowedHosts, organizationApiKey: organization.key });

// An IPv6 address is bracketed in a URL.
const shown = listen.hostname.includes(':') ? `[${listen.hostname}]` : listen.hostname;
const server = serve({ fetch: reference.app.fetch, port: listen.port, hostname: listen.hostname }, (info) => {
  console.log(`Reference server: http://${shown}:${info.port}`);
  if (!isLoopback(listen.hostname)) console.log(`Listening on ${listen.hostname}: reachable from other machines (HOST).`);
  console.log(`WebSocket session (provisional): ws://${shown}:${info.port}/messaging/v1/session`);
  console.log(`Demo publishable key: ${DEMO_PUBLISHABLE_KEY}`);
  console.log(
    `Pages allowed to call it: its own origin and ${allowedOrigins.join(', ')}` +
      (allowedOrigins === DEFAULT_ALLOWED_ORIGINS ? ' (ALLOWED_ORIGINS sets others).' : '.'),
  );
  console.log(
    `Names it answers to: IP addresses, localhost` +
      (allowedHosts.length ? `, ${allowedHosts.join(', ')}` : '') +
      ' (ALLOWED_HOSTS adds others).',
  );
  console.log(`Answering: ${reference.agent}`);
  if (organization.origin !== 'environment') {
    console.log(
      `Organization API key (management, builder logins): ${organization.key}` +
        (organization.origin === 'dev-default'
          ? ' (the dev default: ORGANIZATION_API_KEY sets another).'
          : ' (made for this start: other machines or pages can reach the server, so the dev default is not used; ORGANIZATION_API_KEY sets one).'),
    );
  }
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
