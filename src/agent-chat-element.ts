import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { live } from 'lit/directives/live.js';
import type { AgentVariables, Card, Channel, Message } from './client/types.js';
import type { CardRenderer } from './cards/cards.js';
import { Feature, lazy } from './lazy.js';
import { warnOnce } from './warn.js';
import { emit } from './events.js';
import { type Strings, hasStrings, isRtl, loadStrings, resolveStrings } from './i18n/index.js';
import {
  handleCopyClick,
  hasHtmlSupport,
  loadHtmlSupport,
  markdown,
  markdownLabels,
  plainSummary,
  type MarkdownLabels,
} from './markdown/markdown.js';
import { renderNotice } from './render/notice.js';
import { renderSuggestions } from './render/suggestions.js';
import { icons } from './render/icons.js';
import { type ChatStatus, ChatController } from './state/chat-controller.js';
import { FocusKeeper } from './state/focus-keeper.js';
import type { ChatMessage } from './state/messages.js';
import type { Notice } from './state/notice.js';
import type { PersistMode } from './state/storage.js';
import { hook, oneOf, readConfig, record, text as textSetting, type Mode, type Theme, type Transport } from './state/config.js';
import { styles } from './styles/agent-chat.styles.js';

export type { Mode, Theme, Transport };
export type { CardRenderer };

/** Bad JSON in `agent-variables` must not throw out of the attribute setter. */
const jsonConverter = {
  fromAttribute(value: string | null): AgentVariables | undefined | Error {
    if (value == null || value.trim() === '') return undefined;
    try {
      const parsed: unknown = JSON.parse(value);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return new Error('agent-variables must be a JSON object like {"static": {...}, "dynamic": {...}}');
      }
      return parsed as AgentVariables;
    } catch {
      return new Error('agent-variables is not valid JSON');
    }
  },
};

function timeFormat(lang: string): Intl.DateTimeFormat {
  const options = { hour: 'numeric', minute: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat(lang, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options); // a language tag Intl does not take
  }
}

/**
 * Messages rendered when a transcript opens, and per step of "show earlier" (a click, or
 * scrolling to the top): a screenful and more, yet few enough that one step (markdown,
 * style and layout of the new messages) stays well under a 50 ms task on a slow machine,
 * so opening and scrolling a long conversation do not stutter (BENCHMARKS.md).
 */
const WINDOW = 15;

/** How long a render waits for the lazy chunks it needs before it goes ahead without them. */
const FEATURE_WAIT_MS = 3000;

// Lazy features: each a chunk beside the script, fetched when a page first needs it.
const loadAttachments = lazy(() => import('./attachments/index.js'));
const loadHistory = lazy(() => import('./history/history.js'));
const loadCards = lazy(() => import('./cards/cards.js'));
const loadBranches = lazy(() => import('./branches/index.js'));

/** The WhatsApp/SMS hand-off form (state, templates, styles), fetched when a form is first opened. */
const loadHandOff = lazy(() => import('./handoff/index.js'));

/**
 * An embeddable chat with a conversational agent: streams replies, renders markdown and
 * product cards, keeps the thread across reloads. Works inline or as a floating launcher.
 *
 * @summary Chat with a conversational agent, from one script tag.
 *
 * @fires {CustomEvent<ReadyDetail>} agent-chat-ready - `{threadId}` after the welcome message or transcript has loaded.
 * @fires {CustomEvent<SendDetail>} agent-chat-send - `{text, threadId, imageUrl}` before a message is sent; cancelable.
 * @fires {CustomEvent<MessageDetail>} agent-chat-message - `{message, threadId}` when an agent reply is complete.
 * @fires {CustomEvent<ThreadDetail>} agent-chat-thread - `{threadId, previousThreadId, reason}`; reason is `created`, `rerun`, `restored`, `switched` or `reset`.
 * @fires {CustomEvent<ErrorDetail>} agent-chat-error - `{code, message, status, requestId, retryable}`.
 * @fires {CustomEvent<SuggestionDetail>} agent-chat-suggestion - `{text}` before a suggestion is sent; cancelable.
 * @fires {CustomEvent<CardClickDetail>} agent-chat-card-click - `{card, url}`; cancelable: by default a card link opens in a new tab.
 * @fires {CustomEvent<EmptyDetail>} agent-chat-open - The launcher panel opened.
 * @fires {CustomEvent<EmptyDetail>} agent-chat-close - The launcher panel closed.
 * @fires {CustomEvent<ChannelDetail>} agent-chat-channel - `{channel, threadId, phoneNumber}` after a WhatsApp/SMS hand-off succeeded.
 *
 * @csspart panel - The chat surface (the floating panel in launcher mode).
 * @csspart header - The header bar.
 * @csspart heading - The title in the header.
 * @csspart new-button - The "new conversation" button.
 * @csspart close-button - Closes the launcher panel.
 * @csspart launcher - The round launcher button.
 * @csspart log - The `role="log"` message list.
 * @csspart welcome - The welcome message.
 * @csspart message - Every message; also `message-user` or `message-agent`.
 * @csspart message-user - A message the user wrote.
 * @csspart message-agent - A reply of the agent.
 * @csspart bubble - The bubble of one message.
 * @csspart text - The rendered markdown of one message.
 * @csspart meta - Time and state under a message.
 * @csspart cards - The row of cards of a reply.
 * @csspart card - One card; the recommended one also has `card-recommended`.
 * @csspart card-recommended - The card the agent recommends.
 * @csspart card-image - A card's image.
 * @csspart card-title - A card's title.
 * @csspart card-price - A card's price.
 * @csspart card-fields - A card's other fields.
 * @csspart card-variants - A card's variant groups.
 * @csspart cards-more - Under a reply with more than 12 cards: shows the next 12.
 * @csspart suggestions - The group of suggestion chips.
 * @csspart suggestion - One suggestion chip.
 * @csspart typing - The "agent is typing" indicator.
 * @csspart load-earlier - Shows earlier messages of a long conversation (also on scrolling to the top).
 * @csspart jump-to-latest - The "jump to latest" button shown when scrolled up.
 * @csspart error - The error notice.
 * @csspart retry-button - The notice's retry button.
 * @csspart composer - The form with the text field and buttons.
 * @csspart input - The text field.
 * @csspart send-button - The send button.
 * @csspart stop-button - The button that stops a streaming reply.
 * @csspart attach-button - Opens the image picker (only when `uploadImage` is set).
 * @csspart attachment - The attached image's preview in the composer, with its remove button.
 * @csspart channel-button - Opens the WhatsApp/SMS hand-off form (only with `channels`).
 * @csspart channel-form - The hand-off form, and its confirmation.
 * @csspart regenerate-button - Regenerates an agent reply as a new branch of the thread.
 * @csspart edit-button - Edits a user message; the edited text is re-asked as a new branch.
 * @csspart branch-nav - "‹ 2 / 3 ›": moves between the versions of a turn.
 * @csspart history-button - Opens the list of earlier conversations.
 * @csspart history - The list of earlier conversations with this agent.
 *
 * @cssprop --agent-chat-accent - Accent colour: user bubbles, buttons, links. Default `#4f46e5`.
 * @cssprop --agent-chat-accent-text - Text on the accent colour. Default `#ffffff`.
 * @cssprop --agent-chat-background - Panel background. Default `#ffffff` (dark: `#15171c`).
 * @cssprop --agent-chat-surface - Agent bubbles and subtle surfaces. Default `#f3f4f6`.
 * @cssprop --agent-chat-text - Text colour. Default `#111827`.
 * @cssprop --agent-chat-muted-text - Secondary text. Default `#5b6170`.
 * @cssprop --agent-chat-border - Borders. Default `#d9dce3`.
 * @cssprop --agent-chat-danger - Error accents. Default `#b42318`.
 * @cssprop --agent-chat-danger-surface - Error notice background. Default `#fef3f2`.
 * @cssprop --agent-chat-radius - Corner radius of panel, bubbles and cards. Default `14px`.
 * @cssprop --agent-chat-font - Font family. Default: the system UI font.
 * @cssprop --agent-chat-font-size - Base font size. Default `15px`.
 * @cssprop --agent-chat-spacing - Base spacing. Default `12px`.
 * @cssprop --agent-chat-max-width - Maximum width of the conversation column. Default `760px`.
 * @cssprop --agent-chat-launcher-size - Diameter of the launcher button. Default `56px`.
 * @cssprop --agent-chat-panel-width - Launcher panel width. Default `400px`.
 * @cssprop --agent-chat-panel-height - Launcher panel height. Default `640px`.
 * @cssprop --agent-chat-shadow - Shadow of the launcher and its panel.
 * @cssprop --agent-chat-focus-ring - Focus outline colour. Default `#2563eb`.
 * @cssprop --agent-chat-code-background - Code block background. Default `#0f172a`.
 * @cssprop --agent-chat-code-text - Code block text. Default `#e2e8f0`.
 * @cssprop --agent-chat-z-index - Stacking order of the launcher. Default `2147483000`.
 */
export class AgentChat extends LitElement {
  static override styles = styles;

  /** Service base address; the reference's paths are appended to it. Required. */
  @property({ attribute: 'base-url', reflect: true }) baseUrl = '';

  /** Browser-safe key, exchanged for an access token. */
  @property({ attribute: 'publishable-key' }) publishableKey = '';

  /** A ready access token minted by the host; wins over `publishable-key`. */
  @property({ attribute: 'access-token' }) accessToken = '';

  /** End-user id sent as `user_id`; when empty an anonymous id is generated once and kept. */
  @property({ attribute: 'user-id' }) userId = '';

  /** Open this thread (24 hex characters). Read `threadId` for the thread in use. */
  @property({ attribute: 'thread-id' }) threadIdAttribute = '';

  /** `sse` (stream), `rest` (one JSON response) or `websocket`. */
  @property() transport: Transport = 'sse';

  /** `{static, dynamic}` sent as `agent_variables`; the attribute takes JSON. */
  @property({ attribute: 'agent-variables', converter: jsonConverter }) agentVariables?: AgentVariables | Error;

  /** `inline` fills its box; `launcher` is a floating button that opens a panel. */
  @property({ reflect: true }) mode: Mode = 'inline';

  /**
   * Launcher mode: whether the panel is open (attribute `open`). The property has another
   * name because `open()` is a method (CONTRACT.md).
   */
  @property({ type: Boolean, reflect: true, attribute: 'open' }) isOpen = false;

  /** `local`, `session` or `none`: where thread id, user id and draft are kept. */
  @property() persist: PersistMode = 'local';

  /** UI language; right-to-left languages switch the layout. Defaults to the page's language. */
  @property() override lang = '';

  /** `light`, `dark` or `auto` (follows the system). */
  @property({ reflect: true }) theme: Theme = 'auto';

  /** Title in the header. Defaults to the localized "Chat". */
  @property() heading = '';

  /** Composer placeholder. Defaults to a localized text. */
  @property() placeholder = '';

  /** Comma list of hand-off channels offered, e.g. `whatsapp,sms`. */
  @property() channels = '';

  /** Sent as `agent_display_name` on channel hand-off; shown as the agent's name. */
  @property({ attribute: 'agent-display-name' }) agentDisplayName = '';

  /** Pin regenerate and edit to this agent version id (preview use). */
  @property({ attribute: 'version-id' }) versionId = '';

  /** Pin regenerate and edit to this agent version tag, e.g. `v3.2` (preview use). */
  @property({ attribute: 'version-tag' }) versionTag = '';

  /** Host-supplied tokens; called again after a 401. */
  @property({ attribute: false }) tokenProvider?: () => Promise<string>;

  /** Sent as `context` to the follow-up suggestions operation, with the page URL and title. */
  @property({ attribute: false }) suggestionContext?: Record<string, unknown>;

  /** Uploads an image and returns a signed URL sent as `image_url`. */
  @property({ attribute: false }) uploadImage?: (file: File) => Promise<string>;

  /** Custom card rendering; `null`/`undefined` falls back to the built-in card. */
  @property({ attribute: false }) cardRenderer?: CardRenderer;

  /** Overrides of any UI text. */
  @property({ attribute: false }) strings: Partial<Strings> = {};

  /**
   * Render the sanitised HTML subset in agent text instead of showing raw HTML as text.
   * Off by default: see the README's security notes.
   */
  @property({ type: Boolean, attribute: 'allow-html' }) allowHtml = false;

  @state() private unread = false;
  @state() private showJump = false;
  @state() private historyOpen = false;
  /** Index of the first rendered message: long transcripts render their tail first. */
  @state() private windowStart = 0;
  private windowAnchor: string | undefined;
  /** The user message being edited, and the editor's text. */
  @state() private editing: { key: string; text: string } | null = null;
  /**
   * What the polite status region says: the last completed reply as plain text, then how
   * many suggested replies came with it. Fixed when the reply completes, so later renders
   * (suggestions hidden while the next turn runs) never change it and re-announce it.
   */
  @state() private liveText = '';

  @query('textarea') private input?: HTMLTextAreaElement;
  @query('.log') private log?: HTMLElement;
  @query('.launcher') private launcherButton?: HTMLButtonElement;

  private readonly chat = new ChatController(this);
  /** Keeps focus on something sensible when a re-render removes the focused control. */
  private readonly focusKeeper = new FocusKeeper(this, () =>
    this.launcher && !this.isOpen ? this.launcherButton : this.input,
  );
  /** Image input (src/attachments/), loaded once `uploadImage` is set. */
  private readonly attach = new Feature(loadAttachments, this);
  private attachments: import('./attachments/index.js').Attachments | null = null;
  /** Hand-off to WhatsApp/SMS (src/handoff/), loaded when `channels` is set. */
  private readonly handoff = new Feature(loadHandOff, this);
  /** The form's state, made when the form is first opened. */
  private handOff: import('./handoff/index.js').HandOff | null = null;
  /** `channels` checked: the attribute's text, and the channels offered, in the host's order. */
  private channelsText = '';
  private offeredChannels: Channel[] = [];
  /** An image is being dragged over the panel. */
  @state() private dropping = false;
  private dragDepth = 0;
  /** Per message key: its turn (index among user messages) and the reply that answers it. */
  private turns = new Map<string, { turn: number; replyId?: string }>();
  private text!: Strings;
  /** The UI language's table arrived since `text` was resolved. */
  private stringsStale = true;
  /** allow-html is set but its sanitiser chunk failed to load (warned once). */
  private htmlUnavailable = false;
  private labels!: MarkdownLabels;
  private direction: 'ltr' | 'rtl' = 'ltr';
  private locale = 'en';
  /**
   * One formatter per language: every render stamps every rendered message, and creating an
   * Intl.DateTimeFormat per stamp made re-renders of long transcripts cost tens of ms. The
   * first one on a page costs ~25 ms (ICU data), so it is made when there is a message to
   * stamp, or earlier when the browser is idle, not while the widget mounts.
   */
  private timeFormat: Intl.DateTimeFormat | null = null;
  private configProblems: string[] = [];
  /** `mode` checked: the launcher is shown. */
  private launcher = false;
  /** The history panel (src/history/), loaded when it is first opened. */
  private readonly history = new Feature(loadHistory, this);
  /** Turn controls and the editor (src/branches/), loaded with the first message sent or a finished turn. */
  private readonly branches = new Feature(loadBranches, this);
  /** Product cards (src/cards/), loaded for the first reply that has cards. */
  private readonly cards = new Feature(loadCards, this);
  /** Cards shown per message key, when the reader asked for more than `CARD_STEP`. */
  private readonly cardsShown = new Map<string, number>();
  /** `uploadImage` and `cardRenderer` when they are functions. */
  private upload: ((file: File) => Promise<string>) | undefined;
  private customCard: CardRenderer | undefined;
  private stickToBottom = true;
  private lastScrollHeight = 0;

  constructor() {
    super();
    this.addEventListener('agent-chat-message', () => {
      if (this.launcher && !this.isOpen) this.unread = true;
      this.announceReply();
    });
    // Copy buttons come from the markdown renderer; one delegated listener serves them all.
    this.addEventListener('click', (event) => handleCopyClick(event, this.text.copied));
    // Drag events from inside the shadow root are composed; the host sees them all.
    this.addEventListener('dragenter', (event) => this.onDragEnter(event));
    this.addEventListener('dragover', (event) => this.onDragOver(event));
    this.addEventListener('dragleave', () => this.onDragLeave());
    this.addEventListener('drop', (event) => this.onDrop(event));
  }

  /** The thread in use; changes as the conversation moves. */
  get threadId(): string | null {
    return this.chat.threadId;
  }

  /** The visible conversation, oldest first. Read-only. */
  get messages(): readonly ChatMessage[] {
    return this.chat.messages;
  }

  /** `idle`, `connecting`, `streaming`, `reconnecting` or `error`. */
  get status(): ChatStatus {
    return this.chat.status;
  }

  /**
   * Sends a message as if the user had typed it. Fires `agent-chat-send` first. With an
   * `imageUrl` and no text, the localized `imageMessage` ("Image") is sent: the service
   * requires text.
   */
  async send(text: string, options: { imageUrl?: string } = {}): Promise<void> {
    // A host may call send() right after adding the element. The first update applies the
    // attributes (after a lazy language or sanitiser chunk, if any); the text waits for it.
    if (!this.hasUpdated) await this.updateComplete;
    const trimmed = text.trim() || (options.imageUrl ? this.text.imageMessage : '');
    // While the conversation loads the controller holds the text until it can go out;
    // while a turn runs, nothing is sent.
    if (!trimmed || this.chat.turnRunning) return;
    const allowed = emit(this, 'agent-chat-send', { text: trimmed, threadId: this.chat.threadId, imageUrl: options.imageUrl ?? null }, true);
    if (!allowed) return;
    // What a reply brings (cards, its turn controls): fetched while the agent thinks.
    void this.cards.ensure();
    void this.branches.ensure();
    await this.chat.send(trimmed, options.imageUrl);
  }

  /** Starts a new conversation; the next message creates a new thread. */
  newThread(): void {
    this.liveText = '';
    this.chat.newThread();
  }

  /** Opens the launcher panel and moves focus into it. */
  open(): void {
    this.setOpen(true);
  }

  /** Closes the launcher panel and returns focus to the launcher button. */
  close(): void {
    this.setOpen(false);
  }

  toggle(): void {
    this.setOpen(!this.isOpen);
  }

  /** Moves focus to the text field. */
  focusInput(): void {
    this.input?.focus();
  }

  private uiLang(): string {
    return this.lang || document.documentElement.lang || navigator.language || 'en';
  }

  /**
   * Holds an update until the table of the UI language has arrived (a chunk beside the
   * script), so a German page never flashes English first.
   */
  protected override async scheduleUpdate(): Promise<void> {
    // What this render needs from lazy chunks, fetched in parallel so nothing pops in a
    // moment later: the UI language's table (a German page never flashes English), image
    // input with `uploadImage`, the history panel and the editor on their first opening,
    // the cards with the first reply that has any, the sanitiser for allow-html (until it
    // is here, nothing renders rather than markup that would change).
    const needs: Array<Promise<unknown>> = [];
    const lang = this.uiLang();
    if (!hasStrings(lang)) {
      needs.push(
        loadStrings(lang).then((ok) => {
          if (!ok) warnOnce(`the "${lang}" strings could not be loaded; using English.`);
          this.stringsStale = true;
        }),
      );
    }
    // `uploadImage` itself: `upload` is only checked in willUpdate, after this.
    if (typeof this.uploadImage === 'function' && !this.attachments && !this.attach.failed) {
      needs.push(
        this.attach.ensure().then((module) => {
          if (module) this.attachments ??= new module.Attachments(this);
          else warnOnce('the image input could not be loaded; images cannot be attached.');
        }),
      );
    }
    if (this.historyOpen) needs.push(this.history.ensure());
    if (typeof this.channels === 'string' && this.channels.trim()) {
      needs.push(this.handoff.ensure().then((module) => module || warnOnce('the WhatsApp/SMS hand-off could not be loaded.')));
    }
    if (this.editing && this.branches.failed) {
      // An editor that cannot be fetched drops the edit; the next Edit tries again.
      needs.push(
        this.branches.retry().then((module) => {
          if (module) return;
          this.editing = null;
          warnOnce('the message editor could not be loaded.');
        }),
      );
    } else if (this.chat.messages.some((m) => m.id)) {
      needs.push(this.branches.ensure());
    }
    if (this.chat.messages.some((m) => m.cards.length)) needs.push(this.cards.ensure());
    if (this.allowHtml && !hasHtmlSupport() && !this.htmlUnavailable) {
      needs.push(
        loadHtmlSupport().then((ok) => {
          if (ok) return;
          this.htmlUnavailable = true;
          warnOnce('allow-html could not load its sanitiser; raw HTML is shown as text.');
        }),
      );
    }
    if (needs.length) {
      // A chunk the network holds up delays a render a little, never the widget: after
      // FEATURE_WAIT_MS it renders without, and again once the chunk is here.
      const all = Promise.all(needs);
      const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, FEATURE_WAIT_MS, false));
      if (!(await Promise.race([all.then(() => true), timeout]))) void all.then(() => this.requestUpdate());
    }
    super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('lang') || changed.has('strings') || this.stringsStale) {
      this.stringsStale = false;
      const lang = this.uiLang();
      const problems: string[] = [];
      this.text = resolveStrings(lang, record('strings', this.strings, problems) as Partial<Strings> | undefined);
      problems.forEach((problem) => warnOnce(problem));
      this.labels = markdownLabels(this.text);
      this.direction = isRtl(lang) ? 'rtl' : 'ltr';
      this.locale = lang;
      this.timeFormat = null;
    }
    if (!this.timeFormat && this.chat.messages.length) this.timeFormat = timeFormat(this.locale);
    this.applySettings(changed);
    const configKeys = [
      'baseUrl',
      'publishableKey',
      'accessToken',
      'tokenProvider',
      'userId',
      'threadIdAttribute',
      'transport',
      'agentVariables',
      'persist',
      'suggestionContext',
      'versionId',
      'versionTag',
    ] as const;
    if (configKeys.some((key) => changed.has(key))) this.applyConfig();
    this.turns = turnsOf(this.chat.messages);
    // A newly loaded transcript renders its latest messages only; earlier ones follow on
    // demand, so a 500-message thread opens as fast as a short one.
    const first = this.chat.messages[0]?.key;
    if (first !== this.windowAnchor) {
      this.windowAnchor = first;
      this.cardsShown.clear();
      this.windowStart = Math.max(0, this.chat.messages.length - WINDOW);
    }
  }

  /** The conversation's settings, checked (state/config.ts); problems become a notice and a warning. */
  private applyConfig(): void {
    const { config, problems } = readConfig(this);
    problems.forEach((problem) => warnOnce(problem));
    this.configProblems = problems;
    if (config) this.chat.configure(config);
  }

  /** Settings of the UI itself, checked: a bad one warns once and takes its default. */
  private applySettings(changed: PropertyValues<this>): void {
    const problems: string[] = [];
    if (changed.has('mode')) this.launcher = oneOf('mode', this.mode, ['inline', 'launcher'] as const, problems) === 'launcher';
    if (changed.has('theme')) oneOf('theme', this.theme, ['auto', 'light', 'dark'] as const, problems);
    if (changed.has('uploadImage')) this.upload = hook('uploadImage', this.uploadImage, problems);
    if (changed.has('cardRenderer')) this.customCard = hook('cardRenderer', this.cardRenderer, problems);
    if (changed.has('channels')) this.channelsText = textSetting('channels', this.channels, problems);
    this.applyChannels();
    problems.forEach((problem) => warnOnce(problem));
  }

  protected override firstUpdated(): void {
    const whenIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
    whenIdle(() => (this.timeFormat ??= timeFormat(this.locale)));
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('editing') && this.editing && !changed.get('editing')) {
      this.renderRoot.querySelector<HTMLTextAreaElement>('.edit-input')?.focus();
    }
    if (changed.has('historyOpen') && this.historyOpen) {
      this.renderRoot.querySelector<HTMLElement>('.history button')?.focus();
    }
    if (changed.has('isOpen') && changed.get('isOpen') !== undefined) {
      if (this.isOpen) this.focusInput();
      else this.launcherButton?.focus();
    }
    this.followLog();
  }

  /** Auto-scroll follows the conversation only while the reader is at the bottom. */
  private followLog(): void {
    const log = this.log;
    if (!log) return;
    const grew = log.scrollHeight > this.lastScrollHeight;
    this.lastScrollHeight = log.scrollHeight;
    if (this.stickToBottom) {
      log.scrollTop = log.scrollHeight;
    } else if (grew && !this.showJump) {
      this.showJump = true;
    }
  }

  private onScroll(): void {
    const log = this.log;
    if (!log) return;
    if (this.windowStart > 0 && log.scrollTop < 48) this.showEarlier();
    this.stickToBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 32;
    if (this.stickToBottom && this.showJump) this.showJump = false;
  }

  /** Renders the previous step of messages and keeps what the reader sees where it was. */
  private showEarlier(): void {
    const log = this.log;
    if (!log || this.windowStart === 0) return;
    const fromBottom = log.scrollHeight - log.scrollTop;
    this.windowStart = Math.max(0, this.windowStart - WINDOW);
    void this.updateComplete.then(() => {
      log.scrollTop = log.scrollHeight - fromBottom;
    });
  }

  private jumpToLatest(): void {
    const log = this.log;
    if (!log) return;
    this.stickToBottom = true;
    this.showJump = false;
    const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
    log.scrollTo({ top: log.scrollHeight, behavior: reduce ? 'auto' : 'smooth' });
    this.focusInput();
  }

  private setOpen(open: boolean): void {
    if (open === this.isOpen) return;
    this.isOpen = open;
    if (open) this.unread = false;
    emit(this, open ? 'agent-chat-open' : 'agent-chat-close', {});
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    const text = this.input?.value ?? this.chat.draft;
    if (this.attachments?.file) {
      void this.sendWithAttachment();
      return;
    }
    if (!text.trim()) return;
    void this.send(text);
  }

  private onInput(event: Event): void {
    const area = event.target as HTMLTextAreaElement;
    // Typing means the reader has moved on; do not pull focus out of the field later.
    this.focusKeeper.forget();
    this.chat.setDraft(area.value);
    this.fitInput(area);
    this.requestUpdate();
  }

  /** Grows the field with its text up to the CSS max-height (CSSOM, so strict CSP allows it). */
  private fitInput(area: HTMLTextAreaElement): void {
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + 2}px`;
  }

  private onKeyDown(event: KeyboardEvent): void {
    // Enter sends, Shift+Enter adds a line; an IME composition's Enter is not ours.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!this.chat.busy) this.onSubmit(event);
    }
  }

  private onPanelKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    if (this.historyOpen) {
      event.stopPropagation();
      this.closeHistory();
      return;
    }
    if (this.chat.busy && event.target === this.input) {
      this.chat.stop();
      return;
    }
    if (this.launcher && this.isOpen) {
      event.stopPropagation();
      this.close();
    }
  }

  /** Escape on the launcher button closes the open panel, as it does inside the panel. */
  private onLauncherKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.isOpen) {
      event.stopPropagation();
      this.close();
    }
  }

  /**
   * On the log or on a message, ArrowUp/ArrowDown move between messages, Home/End go to the
   * first/last; from the log itself ArrowUp starts at the latest message. Keys pressed on a
   * control inside a message (links, cards, buttons) keep their own meaning.
   */
  private onLogKeyDown(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const log = event.currentTarget as HTMLElement;
    const messages = this.focusKeeper.messages();
    const onLog = event.target === log;
    const index = messages.indexOf(event.target as HTMLElement);
    if ((!onLog && index < 0) || !messages.length) return;
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowUp') next = onLog ? messages.at(-1) : messages[index - 1];
    else if (event.key === 'ArrowDown') next = onLog ? messages[0] : messages[index + 1];
    else if (event.key === 'Home') next = messages[0];
    else if (event.key === 'End') next = messages.at(-1);
    if (!next) return;
    event.preventDefault();
    next.focus();
  }

  /** The polite region's text for the reply that just completed (see `liveText`). */
  private announceReply(): void {
    const reply = this.chat.messages.at(-1);
    if (reply?.role !== 'agent') return;
    const t = this.text;
    // Plain text: a screen reader must not read out "asterisk asterisk" or table pipes.
    // A bounded summary: a live region that received a whole long reply would keep a
    // screen reader talking for minutes (and hold the text after the reply is gone).
    const parts = [t.announce(this.agentDisplayName || t.agentName, plainSummary(reply.text))];
    const suggestions = reply.suggestions.filter((s) => typeof s === 'string' && s.trim() !== '').length;
    if (suggestions) parts.push(t.suggestionsAvailable(suggestions));
    this.liveText = parts.join(' ');
  }

  private regenerate(reply: ChatMessage): void {
    const info = this.turns.get(reply.key);
    const user = this.chat.messages.filter((m) => m.role === 'user')[info?.turn ?? -1];
    if (!info?.replyId || !user) return;
    void this.chat.rerun(info.turn, info.replyId, user.text);
  }

  private submitEdit(user: ChatMessage): void {
    const info = this.turns.get(user.key);
    const text = this.editing?.text.trim();
    if (!info?.replyId || !text) return;
    this.editing = null;
    void this.chat.rerun(info.turn, info.replyId, text);
  }

  private cancelEdit(): void {
    this.editing = null;
    this.focusInput();
  }

  private toggleHistory(): void {
    this.historyOpen = !this.historyOpen;
  }

  /** The history panel, from its chunk (src/history/); a notice if the chunk could not load. */
  private renderHistory() {
    const history = this.history.module;
    if (!history) {
      return renderNotice(this.text, {
        title: this.text.errorNetwork,
        onRetry: () => void this.history.retry().then(() => this.requestUpdate()),
        onDismiss: () => this.closeHistory(),
      });
    }
    return history.renderHistory(this.chat.history, this.text, {
      current: this.chat.threadId,
      locale: this.locale,
      onPick: (id) => this.pickHistory(id),
      onRemove: (id) => this.chat.removeFromHistory(id),
      onClose: () => this.closeHistory(),
    });
  }

  private closeHistory(): void {
    this.historyOpen = false;
    this.renderRoot.querySelector<HTMLElement>('[part="history-button"]')?.focus();
  }

  private pickHistory(threadId: string): void {
    this.historyOpen = false;
    if (threadId !== this.chat.threadId) this.chat.switchThread(threadId, 'switched');
    this.focusInput();
  }

  private onSuggestion(text: string): void {
    if (!emit(this, 'agent-chat-suggestion', { text }, true)) return;
    void this.send(text);
  }

  private onCardClick(event: Event, card: Card, url: string | null): void {
    if (!emit(this, 'agent-chat-card-click', { card, url }, true)) event.preventDefault();
  }

  /* ---- attachments (a lazy chunk: src/attachments/) ---- */

  private renderAttachControl() {
    const attach = this.attach.module;
    if (!this.upload || !attach || !this.attachments) return nothing;
    return attach.renderAttachControl(this.text, {
      disabled: this.attachments.uploading,
      onPick: () => this.renderRoot.querySelector<HTMLInputElement>('.file-input')?.click(),
      onChange: (event) => this.onFileChange(event),
    });
  }

  private renderAttachment() {
    const attach = this.attach.module;
    const attachments = this.attachments;
    if (!this.upload || !attach || !attachments) return nothing;
    return html`${attach.renderAttachment(this.text, attachments, {
      onRemove: () => this.removeAttachment(),
      onDismissError: () => attachments.dismissError(),
    })}${this.dropping ? attach.renderDropHint(this.text) : nothing}`;
  }

  private removeAttachment(): void {
    this.attachments?.clear();
    this.focusInput();
  }

  private onFileChange(event: Event): void {
    const field = event.target as HTMLInputElement;
    const file = this.attach.module?.firstFile(field.files);
    // Cleared so that picking the same file again fires `change` again.
    field.value = '';
    if (file) this.attachments?.attach(file);
  }

  private onPaste(event: ClipboardEvent): void {
    const attach = this.attach.module;
    if (!this.upload || !attach) return;
    const data = event.clipboardData;
    const file = attach.firstFile(data?.files);
    if (!file?.type.startsWith('image/')) return;
    // Clipboards from documents carry the text too: let that paste as usual.
    if (!data?.types.includes('text/plain')) event.preventDefault();
    this.attachments?.attach(file);
  }

  private acceptsDrop(event: DragEvent): boolean {
    if (!this.upload || !this.attachments || (this.launcher && !this.isOpen)) return false;
    return Array.from(event.dataTransfer?.types ?? []).includes('Files');
  }

  private onDragEnter(event: DragEvent): void {
    if (!this.acceptsDrop(event)) return;
    event.preventDefault();
    // enter/leave fire for every element crossed; the depth tells when the pointer has left.
    this.dragDepth++;
    this.dropping = true;
  }

  private onDragOver(event: DragEvent): void {
    if (!this.acceptsDrop(event)) return;
    // Without preventDefault here the browser refuses the drop (and may open the file).
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
    this.dropping = true;
  }

  private onDragLeave(): void {
    if (!this.dropping) return;
    this.dragDepth = Math.max(0, this.dragDepth - 1);
    if (!this.dragDepth) this.dropping = false;
  }

  private onDrop(event: DragEvent): void {
    this.dragDepth = 0;
    this.dropping = false;
    if (!this.acceptsDrop(event)) return;
    event.preventDefault();
    const file = this.attach.module?.firstFile(event.dataTransfer?.files);
    if (file) this.attachments?.attach(file);
  }

  /**
   * Uploads through the host's function, then sends with the URL as `image_url`. A failed
   * upload keeps text and attachment for a retry; the attachment goes once the message is in
   * the log (the host may still cancel `agent-chat-send`, which keeps it).
   */
  private async sendWithAttachment(): Promise<void> {
    const upload = this.upload;
    const attachments = this.attachments;
    if (!attachments || this.chat.busy || attachments.uploading) return;
    if (!upload) {
      attachments.clear();
      return;
    }
    const url = await attachments.upload(upload);
    if (!url) return;
    // Read after the upload: the user may have kept typing meanwhile.
    const text = this.input?.value ?? this.chat.draft;
    const before = this.chat.messages.length;
    const sent = this.send(text, { imageUrl: url });
    if (this.chat.messages.length > before) attachments.clear();
    await sent;
  }

  /* ---- channel hand-off (a lazy chunk: src/handoff/) ---- */

  /** The channels offered, once the chunk that knows them is here; none without `channels`. */
  private applyChannels(): void {
    const handoff = this.handoff.module;
    const offered = handoff && this.channelsText ? handoff.parseChannels(this.channelsText) : [];
    if (offered.join() === this.offeredChannels.join()) return;
    this.offeredChannels = offered;
    if (!offered.length && this.handOff?.isOpen) this.closeChannelForm(false);
  }

  private renderChannelButton() {
    const handoff = this.handoff.module;
    if (!handoff || !this.offeredChannels.length) return nothing;
    return handoff.renderChannelButton(this.text, this.offeredChannels, {
      expanded: !!this.handOff?.isOpen,
      onClick: () => (this.handOff?.isOpen ? this.closeChannelForm() : void this.openChannelForm()),
    });
  }

  private renderChannelForm() {
    const handoff = this.handoff.module;
    const handOff = this.handOff;
    if (!handoff || !handOff || !this.offeredChannels.length) return nothing;
    return handoff.renderChannelForm(this.text, handOff, this.offeredChannels, {
      onChannel: (channel) => handOff.setChannel(channel),
      onPhone: (value) => handOff.setPhone(value),
      onSubmit: (event) => void this.submitChannel(event),
      onCancel: () => this.closeChannelForm(),
      onKeyDown: this.onChannelKeyDown,
    });
  }

  private async openChannelForm(): Promise<void> {
    const handoff = this.handoff.module;
    if (!handoff) return;
    this.handOff ??= new handoff.HandOff(this);
    this.handOff.open(this.offeredChannels);
    await this.updateComplete;
    // The first field: the checked channel when there is a choice, else the phone number.
    this.renderRoot.querySelector<HTMLInputElement>('#channel-form input:checked, #channel-phone')?.focus();
  }

  private closeChannelForm(focusButton = true): void {
    this.handOff?.close();
    this.requestUpdate();
    if (focusButton) this.renderRoot.querySelector<HTMLElement>('[part="channel-button"]')?.focus();
  }

  private readonly onChannelKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the form only, not the launcher panel around it.
    event.stopPropagation();
    this.closeChannelForm();
  };

  private async submitChannel(event: Event): Promise<void> {
    event.preventDefault();
    if (!this.handOff) return;
    const result = await this.handOff.submit(this.chat.api, {
      userId: this.chat.currentUserId,
      agentDisplayName: this.agentDisplayName,
      threadId: this.chat.threadId,
    });
    await this.updateComplete;
    if (result) {
      emit(this, 'agent-chat-channel', result);
      this.renderRoot.querySelector<HTMLElement>('.channel-form.done button')?.focus();
    } else if (this.handOff?.invalid) {
      this.renderRoot.querySelector<HTMLElement>('#channel-phone')?.focus();
    }
  }

  protected override render() {
    const t = this.text;
    const launcher = this.launcher;
    return html`
      ${launcher ? this.renderLauncher() : nothing}
      <section
        part="panel"
        class="panel"
        id="panel"
        role=${launcher ? 'dialog' : 'region'}
        aria-label=${this.heading || t.heading}
        dir=${this.direction}
        lang=${this.lang || nothing}
        ?hidden=${launcher && !this.isOpen}
        @keydown=${this.onPanelKeyDown}
      >
        ${this.renderHeader(launcher)} ${this.renderChannelForm()} ${this.renderConfigNotice()}
        <div class="log-wrap">
          <div
            part="log"
            class="log"
            role="log"
            aria-live="off"
            aria-label=${t.messageListLabel}
            tabindex="0"
            @scroll=${this.onScroll}
            @keydown=${this.onLogKeyDown}
          >
            ${this.renderWelcome()}
            ${this.windowStart > 0
              ? html`<button part="load-earlier" class="text-button load-earlier" type="button" @click=${this.showEarlier}>
                  ${t.showEarlier(this.windowStart)}
                </button>`
              : nothing}
            ${repeat(
              this.chat.messages.slice(this.windowStart),
              (m) => m.key,
              (m) => this.renderMessageSafely(m, m === this.chat.messages.at(-1)),
            )}
            ${this.renderTyping()} ${this.renderSuggestionsRow()}
          </div>
          ${this.historyOpen ? this.renderHistory() : nothing}
          ${this.showJump
            ? html`<button part="jump-to-latest" class="jump" type="button" @click=${this.jumpToLatest}>
                ${icons.arrowDown} ${t.jumpToLatest}
              </button>`
            : nothing}
        </div>
        ${this.renderChatNotice(this.chat.notice)} ${this.renderComposer()}
        <div class="sr-only announcer" role="status" aria-live="polite" aria-atomic="true">${this.liveText}</div>
      </section>
    `;
  }

  private renderLauncher() {
    const t = this.text;
    return html`<button
      part="launcher"
      class="launcher"
      type="button"
      aria-expanded=${this.isOpen ? 'true' : 'false'}
      aria-controls="panel"
      aria-label=${this.isOpen ? t.close : t.openChat}
      @click=${this.toggle}
      @keydown=${this.onLauncherKeyDown}
    >
      ${this.isOpen ? icons.close : icons.chat}
      ${this.unread ? html`<span class="unread"><span class="sr-only">${t.unread}</span></span>` : nothing}
    </button>`;
  }

  private renderHeader(launcher: boolean) {
    const t = this.text;
    return html`<header part="header">
      <h2 part="heading">${this.heading || t.heading}</h2>
      ${this.renderChannelButton()}
      <button
        part="history-button"
        class="icon-button"
        type="button"
        title=${t.history}
        aria-label=${t.history}
        aria-expanded=${this.historyOpen ? 'true' : 'false'}
        @click=${this.toggleHistory}
      >
        ${icons.history}
      </button>
      <button
        part="new-button"
        class="icon-button"
        type="button"
        title=${t.newConversation}
        aria-label=${t.newConversation}
        @click=${this.newThread}
      >
        ${icons.plus}
      </button>
      ${launcher
        ? html`<button part="close-button" class="icon-button" type="button" aria-label=${t.close} title=${t.close} @click=${this.close}>
            ${icons.close}
          </button>`
        : nothing}
    </header>`;
  }

  private renderConfigNotice() {
    if (!this.configProblems.length) return nothing;
    return renderNotice(this.text, { title: this.text.errorConfiguration(), body: this.configProblems });
  }

  private renderWelcome() {
    if (!this.chat.welcome) return nothing;
    return html`<article part="welcome message message-agent" class="message agent welcome" tabindex="-1" aria-label=${this.text.welcomeLabel}>
      <div part="bubble" class="bubble">
        <div part="text" class="text" dir="auto" ${markdown(this.chat.welcome, { allowHtml: this.allowHtml, labels: this.labels })}></div>
      </div>
    </article>`;
  }

  /** The error boundary of one message: what cannot be rendered shows as its plain text. */
  private renderMessageSafely(m: ChatMessage, latest: boolean) {
    try {
      return this.renderMessage(m, latest);
    } catch (error) {
      warnOnce('a message could not be rendered; it is shown as plain text.', error);
      return html`<article part="message message-${m.role}" class="message ${m.role}" data-key=${m.key} tabindex="-1">
        <div part="bubble" class="bubble"><p part="text" class="text plain">${m.text}</p></div>
      </article>`;
    }
  }

  private renderMessage(m: ChatMessage, latest: boolean) {
    const t = this.text;
    const streaming = m.state === 'streaming';
    if (streaming && !m.text) return nothing;
    const meta =
      m.state === 'stopped'
        ? t.stopped
        : m.state === 'interrupted'
          ? t.interrupted
          : m.state === 'queued'
            ? t.queued
            : '';
    return html`<article
      part="message message-${m.role}"
      class="message ${m.role} ${m.state}"
      data-key=${m.key}
      aria-busy=${streaming ? 'true' : 'false'}
      aria-label=${m.role === 'user' ? t.userName : this.agentDisplayName || t.agentName}
      tabindex="-1"
    >
      <div part="bubble" class="bubble ${this.editing?.key === m.key ? 'editing' : ''}">
        ${m.imageUrl ? html`<img class="attachment" src=${m.imageUrl} alt=${t.attachedImage} loading="lazy" />` : nothing}
        ${m.role === 'user'
          ? this.editing?.key === m.key && this.branches.module
            ? this.renderEditor(m)
            : html`<div part="text" class="text" dir="auto">${m.text}</div>`
          : html`<div part="text" class="text" dir="auto" ${markdown(m.text, { streaming, allowHtml: this.allowHtml, labels: this.labels })}></div>`}
      </div>
      ${m.cards.length ? this.renderCards(m) : nothing}
      <div part="meta" class="meta">
        <span>${meta || this.formatTime(m.createdAt)}</span>${this.renderTurnControls(m)}
      </div>
      ${latest && m.role === 'agent' && m.state === 'done' && m.suggestions.length && !this.chat.busy
        ? renderSuggestions(m.suggestions, t, { onSelect: (s) => this.onSuggestion(s) })
        : nothing}
    </article>`;
  }

  /** Regenerate, edit and the branch navigator, for finished turns that have ids. */
  private renderTurnControls(m: ChatMessage) {
    const info = this.turns.get(m.key);
    const branches = this.branches.module;
    if (!branches || !info?.replyId || m.state === 'streaming' || m.state === 'queued' || !this.chat.threadId) return nothing;
    const t = this.text;
    const busy = this.chat.busy;
    if (m.role === 'user') {
      if (this.editing?.key === m.key) return nothing;
      return branches.renderEditButton(t, busy, () => (this.editing = { key: m.key, text: m.text }));
    }
    return html`${branches.renderRegenerate(t, busy, () => this.regenerate(m))}
    ${branches.renderBranchNav(this.chat.branchAt(info.turn), t, (id) => this.chat.showBranch(id))}`;
  }

  /** The editor of a user message, from its chunk (src/branches/; an update waits for it). */
  private renderEditor(m: ChatMessage) {
    return this.branches.module!.renderEditor(this.text, {
      text: this.editing!.text,
      onInput: (text) => (this.editing = { key: m.key, text }),
      onSave: () => this.submitEdit(m),
      onCancel: () => this.cancelEdit(),
    });
  }

  /** A reply's cards, from the cards chunk (src/cards/); a notice if it could not load. */
  private renderCards(m: ChatMessage) {
    const cards = this.cards.module;
    if (this.cards.failed) {
      return renderNotice(this.text, { title: this.text.cardsUnavailable, onRetry: () => void this.cards.retry().then(() => this.requestUpdate()) });
    }
    if (!cards) return nothing;
    return cards.renderCardRow(m.cards, {
      strings: this.text,
      lang: this.locale,
      rtl: this.direction === 'rtl',
      shown: this.cardsShown.get(m.key) ?? cards.CARD_STEP,
      renderer: this.customCard,
      onMore: () => void this.showMoreCards(m.key, cards.CARD_STEP),
      onCardClick: (event, card, url) => this.onCardClick(event, card, url),
      onRendererError: this.onCardRendererError,
    });
  }

  /** A host card renderer that fails gets the built-in card in its place, and one console line. */
  private readonly onCardRendererError = (error: unknown): void => warnOnce('cardRenderer failed; the built-in card is shown instead.', error);

  /** The next step of a reply's cards; focus moves to the first card that was added. */
  private async showMoreCards(key: string, step: number): Promise<void> {
    const shown = this.cardsShown.get(key) ?? step;
    this.cardsShown.set(key, shown + step);
    this.requestUpdate();
    await this.updateComplete;
    const cards = this.renderRoot.querySelectorAll<HTMLElement>(`[data-key="${CSS.escape(key)}"] .cards > li`);
    cards[shown]?.querySelector<HTMLElement>('a[href], button, [tabindex]')?.focus();
  }

  private renderTyping() {
    const last = this.chat.messages.at(-1);
    const waiting = this.chat.busy && !(last?.role === 'agent' && last.text);
    if (!waiting) return nothing;
    return html`<div part="typing" class="typing" role="status" aria-label=${this.chat.status === 'reconnecting' ? this.text.reconnecting : this.text.typing}>
      <span></span><span></span><span></span>
    </div>`;
  }

  private renderSuggestionsRow() {
    if (this.chat.messages.length || !this.chat.starters.length) return nothing;
    return renderSuggestions(this.chat.starters, this.text, { onSelect: (s) => this.onSuggestion(s) });
  }

  private renderChatNotice(notice: Notice | null) {
    if (!notice) return nothing;
    return renderNotice(this.text, {
      title: this.noticeText(notice),
      body: notice.details,
      onRetry: notice.retry ? () => this.chat.retry() : undefined,
      onDismiss: () => this.chat.dismissNotice(),
    });
  }

  private renderComposer() {
    const t = this.text;
    const busy = this.chat.busy;
    return html`<form part="composer" class=${this.dropping ? 'dropping' : nothing} @submit=${this.onSubmit}>
      ${this.renderAttachment()} ${this.renderAttachControl()}
      <textarea
        part="input"
        rows="1"
        .value=${live(this.chat.draft)}
        placeholder=${this.placeholder || t.placeholder}
        aria-label=${t.inputLabel}
        @input=${this.onInput}
        @keydown=${this.onKeyDown}
        @paste=${this.onPaste}
      ></textarea>
      ${busy
        ? html`<button part="stop-button" class="stop" type="button" aria-label=${t.stop} title=${t.stop} @click=${() => this.chat.stop()}>
            ${icons.stop}
          </button>`
        : html`<button part="send-button" class="send" type="submit" aria-label=${t.send} title=${t.send} ?disabled=${!(this.chat.draft.trim() || this.attachments?.file) || !!this.attachments?.uploading}>
            ${icons.send}
          </button>`}
    </form>`;
  }

  private noticeText(notice: Notice): string {
    const t = this.text;
    switch (notice.kind) {
      case 'offline':
        return t.errorOffline;
      case 'network':
        return t.errorNetwork;
      case 'auth':
        return t.errorAuth;
      case 'validation':
        return t.errorValidation();
      case 'rate-limit':
        return t.errorRateLimited(waitSeconds(notice.retryAt));
      case 'server':
        return t.errorServer;
      case 'timeout':
        return t.errorTimeout;
      case 'stream':
        return t.errorStreamInterrupted;
      case 'config':
        return t.errorConfiguration();
      default:
        return t.errorGeneric;
    }
  }

  private formatTime(iso: string | undefined): string {
    if (!iso) return '';
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : (this.timeFormat?.format(date) ?? '');
  }
}

export type { Channel, Message };

/**
 * Seconds to wait before `retryAt`, for the rate-limit notice: a figure a reader can act
 * on, 1 to 120. A longer wait reads "please wait a moment" rather than "7,200 s".
 */
function waitSeconds(retryAt: number | undefined): number | undefined {
  if (retryAt === undefined || !Number.isFinite(retryAt)) return undefined;
  const seconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return seconds <= 120 ? seconds : undefined;
}

/** Each message's turn and the id of the reply that answers it (what a rerun needs). */
function turnsOf(messages: readonly ChatMessage[]): Map<string, { turn: number; replyId?: string }> {
  const turns = new Map<string, { turn: number; replyId?: string }>();
  let turn = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') {
      turn += 1;
      const next = messages[i + 1];
      turns.set(m.key, { turn, replyId: next?.role === 'agent' && next.state === 'done' ? next.id : undefined });
    } else if (turn >= 0) {
      turns.set(m.key, { turn, replyId: m.state === 'done' ? m.id : undefined });
    }
  });
  return turns;
}
