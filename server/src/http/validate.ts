import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, fromZodError, validationError } from './errors.js';
import { hexId } from './schemas.js';

/** Raw JSON of the body: `undefined` when there is none, 400 when it is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const raw = await c.req.text();
  if (!raw.trim()) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

export async function parseBody<S extends z.ZodType>(c: Context, schema: S, whenEmpty?: unknown): Promise<z.output<S>> {
  const json = await readJson(c);
  const result = schema.safeParse(json === undefined ? whenEmpty : json);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** Ids in paths must be well formed before they are looked up: 422, not a 404 that hides a typo. */
export function pathId(value: string, field: string): string {
  if (!hexId.safeParse(value).success) {
    throw validationError([{ message: 'Must be 24 hexadecimal characters.', field }]);
  }
  return value.toLowerCase();
}
