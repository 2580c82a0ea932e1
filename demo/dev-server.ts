import type { Plugin } from 'vite';
import { createReferenceServer, faultsFromEnv, type AppOptions } from '../server/src/app.js';
import { hostsFromEnv } from '../server/src/http/hosts.js';
import { organizationKeyFromEnv } from '../server/src/auth/management-auth.js';
import { modelSettingsFromEnv } from '../server/src/agents/model-agent.js';
import { toNodeMiddleware } from '../server/src/http/node.js';
import { originsFromEnv } from '../server/src/http/origins.js';
import { signingFromEnv } from '../server/src/auth/signing.js';
import { databaseFromEnv } from '../server/src/store/db.js';
import { hostMiddleware } from './host/index.js';

/**
 * `npm start`: the demo page and the reference messaging server on one port. The fault
 * knobs are on only without a model, or with `REFERENCE_FAULTS=1` (server/src/app.ts). The
 * pages and names it answers come from `ALLOWED_ORIGINS` and `ALLOWED_HOSTS`, as for
 * `npm run server`; the organization key is the dev default only while Vite listens on this
 * machine and only its pages may call (`npm start -- --host` makes a random one, printed).
 */
export function referenceOptions(host: string | boolean | undefined, env: NodeJS.ProcessEnv = process.env) {
  const model = modelSettingsFromEnv(env);
  // Vite's `host`: unset is localhost; `true` (`--host` alone) is every interface.
  const listen = host === true ? '0.0.0.0' : host || 'localhost';
  const allowedOrigins = originsFromEnv(env);
  const organization = organizationKeyFromEnv(env, listen, allowedOrigins);
  const options: AppOptions = {
    // `agent-chat-data/` unless DATA_DIR or DATABASE_URL say otherwise: the demo's threads outlive a restart.
    database: databaseFromEnv(env),
    signing: signingFromEnv(env),
    model,
    faults: faultsFromEnv(model, env),
    allowedOrigins,
    allowedHosts: hostsFromEnv(env, listen),
    organizationApiKey: organization.key,
  };
  return { options, organization };
}

async function createReference(host: string | boolean | undefined) {
  const { options, organization } = referenceOptions(host);
  return { reference: await createReferenceServer(options), organization };
}

export function referenceServer(): Plugin {
  return {
    name: 'agent-chat-reference-server',
    async configureServer(server) {
      const { reference, organization } = await createReference(server.config.server.host);
      server.middlewares.use(hostMiddleware());
      server.middlewares.use(toNodeMiddleware(reference.app));
      // The WebSocket session; Vite's HMR socket and other upgrades are left alone.
      if (server.httpServer) reference.attachSessions(server.httpServer);
      // The demo page lives in demo/; the bare address should land on it.
      server.middlewares.use((req, res, next) => {
        if (req.url !== '/' && req.url !== '/index.html') return next();
        res.statusCode = 302;
        res.setHeader('location', '/demo/');
        res.end();
      });
      server.httpServer?.once('listening', () => {
        const urls = server.resolvedUrls?.local ?? [];
        setTimeout(() => {
          for (const url of urls) server.config.logger.info(`  Demo: ${url}demo/  (reference server on the same port)`);
          server.config.logger.info(`  Answering: ${reference.agent}`);
          if (organization.origin === 'random') {
            server.config.logger.info(
              `  Organization API key (made for this start: other machines or pages can reach the server): ${organization.key}`,
            );
          }
        }, 50);
      });
    },
    async configurePreviewServer(server) {
      const { reference } = await createReference(server.config.preview.host);
      server.middlewares.use(hostMiddleware());
      server.middlewares.use(toNodeMiddleware(reference.app));
      reference.attachSessions(server.httpServer);
    },
  };
}
