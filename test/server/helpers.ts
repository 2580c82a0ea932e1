import type { ErrorEnvelope } from '../../src/client/types.js';
import type { FaultPlan } from '../../server/src/faults/plan.js';
import { createKey, tokenFor } from '../support/server.js';

/** A fresh key (own agent, own faults) and a token for it. */
export async function session(plan: FaultPlan = {}): Promise<{ key: string; token: string }> {
  const key = await createKey(plan);
  return { key, token: await tokenFor(key) };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, not JSON-encoded. */
  rawBody?: string;
  headers?: Record<string, string>;
  method?: string;
  signal?: AbortSignal;
}

export function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return fetch(path, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: options.signal,
  });
}

export async function json<T = unknown>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** The envelope every failure must carry, with its request id matching the header. */
export async function expectEnvelope(res: Response, status: number, code?: string): Promise<ErrorEnvelope['error']> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as ErrorEnvelope;
  if (!body.error || typeof body.error.message !== 'string') throw new Error(`no envelope: ${JSON.stringify(body)}`);
  const requestId = res.headers.get('x-request-id');
  if (!requestId || body.error.request_id !== requestId) {
    throw new Error(`request_id ${body.error.request_id} does not match header ${requestId}`);
  }
  if (code !== undefined && body.error.code !== code) throw new Error(`expected code ${code}, got ${body.error.code}`);
  return body.error;
}

export interface SseFrame {
  /** The raw `data:` payload. */
  data: string;
  id?: string;
}

/** Reads SSE frames off a fetch body; `until` stops early (the caller then aborts). */
export class SseReader {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private decoder = new TextDecoder();
  private buffer = '';
  /** A read that outlived a timeout is kept, so its chunk is not lost to the next call. */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  readonly frames: SseFrame[] = [];
  ended = false;

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** The next frame, or null when the response ended; rejects after `timeoutMs` of silence. */
  async next(timeoutMs = 5000): Promise<SseFrame | null> {
    for (;;) {
      const cut = this.buffer.indexOf('\n\n');
      if (cut >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        const frame: SseFrame = { data: '' };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) data.push(line.slice(6));
          else if (line.startsWith('id: ')) frame.id = line.slice(4);
        }
        frame.data = data.join('\n');
        this.frames.push(frame);
        return frame;
      }
      if (this.ended) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      this.pending ??= this.reader.read();
      const chunk = await Promise.race([this.pending, timeout]);
      clearTimeout(timer);
      if (chunk === 'timeout') throw new Error('silence');
      this.pending = undefined;
      if (chunk.done) this.ended = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Every frame until the response ends. */
  async all(timeoutMs?: number): Promise<SseFrame[]> {
    while ((await this.next(timeoutMs)) !== null);
    return this.frames;
  }

  /** Whether nothing arrives for `ms`. */
  async silentFor(ms: number): Promise<boolean> {
    try {
      await this.next(ms);
      return false;
    } catch {
      return true;
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }
}

export interface ParsedFrame {
  type: string;
  seq?: number;
  data: Record<string, unknown> & { text?: string; thread_id?: string; message?: string };
}

export const parsed = (frames: SseFrame[]): ParsedFrame[] =>
  frames.filter((f) => f.data !== '[DONE]').map((f) => JSON.parse(f.data) as ParsedFrame);

export const seqs = (frames: SseFrame[]): number[] =>
  parsed(frames)
    .map((f) => f.seq)
    .filter((s): s is number => s !== undefined);

export async function stream(token: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const res = await call('/messaging/v1/messages/stream', { token, body, headers: { accept: 'text/event-stream', ...headers }, signal });
  return res;
}
