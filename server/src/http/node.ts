import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';

/** Paths the reference server answers; everything else belongs to the host server. */
export function isReferencePath(url: string | undefined): boolean {
  return /^\/(messaging|management|__demo)(\/|\?|$)/.test(url ?? '');
}

/**
 * Adapts the reference server to a connect-style middleware, so Vite's dev server
 * (`npm start`) and the test runner serve it on their own port: the widget then talks to
 * it same-origin over real HTTP, streaming included. The returned promise settles when the
 * response has been handed over.
 */
export function toNodeMiddleware(app: Hono) {
  const listener = getRequestListener(app.fetch);
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    if (!isReferencePath(req.url)) return next();
    listener(req, res).catch(next);
  };
}

/** Where `npm run server` listens. */
export interface Listen {
  hostname: string;
  port: number;
}

/**
 * `HOST` and `PORT` for `npm run server`: this machine only (127.0.0.1) unless `HOST` says
 * otherwise (`HOST=0.0.0.0` for every interface), port 8787 unless `PORT` says.
 */
export function listenFromEnv(env: NodeJS.ProcessEnv = process.env): Listen {
  const hostname = env['HOST']?.trim() || '127.0.0.1';
  const rawPort = env['PORT']?.trim() || '8787';
  const port = Number(rawPort);
  if (!/^\d{1,5}$/.test(rawPort) || port > 65535) throw new Error(`PORT must be a port number (0 to 65535), not "${rawPort}".`);
  return { hostname, port };
}

/** Whether a listening address is reachable from this machine only. */
export function isLoopback(hostname: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(hostname);
}
