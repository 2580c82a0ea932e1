import type { ChatHost } from '../shell/panel-api.js';
import type { Strings } from '../i18n/index.js';
import type { Chunk } from '../lazy.js';
import type { MarkdownLabels } from '../markdown/markdown.js';
import type { ShellView } from '../shell/panel-api.js';
import type { ChatController } from '../state/chat-controller.js';
import type { ConversationStore } from '../state/store.js';
import type { ChatMessage } from '../state/messages.js';
import type { Feature, FeatureModule } from './feature.js';
import type { FocusKeeper } from './focus-keeper.js';

/**
 * The conversation as the panel's parts and features see it: its state, and the named
 * commands they may give. `ChatController` is it, and more that only the panel uses (load,
 * configure, retry, the tabs). The store is read and followed here, never changed: its
 * transitions are the controller's and the turns'.
 */
export interface Conversation extends Pick<
  ChatController,
  | 'state'
  | 'messages'
  | 'status'
  | 'threadId'
  | 'busy'
  | 'replying'
  | 'currentUserId'
  | 'history'
  | 'branches'
  | 'client'
  | 'threads'
  | 'setDraft'
  | 'switchThread'
  | 'showBranch'
  | 'stop'
  | 'activate'
  | 'prefetchTurn'
  | 'useTurns'
  | 'fail'
> {
  readonly store: Pick<ConversationStore, 'subscribe' | 'find'>;
}

/**
 * What a feature of the panel works with (docs/architecture.md "Where a feature goes"):
 * the element (settings, events, its shadow root), what the shell worked out, the
 * conversation (its state is `chat.state`, changed only through its store), and the few
 * panel-wide actions. Features hold their own view state (`ViewState`) and reach each
 * other only through the panel.
 */
export interface PanelContext {
  readonly host: ChatHost;
  readonly view: ShellView;
  readonly chat: Conversation;
  readonly focusKeeper: FocusKeeper;
  /** Every UI text: the language's table with the host's `strings` on top. */
  readonly text: Strings;
  /** Labels the markdown renderer writes (copy buttons, table captions), in the UI language. */
  readonly labels: MarkdownLabels;
  /** Which messages the next render renders again (src/panel/renders.ts). */
  readonly renders: RenderMarks;
  /**
   * This widget's use of a lazy feature's chunk (src/chunks.ts): fetched on need, rendered
   * on arrival. A failure is said by the panel's notice, unless `saysFailure`: the slot says
   * it where the feature would be.
   */
  feature<T extends FeatureModule>(chunk: Chunk<T>, saysFailure?: boolean): Feature<T>;
  send(text: string, options?: { imageUrl?: string }): Promise<void>;
  /**
   * Whether sending waits for the reader to accept the disclaimer (attribute `disclaimer`):
   * then what would send does not, and the reader is told (`host`: the page's call, warned).
   */
  sendHeld(host?: boolean): boolean;
  focusInput(): void;
  /** A suggestion chip was picked: `agent-chat-suggestion`, then sent unless cancelled. */
  pickSuggestion(text: string): void;
  /** Says `text` through the polite live region (outside the panel), e.g. "Copied". */
  announce(text: string): void;
  /**
   * What a click on a control inside a message does, for controls that say `data-act=name`:
   * one listener serves every message (src/log/message.ts `actOn`), so messages and turns add
   * none of their own.
   */
  onMessageAction(name: string, action: MessageAction): void;
}

/**
 * Which messages a render renders again: every one when `revision` changed, else those whose
 * `marks` changed (a state shown in some messages only, like a "Copied" label, `touched`
 * them) and the one a token grew.
 */
export interface RenderMarks {
  /** Changes whenever what every message shows may have changed besides the message itself. */
  readonly revision: number;
  /** How many times what message `key` shows besides itself changed. */
  marks(key: string): number;
  /** How many times `touched` was called: a render after one is not a keystroke's. */
  readonly touches: number;
  /** Renders again the messages `keys` (and what the panel shows besides them), not the others. */
  touched(keys: ReadonlyArray<string | null | undefined>): void;
}

/** A control inside message `m` was clicked (`control`: the element with `data-act`; `event`: the click, which it may cancel). */
export type MessageAction = (m: ChatMessage, control: HTMLElement, event: Event) => void;

/**
 * A feature's own view state (a form open, a button that says "Copied"): replaced through
 * `set()`, which renders the widget again. With the conversation's store (whose
 * notifications the panel follows), the way the screen is told that something changed.
 * A state shown in a few messages, or outside the log, says so (`touching`: the keys of the
 * messages a state shows in, none for outside the log), and a change renders only those
 * messages again, not the whole log.
 */
export class ViewState<T extends object> {
  constructor(
    private readonly __host: { requestUpdate(): void },
    private __current: T,
    private readonly __touching?: { renders: Pick<RenderMarks, 'touched'>; keys(state: T): ReadonlyArray<string | null | undefined> },
  ) {}

  get value(): T {
    return this.__current;
  }

  set(patch: Partial<T>): void {
    const before = this.__current;
    this.__current = { ...before, ...patch };
    if (!this.__touching) return this.__host.requestUpdate();
    const { renders, keys } = this.__touching;
    renders.touched([...keys(before), ...keys(this.__current)]);
  }
}
