import { emit, type ThreadReason } from '../events.js';
import type { BranchEvent } from './branches.js';
import { type HistoryEntry, touch } from './history.js';
import type { ChatMessage } from './messages.js';
import { Saved } from './saved.js';
import { type PersistedState, scopeOf } from './storage.js';
import type { ChatConfig } from './types.js';

/**
 * Which thread the conversation is on, and what this browser keeps of its threads (Saved):
 * the history, the branch relations, the user id. Every change of thread goes through here,
 * is kept, and is announced once with its reason (`agent-chat-thread`); subscribers (the
 * panel) hear of every change, this tab's or another tab's (the history, the branches).
 */
export class Threads {
  /** The thread in use; null before the first message of a new conversation. */
  id: string | null = null;
  userId = '';
  /** An anonymous id nothing keeps (`persist="none"`): a page after this one could not be it. */
  private __unkept: string | null = null;
  /** What this browser keeps of the configuration's scope; null before the first configuration. */
  saved: Saved | null = null;
  private readonly __listeners = new Set<() => void>();

  constructor(private readonly __host: HTMLElement) {}

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.__listeners.add(listener);
    return () => this.__listeners.delete(listener);
  }

  /**
   * Listens to what the other tabs of the scope write (`persist="local"`): their history
   * and branches are taken over (and told), `listener` sees the rest. Returns the stop.
   */
  watch(listener: (state: PersistedState) => void): () => void {
    return (
      this.saved?.watch((state) => {
        this.__changed();
        listener(state);
      }) ?? (() => undefined)
    );
  }

  private __changed(): void {
    for (const listener of this.__listeners) listener();
  }

  /** A new scope (service, credential, persistence): reads what was kept. Returns the thread's draft. */
  open(config: ChatConfig): string | undefined {
    const saved = (this.saved = new Saved(config.persist, scopeOf(config)));
    this.userId = saved.userId(config.userId);
    this.__unkept = config.persist === 'none' && !config.userId ? this.userId : null;
    this.id = config.threadId ?? (typeof saved.initial.threadId === 'string' ? saved.initial.threadId : null);
    // The page's thread-id is the conversation in use, kept as any other: the end of a turn, a
    // reload and the other tabs of the scope follow it instead of what was stored before.
    if (config.threadId && config.threadId !== saved.initial.threadId) saved.set('threadId', config.threadId);
    return saved.draftOf(this.id, saved.initial);
  }

  /**
   * The user tokens are asked for, whose threads the service keeps to them (docs/protocol.md
   * "Visitors"): none for an anonymous id nothing keeps, or the next page could open nothing.
   */
  get visitor(): string {
    return this.userId === this.__unkept ? '' : this.userId;
  }

  /** Threads this browser has had with this agent, newest first. */
  get history(): readonly HistoryEntry[] {
    return this.saved?.history ?? [];
  }

  /** How reruns made threads of threads (src/state/branches.ts). */
  get branches(): readonly BranchEvent[] {
    return this.saved?.branches ?? [];
  }

  /**
   * Moves the conversation to `threadId` (null: a new conversation), announced, and kept
   * unless `keep` is false (another tab made the move and wrote it; a rerun wrote it with
   * its branch).
   */
  move(threadId: string | null, reason: ThreadReason, keep = true): void {
    const previous = this.id;
    this.id = threadId;
    if (keep) this.saved?.set('threadId', threadId);
    this.__changed();
    this.announce(threadId, previous, reason);
  }

  /** The thread is gone or unusable: the next message starts a new one (no event: nothing moved yet). */
  forget(): void {
    this.id = null;
    this.saved?.set('threadId', null);
    this.__changed();
  }

  /** The thread in use had activity: it moves to the top of the history, titled by its first question. */
  touch(messages: readonly ChatMessage[], at?: string): void {
    const first = messages.find((m) => m.role === 'user');
    const id = this.id;
    const when = at ? new Date(at) : new Date();
    if (id && first) this.edit('history', (history) => touch(history, id, first.text, Number.isNaN(when.getTime()) ? new Date() : when));
    else this.__changed();
  }

  /** Changes a list kept for the scope (Saved.edit), and tells the subscribers. */
  edit<K extends 'history' | 'branches'>(name: K, change: (list: Saved[K]) => Saved[K], also?: Partial<PersistedState>): void {
    this.saved?.edit(name, change, also);
    this.__changed();
  }

  announce(threadId: string | null, previousThreadId: string | null, reason: ThreadReason): void {
    emit(this.__host, 'agent-chat-thread', { threadId, previousThreadId, reason });
  }
}
