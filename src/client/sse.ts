import { createParser } from 'eventsource-parser';
import { ApiError, isRetryableStatus, parseRetryAfter, protocolError } from './errors.js';
import { readMessage } from './guards.js';
import { isHexId, isObject } from './types.js';
import type { ErrorFrame, MessageFrame, StreamFrame, ThreadFrame, TokenFrame, UnknownFrame } from './types.js';

/** The frames a reader hands on; `error` frames are turned into a rejection instead. */
export type DataFrame = ThreadFrame | TokenFrame | MessageFrame;

export interface FrameCallbacks {
  /** A `thread`, `event` or `message` frame, validated. Returning true ends the reading as `done`. */
  onFrame(frame: DataFrame): boolean | void;
  /** A frame of a type this client does not know. */
  onUnknownFrame?(frame: UnknownFrame): void;
  /** Any sign of life: a frame, a comment (keepalive) or `[DONE]`. Drives the connection's idle timeout. */
  onActivity?(): void;
  /** A comment: the service's keepalive while the agent works (it holds the turn, up to a limit). */
  onKeepalive?(): void;
  /**
   * A frame grew past the limit before it ended (it is not read): true ends the reading as
   * `done` (the caller takes its turn as cut there); otherwise, or without this, the frame
   * is a protocol error.
   */
  onTooLarge?(): boolean;
}

/** `done`: the stream ended with `data: [DONE]`; `eof`: the body ended without it (a drop). */
export type ReadOutcome = 'done' | 'eof';

const KNOWN = new Set(['thread', 'event', 'message', 'error']);

/** A `seq`: a positive safe integer (`1e308` is an integer, but not one a count reaches). */
function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/**
 * The most a stream may send before a frame ends, in characters: a `message` frame holds
 * the whole reply and its cards. A service that never ends its frame costs the rest of the
 * turn (or a protocol error), not the page's memory.
 */
export const MAX_FRAME = 4_000_000;

/**
 * The frame limit of a client that keeps `maxReply` characters of a reply: room for a
 * `message` frame that holds that much text, escaped, and its cards; at least a million
 * characters (a small reply with many cards), at most MAX_FRAME.
 */
export const frameLimit = (maxReply = Infinity): number => Math.min(MAX_FRAME, Math.max(1_000_000, 4 * maxReply));

/**
 * What arrives at once (a page that was busy catching up, a service that sends a long reply
 * in one go) is read a slice at a time, with the page's own work between slices: a 1 MB
 * burst is some seventy short tasks, not one long one.
 */
const SLICE = 16_384;

/** A task boundary that background tabs do not throttle (as they do timers). */
const breathe = () =>
  new Promise<void>((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });

function statusOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{3}$/.test(value)) return Number(value);
  return null;
}

/**
 * The ApiError an `error` frame stands for. docs/protocol.md "Error frames" lets the status sit under
 * `status`, `status_code` or `code`; a non-numeric `code` (e.g. `rate_limited`) is the
 * machine code instead.
 */
export function errorFromFrame(frame: ErrorFrame): ApiError {
  const d = frame.data;
  const status = statusOf(d.status) ?? statusOf(d.status_code) ?? statusOf(d.code);
  const code = typeof d.code === 'string' && statusOf(d.code) === null && d.code ? d.code : 'stream';
  return new ApiError({
    kind: 'stream',
    status,
    code,
    message: typeof d.message === 'string' && d.message ? d.message : 'The reply failed before it was complete.',
    requestId: typeof d.request_id === 'string' ? d.request_id : null,
    // What `Retry-After` says over HTTP, in seconds (docs/protocol.md "Error frames").
    retryAfterMs: typeof d.retry_after === 'number' || typeof d.retry_after === 'string' ? parseRetryAfter(String(d.retry_after)) : null,
    retryable: isRetryableStatus(status),
  });
}

/**
 * Parses the JSON of one frame and checks the fields this client relies on. Also usable
 * for the WebSocket transport, which carries the same JSON frames.
 */
export function parseFrame(json: string): StreamFrame | UnknownFrame {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw protocolError('The service sent a stream frame that is not valid JSON.', e);
  }
  if (!isObject(value) || typeof value.type !== 'string') {
    throw protocolError('The service sent a stream frame without a type.');
  }
  const { type, seq, data } = value;
  if (!KNOWN.has(type)) return value as unknown as UnknownFrame;
  if (!isObject(data)) throw protocolError(`The service sent a "${type}" frame without data.`);
  const bad = (what: string): ApiError => protocolError(`The service sent a "${type}" frame ${what}.`);
  switch (type) {
    case 'thread':
      // The id goes into storage, URLs and events: it must be what the reference says it is.
      if (!isHexId(data.thread_id)) throw bad('without a 24-hex-digit thread id');
      break;
    case 'event':
      if (!isSeq(seq)) throw bad('without a sequence number');
      if (data.text !== undefined && typeof data.text !== 'string') throw bad('with non-text content');
      break;
    case 'message': {
      if (!isSeq(seq)) throw bad('without a sequence number');
      const message = readMessage(data);
      if (!message) throw bad('that is not a message');
      return { type, seq, data: message };
    }
    // 'error': every field of its data is optional.
  }
  return value as unknown as StreamFrame;
}

/**
 * Reads SSE frames from a response body until `data: [DONE]` or the end of the body.
 * Chunks may split anywhere, UTF-8 sequences included (the decoder streams); line
 * splitting, CRLF, multi-line `data` and comments are eventsource-parser's job.
 * Rejects with a `protocol` ApiError for a malformed frame, a `stream` ApiError for an
 * `error` frame, or whatever reading the body threw (network failure, abort). The reader
 * is always released: cancelled when reading stops early.
 */
export async function readFrames(body: ReadableStream<Uint8Array>, cb: FrameCallbacks, maxFrame = MAX_FRAME): Promise<ReadOutcome> {
  let outcome: ReadOutcome | null = null;
  let failure: unknown = null;
  /** Frames and comments that ended, and what was read since one last did (about: a read's tail after one is not counted). */
  let frames = 0;
  let pending = 0;
  const parser = createParser({
    onEvent(event) {
      frames++;
      if (outcome || failure) return;
      try {
        cb.onActivity?.();
        if (event.data.trim() === '[DONE]') {
          outcome = 'done';
          return;
        }
        const frame = parseFrame(event.data);
        if (frame.type === 'error') throw errorFromFrame(frame as ErrorFrame);
        if (!KNOWN.has(frame.type)) cb.onUnknownFrame?.(frame);
        else if (cb.onFrame(frame as DataFrame)) outcome = 'done';
      } catch (e) {
        failure = e;
      }
    },
    onComment() {
      frames++;
      if (outcome || failure) return;
      cb.onActivity?.();
      cb.onKeepalive?.();
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        parser.feed(decoder.decode());
        break;
      }
      const text = decoder.decode(value, { stream: true });
      for (let at = 0; at < text.length && !failure && !outcome; at += SLICE) {
        if (at) await breathe();
        const slice = text.slice(at, at + SLICE);
        const ended = frames;
        parser.feed(slice);
        // What came since the last frame or comment ended: one that never ends is cut at `maxFrame`.
        pending = frames === ended ? pending + slice.length : 0;
        if (pending > maxFrame && !failure && !outcome) {
          if (!cb.onTooLarge?.()) throw protocolError('The service sent a stream frame that is too large.');
          outcome = 'done';
        }
      }
      if (failure || outcome) break;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  if (failure) throw failure;
  return outcome ?? 'eof';
}
