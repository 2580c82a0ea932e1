import type { ReactiveControllerHost } from '@lit/reactive-element';
import type { PropertyValues } from './host.js';
import type { Strings } from '../i18n/index.js';
import type { CardAction } from '../cards/actions.js';
import type { CardRenderer } from '../cards/cards.js';
import type { ConfigInput, LinkTarget } from '../state/config.js';
import type { ChatConfig, ChatStatus } from '../state/types.js';
import type { ChatMessage } from '../state/messages.js';

/**
 * The element as the panel and its features see it (docs/architecture.md "Shell and
 * panel"): its DOM, its update cycle and the settings they read, each documented on the
 * element's class (`AgentChat`). The panel's chunk depends on this port, not on that
 * class, so nothing below the shell imports the element. `PropertyValues<ChatHost>`
 * checks the keys a render's `willUpdate` looks at.
 */
export interface ChatHost extends HTMLElement, ReactiveControllerHost, ConfigInput {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly isOpen: boolean;
  readonly heading: string;
  readonly placeholder: string;
  readonly agentDisplayName: string;
  readonly channels: string;
  readonly disclaimer: string;
  readonly linkTarget: LinkTarget;
  readonly allowHtml: boolean;
  readonly voice: boolean;
  readonly feedback: boolean;
  readonly readAloud: boolean;
  readonly preview: boolean;
  readonly uploadImage?: (file: File) => Promise<string>;
  readonly cardRenderer?: CardRenderer;
  readonly cardActions?: CardAction[];
  /** The page's `send()`: what a host's card sends goes the way the page's own call does. */
  send(text: string): Promise<void>;
}

/**
 * What the shell has worked out and the panel reads (docs/architecture.md "Shell and
 * panel"): one live object, updated by the shell before each render of the panel.
 */
export interface ShellView {
  /** The host's `strings`, checked to be an object; the panel resolves its text from them. */
  overrides: Partial<Strings> | undefined;
  /** Bumped when language, table or overrides change: the panel resolves its text again. */
  stringsVersion: number;
  /** The UI language tag (tables, Intl formatting) and its direction. */
  locale: string;
  direction: 'ltr' | 'rtl';
  /** `mode` checked: a launcher button with a floating panel. */
  launcher: boolean;
  /** The checked configuration (null: nothing to talk to) and what was wrong with it. */
  config: ChatConfig | null;
  configProblems: readonly string[];
  /** Show developer detail in the UI: the \`debug\` attribute, or a local host (localhost, 127.0.0.1). */
  developer: boolean;
  /** The launcher's button, where focus goes when the panel closes. */
  launcherButton: HTMLButtonElement | null;
  /** Closes the launcher panel (Escape, the close button). */
  close(): void;
}

/** The conversation UI, as the shell (`H`, the element) drives it. Its module is a chunk (src/panel/). */
export interface PanelApi<H = unknown> {
  readonly threadId: string | null;
  readonly messages: readonly ChatMessage[];
  readonly status: ChatStatus;
  /** `host`: the page's `send()`, not the reader (limited: src/state/host-sends.ts). */
  send(text: string, options?: { imageUrl?: string; host?: boolean }): Promise<void>;
  newThread(): void;
  focusInput(): void;
  /** The shown branch as Markdown or JSON (src/export/); loads the conversation first if it has not. */
  exportTranscript(format: unknown): Promise<string | null>;
  /** The panel is about to show (or a reply is pending): the conversation may call the service. */
  activate(): void;
  /**
   * The chunks the next render waits for (a little): those a feature asked for when it
   * became needed and that have not arrived. Not a scan: usually empty.
   */
  waits(): Array<Promise<unknown>>;
  /**
   * The element was asked to render: by anything but the panel's own keystroke and token
   * renders, which is what lets those re-render only what they changed (src/panel/panel.ts).
   */
  renderRequested(): void;
  willUpdate(changed: PropertyValues<H>): void;
  /** Renders into the element's shadow root, after the launcher (lit-html is in the panel's chunk). */
  update(): void;
  updated(changed: PropertyValues<H>): void;
  /** The element was connected or disconnected: lit-html's directives with timers read it. */
  setConnected(connected: boolean): void;
}
