import { protocolError, type ApiError } from './errors.js';
import type { DataFrame } from './sse.js';
import type { Message, UnknownFrame } from './types.js';

export interface StreamHandlers {
  /** The thread the turn runs on; called once (the frame is replayed on resume). */
  onThread?(threadId: string): void;
  /** A token delta, in order, never repeated across resumes. */
  onToken?(text: string, seq: number): void;
  /** The complete agent reply. */
  onMessage?(message: Message, seq: number): void;
  /** The connection dropped; resume attempt `attempt` (1-based) follows after a backoff. */
  onReconnecting?(attempt: number, error: ApiError): void;
  /** A frame of a type this client does not know (tolerated, otherwise skipped). */
  onUnknownFrame?(frame: UnknownFrame): void;
}

/** How far one frame's `seq` may run past the last one (frames between may be ones this client does not see). */
export const MAX_SEQ_STEP = 1_000;

/**
 * What one turn has delivered so far, across every connection (SSE) or socket that carried
 * it. Resumes replay frames; applying them here hands each one to the caller exactly once,
 * whichever transport brought it.
 */
export class TurnProgress {
  threadId: string | null;
  /** A `thread` frame arrived: the turn exists, so from now on a retry is a resume. */
  resumable = false;
  /**
   * The turn's request (not a resume) has gone out on the current connection: from then on
   * the service may be running it, so the request is not simply sent again.
   */
  sent = false;
  lastSeq = 0;
  message: Message | null = null;
  /**
   * A handler threw: that is a bug in the caller, not a dropped connection. The transport
   * ends the stream and rethrows that very exception (no resume, no ApiError).
   */
  handlerFailed = false;
  /** Called for every frame that moved the turn on (not for replays or keepalives). */
  onProgress: (() => void) | null = null;
  /** Called for keepalive comments (SSE): the agent works on the turn, not answering yet. A socket's ping does not: it proves the socket. */
  onKeepalive: (() => void) | null = null;
  private announced: string | null = null;

  constructor(
    threadId: string | undefined,
    private readonly handlers: StreamHandlers,
  ) {
    this.threadId = threadId ?? null;
  }

  /**
   * The turn runs on `threadId` and was delivered up to `lastSeq` (by an earlier page):
   * resume it. A thread not known yet is named by the replayed `thread` frame.
   */
  resumeAt(threadId: string | null, lastSeq: number): void {
    this.announced = this.threadId = threadId;
    this.resumable = true;
    this.lastSeq = lastSeq;
  }

  /** Set when the caller stopped the turn: nothing more is handed on, not even frames already read. */
  stopped = false;

  apply(frame: DataFrame): void {
    if (this.stopped) return;
    if (frame.type === 'thread') {
      const id = frame.data.thread_id;
      // The frame is replayed on every resume; one turn runs on one thread. A second id
      // would move the conversation somewhere the reader never went.
      if (this.announced === id) return;
      if (this.announced !== null) throw protocolError('The service named a second thread for one turn.');
      this.announced = this.threadId = id;
      this.resumable = true;
      this.onProgress?.();
      this.guard(() => this.handlers.onThread?.(id));
      return;
    }
    // Replays after a resume: everything up to the last seq seen was delivered already.
    if (frame.seq <= this.lastSeq) return;
    // A seq far past the last would make every later frame look like a replay: the reply
    // would stop without a word. The first of a turn may be anywhere (a thread counts on).
    if (this.lastSeq && frame.seq > this.lastSeq + MAX_SEQ_STEP) throw protocolError('The service skipped far ahead in its sequence.');
    this.lastSeq = frame.seq;
    this.onProgress?.();
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
