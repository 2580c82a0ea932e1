import type { DataFrame } from './sse.js';
import type { StreamHandlers } from './stream.js';
import type { Message, UnknownFrame } from './types.js';

/**
 * What one turn has delivered so far, across every connection (SSE) or socket that carried
 * it. Resumes replay frames; applying them here hands each one to the caller exactly once,
 * whichever transport brought it.
 */
export class TurnProgress {
  threadId: string | null;
  /** A `thread` frame arrived: the turn exists, so from now on a retry is a resume. */
  resumable = false;
  lastSeq = 0;
  message: Message | null = null;
  /**
   * A handler threw: that is a bug in the caller, not a dropped connection. The transport
   * ends the stream and rethrows that very exception (no resume, no ApiError).
   */
  handlerFailed = false;
  private readonly announced = new Set<string>();

  constructor(
    threadId: string | undefined,
    private readonly handlers: StreamHandlers,
  ) {
    this.threadId = threadId ?? null;
  }

  apply(frame: DataFrame): void {
    if (frame.type === 'thread') {
      const id = frame.data.thread_id;
      this.threadId = id;
      this.resumable = true;
      // The thread frame is replayed on every resume: announce each thread once.
      if (!this.announced.has(id)) {
        this.announced.add(id);
        this.guard(() => this.handlers.onThread?.(id));
      }
      return;
    }
    // Replays after a resume: everything up to the last seq seen was delivered already.
    if (frame.seq <= this.lastSeq) return;
    this.lastSeq = frame.seq;
    if (frame.type === 'event') {
      const text = frame.data.text;
      if (text) this.guard(() => this.handlers.onToken?.(text, frame.seq));
    } else {
      this.message = frame.data;
      this.guard(() => this.handlers.onMessage?.(frame.data, frame.seq));
    }
  }

  unknown(frame: UnknownFrame): void {
    this.guard(() => this.handlers.onUnknownFrame?.(frame));
  }

  private guard(call: () => void): void {
    try {
      call();
    } catch (e) {
      this.handlerFailed = true;
      throw e;
    }
  }
}
