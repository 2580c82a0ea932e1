import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { ApiError, errorResponse } from '../../server/src/http/errors.js';
import { hostGate, hostRule } from '../../server/src/http/hosts.js';
import { newRequestId } from '../../server/src/http/ids.js';
import { originGate, originRule } from '../../server/src/http/origins.js';
import { cspRoutes } from './csp.js';
import { demoUploadRoutes } from './uploads.js';

/**
 * What the demo page's and the tests' *host* does on its own server, beside the agent
 * service: it stores the images a visitor attaches (`/__demo/uploads`, behind the widget's
 * `uploadImage`) and serves a page under a strict CSP (`/__demo/csp`). Neither is the
 * service's, so neither is in the server package; `npm start` and the test runner mount this
 * app in front of it. Same gates and error envelope as the server's own routes.
 */
export function hostApp(): Hono {
  const app = new Hono();
  app.use(requestId({ headerName: 'x-request-id', generator: newRequestId }));
  app.use(hostGate(hostRule()));
  app.use(originGate(originRule()));
  app.route('/', demoUploadRoutes());
  app.route('/', cspRoutes());
  app.notFound((c) => errorResponse(c, new ApiError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof HTTPException) return errorResponse(c, new ApiError(error.status as 400, 'bad_request', error.message));
    console.error('demo host: unhandled error', error);
    return errorResponse(c, new ApiError(500, 'internal_error', 'Something went wrong on our side.'));
  });
  return app;
}

/** Paths the host app answers: uploads and the strict-CSP page. */
export const isHostPath = (url: string | undefined): boolean => /^\/__demo\/(uploads|csp)(\/|\?|$)/.test(url ?? '');

/** The host app as connect-style middleware (Vite, the test runner): its paths, else the next handler. */
export function hostMiddleware() {
  const listener = getRequestListener(hostApp().fetch);
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    if (!isHostPath(req.url)) return next();
    listener(req, res).catch(next);
  };
}
