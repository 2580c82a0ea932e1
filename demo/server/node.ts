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
