import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { ErrorDetail, ErrorEnvelope } from '@agent-chat/wire';

/**
 * A failure that becomes the service's error envelope. Route code throws it and the app's
 * single `onError` turns it into a response, so every failure path (middleware, handlers,
 * validation) produces the same shape with the same request id.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string): ApiError => new ApiError(404, 'not_found', `${what} not found.`);

export function validationError(details: ErrorDetail[], message = 'The request is not valid.'): ApiError {
  return new ApiError(422, 'validation_error', message, details);
}

/** Zod paths become the dotted field names clients show next to inputs (`agent_variables.static`). */
export function fromZodError(error: ZodError): ApiError {
  const details = error.issues.map((issue) => ({
    message: issue.message,
    field: issue.path.length ? issue.path.map(String).join('.') : null,
  }));
  return validationError(details);
}

export function envelope(c: Context, code: string, message: string, details: ErrorDetail[] | null = null): ErrorEnvelope {
  return { error: { code, message, request_id: c.get('requestId') ?? null, details } };
}

export function errorResponse(c: Context, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(envelope(c, error.code, error.message, error.details), error.status);
}
