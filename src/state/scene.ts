import type { AgentClient } from '../client/client.js';
import type { ChatMessage } from './messages.js';
import type { Notice, RetryAction } from './notice.js';
import type { ConversationState, ConversationStore } from './store.js';
import type { Threads } from './threads.js';
import type { ChatConfig } from './types.js';

/**
 * The conversation as the turns (a chunk: src/state/turns.ts, src/continuity/) see it:
 * what they read, the store whose transitions they call, and the few effects that stay
 * with the controller (src/state/chat-controller.ts). Nothing here is theirs to assign.
 */
export interface TurnHost {
  readonly store: ConversationStore;
  readonly state: ConversationState;
  /** Events go out from it; a host that left the page shows nothing more. */
  readonly host: HTMLElement;
  readonly threads: Threads;
  readonly client: AgentClient | null;
  readonly config: ChatConfig | null;
  /** Loading or in a turn: a rerun waits. */
  readonly busy: boolean;
  /** The notice for a failure, reported to the host (`agent-chat-error`). */
  noticeOf(error: unknown, retry: RetryAction): Notice;
  /** A failure becomes a notice and `agent-chat-error`. */
  fail(error: unknown, retry: RetryAction): void;
  /** The turn of `user` was not taken by the service: out of the log, its text back in the composer. */
  withdraw(user: ChatMessage, reply: string | null, error: unknown, retry: RetryAction): void;
  /** The composer's text with `text` given back beside what is there. */
  draftWith(text: string): string;
  /** The stored thread is gone from the service: said once; the next message starts a new one. */
  threadGone(): void;
  /** The thread in use changed: shows its draft, then loads its transcript. */
  reset(): void;
  /** Loads the thread in use afresh from the service. */
  load(): Promise<void>;
  /** The reader's text changed (kept in the store and, per `persist`, for the next page). */
  setDraft(text: string): void;
  /**
   * The question `text` leaves the composer, which keeps `rest`; storage keeps it as the
   * draft until `holdOutgoing(null)`: its turn is stored with it (or it is back in the composer).
   */
  holdOutgoing(text: string | null, rest: string): void;
  /** Asks the service a question that is in the log (again). */
  ask(user: ChatMessage): Promise<void>;
}
