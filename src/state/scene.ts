import type { ReactiveControllerHost } from '@lit/reactive-element';
import type { AgentClient } from '../client/client.js';
import type { ChatMessage } from './messages.js';
import type { Notice, RetryAction } from './notice.js';
import type { Threads } from './threads.js';
import type { ChatConfig, ChatStatus } from './types.js';

/** The conversation turns run in (ChatController), as they see it. */
export interface TurnScene {
  messages: ChatMessage[];
  status: ChatStatus;
  starters: string[];
  unsent: ChatMessage | null;
  notice: Notice | null;
  /** Loading or in a turn: a rerun waits. */
  readonly busy: boolean;
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly threads: Threads;
  readonly client: AgentClient | null;
  readonly config: ChatConfig | null;
  fail(error: unknown, retry: RetryAction): void;
  restoreDraft(text: string): void;
  threadGone(): void;
  /** The composer's text. */
  draft: string;
  /** The conversation has been loaded for the current configuration. */
  readonly ready: boolean;
  /** The thread in use changed: shows its draft, then loads its transcript. */
  reset(): void;
  /** Loads the thread in use afresh from the service. */
  load(): Promise<void>;
  /** Sends a user message already in the log (again). */
  runTurn(user: ChatMessage): Promise<void>;
}
