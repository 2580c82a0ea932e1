import { warnOnce } from '../warn.js';

/** The page's send() calls allowed at once, before one a second. */
const BURST = 3;

/**
 * The page's `send()` calls: a burst of three, then one a second; one too many is dropped
 * with a warning. A listener that sent again on every `agent-chat-error` made 936 requests
 * in 10 s. The reader's own sends (the composer, a chip, Retry) are not counted. Kept by the
 * turns' chunk: a page that never sends never needs it.
 */
export class HostSends {
  /** What is left of the burst, and when it was last counted. */
  private __left = BURST;
  private __at = 0;

  allow(now = Date.now()): boolean {
    this.__left = Math.min(BURST, this.__left + (now - this.__at) / 1000);
    this.__at = now;
    if (this.__left >= 1) return !!this.__left--;
    warnOnce('send() dropped: called more than once a second (by an agent-chat-error listener?)');
    return false;
  }
}
