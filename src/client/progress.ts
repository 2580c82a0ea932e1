import { protocolError, type ApiError } from './errors.js';
import { cutText, readMessage } from './guards.js';
import type { DataFrame } from './sse.js';
import type { Message, UnknownFrame } from './types.js';

export interface StreamHandlers {
  /** The thread the turn runs on; called once (the frame is replayed on resume). */
  onThread?(threadId: string): void;
  /**
   * A token delta, in order, never repeated across resumes. `cut`: the reply reached the
   * client's `maxReplyLength` (this delta is cut there, and may be empty) or its next frame
   * was too large to read; nothing follows, the turn ends as complete.
   */
  onToken?(text: string, seq: number, cut?: boolean): void;
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
  /**
   * The reply was cut at `maxReply` characters, or a frame came too large to read: the
   * connection stops reading and the turn ends as complete with what it has. Not an error,
   * nor a drop to resume: a service that sends without end would only send it again.
   */
  truncated = false;
  private __announced: string | null = null;
  /** Characters of reply text handed on, across resumes (a page's own: `resumeAt` counts from there). */
  private __length = 0;

  constructor(
    threadId: string | undefined,
    private readonly __handlers: StreamHandlers,
    private readonly __maxReply = Infinity,
  ) {
    this.threadId = threadId ?? null;
  }

  /**
   * The turn runs on `threadId` and was delivered up to `lastSeq` (by an earlier page):
   * resume it. A thread not known yet is named by the replayed `thread` frame.
   */
  resumeAt(threadId: string | null, lastSeq: number): void {
    this.__announced = this.threadId = threadId;
    this.resumable = true;
    this.lastSeq = lastSeq;
  }

  /** Set when the caller stopped the turn: nothing more is handed on, not even frames already read. */
  stopped = false;

  apply(frame: DataFrame): void {
    // A cut reply is over: what a connection still had in hand is not handed on.
    if (this.stopped || this.truncated) return;
    if (frame.type === 'thread') {
      const id = frame.data.thread_id;
      // The frame is replayed on every resume; one turn runs on one thread. A second id
      // would move the conversation somewhere the reader never went.
      if (this.__announced === id) return;
      if (this.__announced !== null) throw protocolError('The service named a second thread for one turn.');
      this.__announced = this.threadId = id;
      this.resumable = true;
      this.onProgress?.();
      this.__guard(() => this.__handlers.onThread?.(id));
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
      if (text) this.__token(text, frame.seq);
    } else {
      // Read again with the limit: its text cut there, and marked.
      const message = (this.message = readMessage(frame.data, this.__maxReply)!);
      this.truncated = !!message.truncated;
      this.__guard(() => this.__handlers.onMessage?.(message, frame.seq));
    }
  }

  /** A delta, cut where the reply reaches `maxReply`. */
  private __token(text: string, seq: number): void {
    const part = cutText(text, Math.max(0, this.__maxReply - this.__length));
    this.__length += part.length;
    this.truncated = part !== text;
    this.__guard(() => this.__handlers.onToken?.(part, seq, this.truncated));
  }

  /**
   * The next frame is too large to read (it grew past the transport's limit before it
   * ended): the reply is cut where it is, if the turn has named its thread (returns whether
   * it did; before that, there is no turn to end).
   */
  tooLarge(): boolean {
    if (this.stopped || !this.__announced) return false;
    this.truncated = true;
    this.__guard(() => this.__handlers.onToken?.('', this.lastSeq, true));
    return true;
  }

  unknown(frame: UnknownFrame): void {
    this.__guard(() => this.__handlers.onUnknownFrame?.(frame));
  }

  private __guard(call: () => void): void {
    try {
      call();
    } catch (e) {
      this.handlerFailed = true;
      throw e;
    }
  }
}
