#!/usr/bin/env node
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createReferenceServer, DEMO_PUBLISHABLE_KEY, type ReferenceServer } from './app.js';
import type { SigningSource } from './auth/signing.js';
import { isLoopback } from './http/node.js';
import { DEFAULT_ALLOWED_ORIGINS } from './http/origins.js';
import { SESSION_PATH } from './messaging/session.js';
import { settingsFromEnv } from './settings.js';

/**
 * `agent-chat-server` (and `npm run server`): the server alone, configured from the
 * environment (README.md "Configuration"). It listens on this machine only and answers
 * pages on this machine only unless `HOST` and `ALLOWED_ORIGINS` say otherwise.
 */

/** How long a stopping server waits for its connections to close once its turns have ended. */
const CLOSE_WAIT_MS = 2_000;

const SIGNING_SOURCES: Record<SigningSource, string> = {
  environment: 'SIGNING_KEY',
  file: 'SIGNING_KEY_FILE',
  'data-dir': 'kept in the data folder',
  database: 'kept in the database; set SIGNING_KEY in production',
  memory: 'made for this run: tokens end with it',
};

/** The message, written whole before the process goes (`process.exit` would cut a piped stderr short). */
async function fail(message: string): Promise<void> {
  await new Promise((resolve) => process.stderr.write(`${message}\n`, resolve));
  process.exitCode = 1;
}

async function main(): Promise<void> {
  let settings: ReturnType<typeof settingsFromEnv>;
  try {
    settings = settingsFromEnv();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const {
    listen,
    model,
    allowedOrigins,
    allowedHosts,
    database,
    signing,
    organization,
    graceMs,
    leaseMs,
    production,
    demo,
    agents,
    faults,
    trustProxy,
  } = settings;
  let reference: ReferenceServer;
  try {
    reference = await createReferenceServer({
      model,
      faults,
      production,
      demo,
      agents,
      trustProxy,
      leaseMs,
      allowedOrigins,
      allowedHosts,
      organizationApiKey: organization.key,
      database,
      signing,
      // One JSON line per request, for whatever collects the process's output.
      log: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
    });
  } catch (error) {
    return fail(`The server could not start: ${error instanceof Error ? error.message : String(error)}`);
  }

  // An IPv6 address is bracketed in a URL.
  const shown = listen.hostname.includes(':') ? `[${listen.hostname}]` : listen.hostname;
  const server = serve({ fetch: reference.app.fetch, port: listen.port, hostname: listen.hostname }, (info) => {
    console.log(`Reference server: http://${shown}:${info.port}`);
    if (!isLoopback(listen.hostname)) console.log(`Listening on ${listen.hostname}: reachable from other machines (HOST).`);
    console.log(`WebSocket session (provisional): ws://${shown}:${info.port}/messaging/v1/session`);
    console.log(`Data: ${reference.database} (signing key: ${SIGNING_SOURCES[reference.signing]})`);
    if (reference.interrupted) console.log(`Ended ${reference.interrupted} turn(s) the last run left running, as interrupted.`);
    if (production) console.log('Production: no fault knobs, no /__demo routes (NODE_ENV=production).');
    if (demo) console.log(`Demo publishable key: ${DEMO_PUBLISHABLE_KEY}`);
    if (reference.agents) {
      const { agents: count, created, versionsAdded, unchanged } = reference.agents;
      console.log(`Agents from AGENTS_FILE: ${count} (${created} new, ${versionsAdded} new versions).`);
      for (const version of unchanged) console.log(`  ${version}: stored with other settings, kept as stored (a change is a new tag).`);
    }
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
    if (!production) {
      console.log(
        faults
          ? 'Fault knobs for tests live under /__demo/keys (not part of the service; REFERENCE_FAULTS=0 turns them off).'
          : 'Fault knobs are off (REFERENCE_FAULTS=1 turns them on).',
      );
    }
    console.log('Ready.');
  });
  const sessions = reference.attachSessions(server as Server);
  // Alone, nobody else takes upgrades: refuse other paths instead of leaving them hanging.
  server.on('upgrade', (req, socket) => {
    if ((req.url ?? '').split('?')[0] === SESSION_PATH) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  // Graceful: stop taking connections and turns (readiness fails, new turns get 503), let
  // running turns finish for SHUTDOWN_GRACE_MS, end the rest as interrupted (recorded and
  // told to their clients), close the sessions and the database. A second signal, or a
  // kill, stops at once: what was running ends as interrupted at the next start.
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      console.log(`${signal}: stopping; running turns have ${graceMs} ms to finish.`);
      // Closed once every connection is: the streams' last frames are out by then.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      void reference
        .shutdown(graceMs)
        .then(() => sessions.close())
        .then(() => Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]))
        .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('The server did not close cleanly:', error);
            process.exit(1);
          },
        );
    });
  }
}

await main();
