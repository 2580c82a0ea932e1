import { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { ApiError } from './errors.js';

/** How long the readiness check waits for the database before it says no. */
const DATABASE_CHECK_MS = 2_000;

/**
 * The service's health group (the reference names one, without its paths): `GET /health`
 * answers while the process serves at all (liveness: no credentials, no database), and
 * `GET /health/ready` while it can serve a request (readiness: the database answers, and the
 * server is not shutting down). A failure is the error envelope with 503, so a load balancer
 * takes the instance out until it is back.
 */
export function healthRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/health/ready', async (c) => {
    if (deps.lifecycle.stopping) throw new ApiError(503, 'not_ready', 'The server is shutting down.', null, { 'Retry-After': '5' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        deps.stores.db.query('SELECT 1'),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), DATABASE_CHECK_MS))),
      ]);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ApiError(503, 'not_ready', `The database does not answer (${why.slice(0, 200)}).`, null, { 'Retry-After': '5' });
    } finally {
      clearTimeout(timer);
    }
    return c.json({ status: 'ready', database: deps.stores.db.kind });
  });
  return app;
}
