import { Hono } from 'hono';
import { ApiError } from '../../server/src/http/errors.js';
import { newHexId } from '../../server/src/http/ids.js';

/**
 * `/__demo/uploads` is NOT part of the agent service. The widget never calls it: it is what
 * the demo page's `uploadImage` function (a host's job) posts images to, so a picked image
 * gets an http(s) URL to send as `image_url`. Mounted before the service's 64 KB body limit.
 */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Bounded like the rest of the demo store: the oldest uploads go first. */
const MAX_UPLOADS = 200;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/** Leading bytes of each accepted format: the declared type must match the content. */
const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  'image/png': (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => String.fromCharCode(...b.slice(0, 6)) === 'GIF87a' || String.fromCharCode(...b.slice(0, 6)) === 'GIF89a',
  'image/webp': (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP',
};

interface Upload {
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Reads at most `limit` bytes; more is a 413 without buffering the rest. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ApiError(413, 'payload_too_large', `Uploads are limited to ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export function demoUploadRoutes(): Hono {
  const app = new Hono();
  const uploads = new Map<string, Upload>();
  let total = 0;

  app.post('/__demo/uploads', async (c) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const check = SIGNATURES[type];
    if (!check) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'Send the raw image with Content-Type image/png, image/jpeg, image/gif or image/webp.',
      );
    }
    const declared = Number(c.req.header('content-length') ?? NaN);
    if (declared > MAX_UPLOAD_BYTES) throw new ApiError(413, 'payload_too_large', `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes.`);
    const bytes = await readLimited(c.req.raw.body, MAX_UPLOAD_BYTES);
    if (!bytes.byteLength || !check(bytes)) {
      throw new ApiError(415, 'unsupported_media_type', `The body is not a ${type} image.`);
    }
    const id = newHexId();
    uploads.set(id, { type, bytes });
    total += bytes.byteLength;
    for (const [oldId, old] of uploads) {
      if (uploads.size <= MAX_UPLOADS && total <= MAX_TOTAL_BYTES) break;
      uploads.delete(oldId);
      total -= old.bytes.byteLength;
    }
    return c.json({ url: new URL(`/__demo/uploads/${id}`, c.req.url).href }, 201);
  });

  app.get('/__demo/uploads/:id', (c) => {
    const upload = uploads.get(c.req.param('id'));
    if (!upload) throw new ApiError(404, 'not_found', 'Upload not found.');
    return c.body(upload.bytes, 200, {
      'content-type': upload.type,
      'content-length': String(upload.bytes.byteLength),
      // An image, never a document: no sniffing, no scripts even if opened directly.
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=3600',
      'cross-origin-resource-policy': 'cross-origin',
    });
  });

  return app;
}
