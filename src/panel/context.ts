import type { AgentChat } from '../agent-chat-element.js';
import type { Strings } from '../i18n/index.js';
import type { MarkdownLabels } from '../markdown/markdown.js';
import type { ShellView } from '../shell/panel-api.js';
import type { ChatController } from '../state/chat-controller.js';
import type { FocusKeeper } from './focus-keeper.js';

/**
 * What a feature of the panel works with (docs/architecture.md "Where a feature goes"):
 * the element (settings, events, its shadow root, updates), what the shell worked out, the
 * conversation, and the few panel-wide actions. Features hold their own state and reach
 * each other only through the panel.
 */
export interface PanelContext {
  readonly host: AgentChat;
  readonly view: ShellView;
  readonly chat: ChatController;
  readonly focusKeeper: FocusKeeper;
  /** Every UI text: the language's table with the host's `strings` on top. */
  readonly text: Strings;
  /** Labels the markdown renderer writes (copy buttons, table captions), in the UI language. */
  readonly labels: MarkdownLabels;
  send(text: string, options?: { imageUrl?: string }): Promise<void>;
  focusInput(): void;
  /** A suggestion chip was picked: `agent-chat-suggestion`, then sent unless cancelled. */
  pickSuggestion(text: string): void;
  /** Says `text` through the polite live region (outside the panel), e.g. "Copied". */
  announce(text: string): void;
}
