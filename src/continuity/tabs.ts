import { isObject, type Message } from '../client/types.js';
import { readMessage } from '../client/guards.js';
import { type RunningTurn, readRunningTurn } from './running-turn.js';
import type { Threads } from '../state/threads.js';

/**
 * What the tabs of one conversation scope tell each other about a turn (`persist="local"`,
 * docs/protocol.md "Tabs share one conversation"). The tab that talks to the service (the
 * owner, holding the scope's Web Lock) posts the turn, its tokens and its end; the others
 * mirror it, ask for the turn so far when they join, and may ask the owner to stop.
 * Thread moves, drafts and history travel through storage events, not here.
 */
export type TabMessage =
  /** The turn so far: when it starts, and in answer to `sync`. */
  | { type: 'turn'; id: string; turn: RunningTurn }
  | { type: 'token'; id: string; seq: number; text: string }
  | { type: 'end'; id: string; outcome: 'done' | 'stopped' | 'failed'; message: Message | null }
  /** The owner is alive (where Web Locks are missing, silence means it is gone). */
  | { type: 'beat'; id: string }
  | { type: 'sync' }
  | { type: 'stop'; id: string };

/** The channel of a scope; null where BroadcastChannel is missing (nothing is shared then). */
export function openChannel(scope: string): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(`agent-chat:v1:${scope}`) : null;
  } catch {
    return null;
  }
}

/** The lock the owner of a scope's turn holds while it talks to the service. */
export const lockName = (scope: string): string => `agent-chat:v1:turn:${scope}`;

export const locks = (): LockManager | null => (typeof navigator !== 'undefined' && navigator.locks) || null;

/** A message from another tab, checked: another tab may run another version of this code. */
export function readTabMessage(data: unknown): TabMessage | null {
  if (!isObject(data) || typeof data.type !== 'string') return null;
  const id = typeof data.id === 'string' && data.id.length <= 64 ? data.id : null;
  switch (data.type) {
    case 'sync':
      return { type: 'sync' };
    case 'stop':
    case 'beat':
      return id ? { type: data.type, id } : null;
    case 'turn': {
      const turn = readRunningTurn(data.turn);
      return id && turn ? { type: 'turn', id, turn } : null;
    }
    case 'token':
      return id && typeof data.text === 'string' && Number.isSafeInteger(data.seq)
        ? { type: 'token', id, seq: data.seq as number, text: data.text }
        : null;
    case 'end': {
      const outcome = data.outcome;
      if (!id || (outcome !== 'done' && outcome !== 'stopped' && outcome !== 'failed')) return null;
      const message = data.message === null ? null : readMessage(data.message);
      return message === null && data.message !== null ? null : { type: 'end', id, outcome, message };
    }
    default:
      return null;
  }
}

/** Another tab moved the conversation (it wrote the move): this one follows, announced, not written again. */
export const follow = (threads: Threads, threadId: string | null): void => threads.move(threadId, threadId ? 'switched' : 'reset', false);

/** A turn's id among tabs: not a secret, only distinct. */
export const turnId = (): string => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** How often the owner says it is alive, and how long a mirror waits before taking over without Web Locks. */
export const BEAT_MS = 2_000;
/** How long a turn about to start waits for the lock (a mirroring tab lets go of it within moments). */
const LOCK_WAIT_MS = 1_000;
export const ORPHAN_MS = 6_000;

/**
 * The owner's side of a turn shared with other tabs: it holds the scope's Web Lock while
 * the turn runs (a tab waiting for the lock takes over if this one goes away), posts the
 * turn, its tokens and its end, answers `sync`, and stops when another tab asks it to.
 */
export class TurnLink {
  readonly id = turnId();
  private readonly __channel: BroadcastChannel | null;
  private __release: (() => void) | null = null;
  private __beat: ReturnType<typeof setInterval> | undefined;
  private __ended = false;

  private constructor(
    scope: string,
    private readonly __current: () => RunningTurn | null,
    onStop: () => void,
  ) {
    this.__channel = openChannel(scope);
    this.__channel?.addEventListener('message', (event) => {
      const message = readTabMessage(event.data);
      if (message?.type === 'sync') this.announce();
      else if (message?.type === 'stop' && message.id === this.id) onStop();
    });
    // Without Web Locks the others learn that this tab is gone from its silence.
    if (!locks()) this.__beat = setInterval(() => this.__post({ type: 'beat', id: this.id }), BEAT_MS);
  }

  /**
   * Opens the link of a turn about to start, once this tab holds the scope's lock; `held`:
   * it holds it already (taking over, resuming). Null when another tab's turn has the
   * conversation (docs/protocol.md "Tabs share one conversation", two tabs sending at
   * once): the lock was not granted within LOCK_WAIT_MS, another tab's turn was heard
   * meanwhile, or `unchanged()` says storage moved on (another turn stored, another thread) since
   * this turn's request was built. A tab that mirrored the last turn may hold the lock a
   * moment longer; that wait is short and silent, so it does not count as another turn.
   * Without Web Locks only `unchanged()` decides: two tabs within the same moment both run.
   */
  static async open(
    scope: string,
    current: () => RunningTurn | null,
    onStop: () => void,
    held: boolean,
    unchanged: () => boolean,
  ): Promise<TurnLink | null> {
    const link = new TurnLink(scope, current, onStop);
    const manager = locks();
    if (held) return link;
    let granted = !manager;
    if (manager) {
      // Given up when another tab's turn is heard, or the wait is over.
      const give = new AbortController();
      const timer = setTimeout(() => give.abort(), LOCK_WAIT_MS);
      const listen = (event: MessageEvent): void => {
        const message = readTabMessage(event.data);
        if (message && 'id' in message && message.id !== link.id && message.type !== 'stop') give.abort();
      };
      link.__channel?.addEventListener('message', listen);
      granted = await new Promise<boolean>((resolve) => {
        manager
          .request(lockName(scope), { signal: give.signal }, (lock) => {
            resolve(!!lock && !give.signal.aborted);
            if (!lock || link.__ended) return undefined;
            return new Promise<void>((release) => (link.__release = release));
          })
          .catch(() => resolve(false));
      });
      clearTimeout(timer);
      link.__channel?.removeEventListener('message', listen);
    }
    if (granted && unchanged()) return link;
    link.leave();
    return null;
  }

  /** The turn so far, to the tabs that mirror it (at its start, and when one asks). */
  announce(): void {
    const turn = this.__current();
    if (turn) this.__post({ type: 'turn', id: this.id, turn });
  }

  token(seq: number, text: string): void {
    this.__post({ type: 'token', id: this.id, seq, text });
  }

  /** The turn ended here: the others show the end; the lock goes to a tab waiting for it. */
  end(outcome: 'done' | 'stopped' | 'failed', message: Message | null): void {
    if (this.__ended) return;
    this.__ended = true;
    this.__post({ type: 'end', id: this.id, outcome, message });
    clearInterval(this.__beat);
    this.__channel?.close();
    this.__release?.();
  }

  /** The element left mid-turn (the page goes): the lock is let go, a waiting tab takes over. */
  leave(): void {
    if (this.__ended) return;
    this.__ended = true;
    clearInterval(this.__beat);
    this.__channel?.close();
    this.__release?.();
  }

  private __post(message: TabMessage): void {
    try {
      this.__channel?.postMessage(message);
    } catch {
      // A closed channel or an uncloneable value: the other tabs reload the transcript instead.
    }
  }
}
