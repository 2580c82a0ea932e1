import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, fromZodError, validationError } from './errors.js';
import { hexId } from './schemas.js';

/** Raw JSON of the body: `undefined` when there is none, 400 when it is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const raw = await c.req.text();
  if (!raw.trim()) return undefined;
  return parseJson(raw);
}

/**
 * A request's JSON: 400 when it is not JSON, 422 when a string in it holds a NUL character,
 * which PostgreSQL's text cannot keep (and no person types).
 */
export function parseJson(raw: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  // JSON writes a NUL only as the escape \u0000 (a raw one does not parse).
  if (raw.includes('\\u0000')) {
    const field = nulAt(value);
    if (field !== undefined) throw validationError([{ message: 'Must not contain NUL characters.', field: field || null }]);
  }
  return value;
}

/** Where a string with a NUL character is in `value` (a dotted path; '' for the value itself), if anywhere. */
function nulAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    const inner = nulAt(name, path) ?? nulAt(item, path ? `${path}.${name}` : name);
    if (inner !== undefined) return inner;
  }
  return undefined;
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
