import { MAX_TEXT, type RunningTurn } from './running-turn.js';

/**
 * Keeps the running turn in storage as it moves: at once when it begins and when the
 * service names its thread, at most every `THROTTLE_MS` while tokens arrive, and at once
 * when the page goes (`pagehide`), so a reload finds it no staler than a moment.
 */
export class TurnJournal {
  private __record: RunningTurn | null = null;
  private __timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly __write: (turn: RunningTurn | null) => void) {}

  get current(): RunningTurn | null {
    return this.__record;
  }

  begin(turn: RunningTurn): void {
    if (!this.__record) addEventListener('pagehide', this.flush);
    this.__record = { ...turn };
    this.flush();
  }

  thread(threadId: string): void {
    if (!this.__record) return;
    this.__record.threadId = threadId;
    this.flush();
  }

  progress(seq: number, text: string): void {
    const record = this.__record;
    if (!record) return;
    record.lastSeq = seq;
    // A reply too long to keep is resumed from its start: seq 0 and no text, still together.
    if (text.length > MAX_TEXT) record.lastSeq = 0;
    record.text = text.length > MAX_TEXT ? '' : text;
    this.__timer ??= setTimeout(this.flush, THROTTLE_MS);
  }

  /** The turn ended here (finished, stopped, failed): nothing is left to resume. */
  end(): void {
    // Released already (the element left): what is stored stays for the next page.
    if (!this.__record) return;
    this.__stop();
    this.__write(null);
  }

  /** This page lets go of the turn without ending it (the element left the page): keep it as it is. */
  release(): void {
    if (!this.__record) return;
    this.flush();
    this.__stop();
  }

  readonly flush = (): void => {
    clearTimeout(this.__timer);
    this.__timer = undefined;
    if (this.__record) this.__write({ ...this.__record });
  };

  private __stop(): void {
    clearTimeout(this.__timer);
    this.__timer = undefined;
    this.__record = null;
    removeEventListener('pagehide', this.flush);
  }
}

const THROTTLE_MS = 250;
