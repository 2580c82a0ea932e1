import { REPLY_LENGTH, type AgentVariables, type Channel, type Message } from './client/types.js';
import type { CardRenderer, CardRendererApi } from './cards/cards.js';
import type { CardAction } from './cards/actions.js';
import { settlesBy } from './lazy.js';
import { panel as panelChunk } from './shell/chunks.js';
import { warnOnce } from './warn.js';
import { emit } from './events.js';
import type { Strings } from './i18n/strings.js';
import { addPack, hasStrings, isRtl, loadStrings } from './i18n/locales.js';
import { type LauncherStrings, launcherStrings } from './shell/strings.js';
import type { ChatStatus } from './state/types.js';
import type { ChatMessage } from './state/messages.js';
import type { PersistMode } from './state/storage.js';
import { ShellStore } from './shell/stored.js';
import {
  CONFIG_KEYS,
  isLocalHost,
  oneOf,
  readConfig,
  record,
  reported,
  type LinkTarget,
  type Mode,
  type Theme,
  type Transport,
} from './state/config.js';
import type { PanelApi, ShellView } from './shell/panel-api.js';
import { FULL_SCREEN_QUERY, Launcher } from './shell/launcher.js';
import { PanelLoader } from './shell/panel-loader.js';
import { ChatContext } from './shell/context.js';
import { jsonConverter } from './shell/attributes.js';
import { shellStyles } from './shell/shell.styles.js';
import { HostElement, property, state, type PropertyValues } from './shell/host.js';

export type { LinkTarget, Mode, Theme, Transport };
export type { CardRenderer, CardRendererApi };

/** How long a render waits for the chunks it needs (panel, language) before it goes ahead without them. */
const FEATURE_WAIT_MS = 3000;
/** How long after its upgrade an element with nothing to talk to waits for its settings before it says so. */
const CONFIG_GRACE_MS = 3000;

/** The widgets on the page: a language registered later shows in them at once. */
const live = new Set<AgentChat>();

/**
 * An embeddable chat with a conversational agent: streams replies, renders markdown and
 * product cards, keeps the thread across reloads. Works inline or as a floating launcher.
 * The host's elements inside it get the context `'agent-chat'` (`agentChatContext`, the
 * `@lit/context` protocol): `{threadId, status, lang, dir, theme, send, open, close, newThread}`.
 *
 * @summary Chat with a conversational agent, from one script tag.
 *
 * @fires {CustomEvent<ReadyDetail>} agent-chat-ready - `{threadId}` after the welcome message or transcript has loaded (a launcher: once first opened).
 * @fires {CustomEvent<SendDetail>} agent-chat-send - `{text, threadId, imageUrl}` before a message is sent; cancelable.
 * @fires {CustomEvent<MessageDetail>} agent-chat-message - `{message, threadId}` when an agent reply is complete.
 * @fires {CustomEvent<ThreadDetail>} agent-chat-thread - `{threadId, previousThreadId, reason}`; reason is `created`, `rerun`, `restored`, `switched` or `reset`.
 * @fires {CustomEvent<ErrorEventDetail>} agent-chat-error - `{code, message, status, requestId, retryable}`.
 * @fires {CustomEvent<SuggestionDetail>} agent-chat-suggestion - `{text}` before a suggestion is sent; cancelable.
 * @fires {CustomEvent<CardClickDetail>} agent-chat-card-click - `{card, url}`; cancelable: by default a card link opens in a new tab.
 * @fires {CustomEvent<EmptyDetail>} agent-chat-open - The launcher panel opened.
 * @fires {CustomEvent<EmptyDetail>} agent-chat-close - The launcher panel closed.
 * @fires {CustomEvent<FeedbackDetail>} agent-chat-feedback - `{messageId, threadId, rating, reason?, category?}` when the reader rates a reply (attribute `feedback`), takes a rating back (`rating: null`) or says why after a thumbs-down.
 * @fires {CustomEvent<LinkClickDetail>} agent-chat-link-click - `{url, text, messageId}` when the reader clicks a link in agent text; cancelable: `preventDefault()` and the widget does not open it.
 * @fires {CustomEvent<DisclaimerAcceptDetail>} agent-chat-disclaimer-accept - `{text}` when the reader accepts the disclaimer (attribute `disclaimer`).
 * @fires {CustomEvent<CardActionDetail>} agent-chat-card-action - `{action, card, variant}` when a `cardActions` button on a card is pressed (`variant`: the options chosen on it).
 * @fires {CustomEvent<ChannelDetail>} agent-chat-channel - `{channel, threadId, phoneNumber}` after a WhatsApp/SMS hand-off succeeded.
 * @fires {CustomEvent<PreviewRenameDetail>} agent-chat-preview-rename - `{threadId, title}` after the builder renamed the thread in the header (attribute `preview`).
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
 * @csspart card-prev - Scrolls the card row back by one card (shown while the row scrolls).
 * @csspart card-next - Scrolls the card row on by one card (shown while the row scrolls).
 * @csspart card-variant - With `cardActions`: an option of a card's variant group, a toggle (`aria-pressed`), one per group.
 * @csspart card-action - With `cardActions`: an action button on a card.
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
 * @csspart mic-button - Dictation (attribute `voice`, where the browser recognises speech); `aria-pressed` while listening.
 * @csspart attach-button - Opens the image picker (only when `uploadImage` is set).
 * @csspart attachment - The attached image's preview in the composer, with its remove button.
 * @csspart channel-button - Opens the WhatsApp/SMS hand-off form (only with `channels`).
 * @csspart channel-form - The hand-off form, and its confirmation.
 * @csspart copy-button - Copies a finished reply's text (its markdown) to the clipboard.
 * @csspart read-aloud-button - Reads a finished reply aloud (attribute `read-aloud`, where the browser has speech synthesis); `aria-pressed` while it reads, pressed again it stops.
 * @csspart feedback - The thumbs group under a finished reply (attribute `feedback`).
 * @csspart feedback-up - Rates a reply up; `aria-pressed` when chosen.
 * @csspart feedback-down - Rates a reply down (then asks why, optionally); `aria-pressed` when chosen.
 * @csspart regenerate-button - Regenerates an agent reply as a new branch of the thread.
 * @csspart edit-button - Edits a user message; the edited text is re-asked as a new branch.
 * @csspart trace-button - With `preview`: under a finished reply, opens its trace.
 * @csspart trace - With `preview`: the dialog of a reply's trace, its steps as text.
 * @csspart version-button - With `preview`: under a finished reply, shows the agent's versions to rerun it on.
 * @csspart version-menu - With `preview`: the group of versions; each reruns the reply pinned to it.
 * @csspart version-label - With `preview`: the version tag of the branch a turn shows, beside its navigator.
 * @csspart thread-title - With `preview`: the thread's title in the header (the rename form while renaming).
 * @csspart rename-button - With `preview`: renames the thread.
 * @csspart rename-input - With `preview`: the title's field while renaming (Enter saves, Escape cancels).
 * @csspart preview-note - With `preview`: why the preview is off (the token does not serve management).
 * @csspart branch-nav - "‹ 2 / 3 ›": moves between the versions of a turn.
 * @csspart code-block - A fenced code block (its language label, copy button and code).
 * @csspart code-language - The language named on a code block's fence.
 * @csspart disclaimer - The disclaimer (attribute `disclaimer`) above the messages until the reader accepts it.
 * @csspart disclaimer-accept - The disclaimer's accept button.
 * @csspart export-button - Downloads the conversation as a Markdown file (in the header, once there is a message).
 * @csspart history-button - Opens the list of earlier conversations.
 * @csspart history - The list of earlier conversations with this agent.
 *
 * @slot header - Host content beside the title in the header: a logo, an avatar, a link.
 * @slot footer - Host content under the composer: a disclaimer, a privacy note.
 * @slot empty - Host content in the conversation before its first message (after the welcome message).
 * @slot launcher-icon - The launcher button's icon instead of the chat bubble (the close icon still shows while open).
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
 * @cssprop --agent-chat-code-background - Code block background. Default `#f6f8fa` (dark: `#0b0d12`).
 * @cssprop --agent-chat-code-text - Code block text. Default `#1f2328` (dark: `#e2e8f0`).
 * @cssprop --agent-chat-code-keyword - Highlighted code: keywords. Default `#cf222e` (dark: `#ff7b72`).
 * @cssprop --agent-chat-code-string - Highlighted code: strings. Default `#0a3069` (dark: `#a5d6ff`).
 * @cssprop --agent-chat-code-comment - Highlighted code: comments. Default `#57606a` (dark: `#8b949e`).
 * @cssprop --agent-chat-code-number - Highlighted code: numbers, literals, attributes, variables. Default `#0550ae` (dark: `#79c0ff`).
 * @cssprop --agent-chat-code-function - Highlighted code: function, class and section names. Default `#8250df` (dark: `#d2a8ff`).
 * @cssprop --agent-chat-code-type - Highlighted code: types, built-ins, tags, parameters. Default `#953800` (dark: `#ffa657`).
 * @cssprop --agent-chat-z-index - Stacking order of the launcher. Default `2147483000`.
 */
export class AgentChat extends HostElement {
  static override styles = shellStyles;

  /**
   * Adds a language without a release: `lang` (a tag such as `pt-BR`, or `pt` for all its
   * regions) then shows `strings`, a plain object such as a JSON file holds (docs/languages.md:
   * the keys, and `{name}` templates for texts with parameters), with English for any text
   * it lacks. `dir: 'rtl'` lays it out right to left. Replaces a shipped language of that
   * name; widgets already on the page show it at once.
   */
  static registerLocale(lang: string, strings: Record<string, unknown>, options?: { dir?: 'ltr' | 'rtl' }): void {
    if (typeof lang !== 'string' || !lang.trim())
      return warnOnce('registerLocale(lang, strings): lang must be a language tag such as "pt-BR".');
    addPack(lang, strings, options?.dir);
    for (const el of live) {
      el.__stringsStale = true;
      el.requestUpdate();
    }
  }

  /** Service base address; the reference's paths are appended to it. Required; https (http only to localhost). */
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

  /**
   * `{static, dynamic}` sent as `agent_variables`; the attribute takes JSON (or JSON text set
   * here). Text that is not a JSON object stays text, and the configuration says why.
   */
  @property({ attribute: 'agent-variables', converter: jsonConverter }) agentVariables?: AgentVariables | string | Error;

  /** `inline` fills its box; `launcher` is a floating button that opens a panel. */
  @property({ reflect: true }) mode: Mode = 'inline';

  /**
   * Launcher mode: whether the panel is open (attribute `open`). The property has another
   * name because `open()` is a method.
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

  /**
   * The most characters of one reply shown, 1,000 to 1,000,000 (the attribute's text is read
   * as a number): a longer reply is cut there, with a note under it, and its turn ends as
   * complete (README "Size limits").
   */
  @property({ attribute: 'max-reply-length' }) maxReplyLength: number = REPLY_LENGTH.default;

  /** Host-supplied tokens; called again after a 401. */
  @property({ attribute: false }) tokenProvider?: () => Promise<string>;

  /** Sent as `context` to the follow-up suggestions operation, with the page URL and title. */
  @property({ attribute: false }) suggestionContext?: Record<string, unknown>;

  /** Uploads an image and returns a signed URL sent as `image_url`. */
  @property({ attribute: false }) uploadImage?: (file: File) => Promise<string>;

  /**
   * Custom card rendering; `null`/`undefined` falls back to the built-in card. The second
   * argument lets the card act: `api.action(actionId, variant?)` fires `agent-chat-card-action`
   * as a `cardActions` button does, `api.send(text)` sends, `api.index` is its place in the row.
   */
  @property({ attribute: false }) cardRenderer?: CardRenderer;

  /** Buttons on each built-in card (`{id, label}`, four at most); a press fires `agent-chat-card-action`. */
  @property({ attribute: false }) cardActions?: CardAction[];

  /** Overrides of any UI text. */
  @property({ attribute: false }) strings: Partial<Strings> = {};

  /** `blank`: links in agent text open in a new tab; `auto`: links to this site open in this tab. */
  @property({ attribute: 'link-target' }) linkTarget: LinkTarget = 'blank';

  /** A dictation button in the composer where the browser has speech recognition. */
  @property({ type: Boolean }) voice = false;

  /** Thumbs up and down under each finished reply; a rating fires `agent-chat-feedback`. */
  @property({ type: Boolean }) feedback = false;

  /** Markdown shown above the messages with an accept button; nothing is sent until the reader accepts it (kept per `persist` and per text). */
  @property() disclaimer = '';

  /** A button under each finished reply that reads it aloud (speech synthesis, where the browser has it). */
  @property({ type: Boolean, attribute: 'read-aloud' }) readAloud = false;
  /**
   * Builder preview: with a token that serves management (a login session's, from
   * `tokenProvider`), each reply offers its trace and a rerun on another agent version, and
   * the header the thread's title with rename (README "Builder preview"). Visitors' pages
   * leave it off and fetch none of its code.
   */
  @property({ type: Boolean, reflect: true }) preview = false;

  /** Configuration problems in the UI with developer detail (always on a local host; always in the console). */
  @property({ type: Boolean }) debug = false;

  /** Render the sanitised HTML subset in agent text instead of raw HTML as text (README "Security"). */
  @property({ type: Boolean, attribute: 'allow-html' }) allowHtml = false;

  /** A reply arrived while the launcher panel was closed (kept across page views). */
  @state() private unread = false;
  /** The reader showed intent to open the launcher (pointer, focus, touch): fetch the panel. */
  @state() private intent = false;
  /** The panel opened because it was open on the tab's page before: focus stays on the page. */
  private __reopened = false;
  /** Until then, missing required settings may still be on their way (`applyConfig`); -1 once configured. */
  private __graceUntil = 0;

  private __launcherUi: Launcher | null = null;
  /** Unread, pending and the thread id, as stored for this conversation. */
  private readonly __stored = new ShellStore();
  /** The UI language's table arrived since the strings were resolved. */
  private __stringsStale = true;
  /** `theme` as checked: what the context tells the host's elements. */
  private __checkedTheme: Theme = 'auto';
  /** The launcher's own texts (the panel resolves the rest). */
  private __text: LauncherStrings = launcherStrings('en', undefined);
  private readonly __view: ShellView = {
    overrides: undefined,
    stringsVersion: 0,
    locale: 'en',
    direction: 'ltr',
    launcher: false,
    config: null,
    configProblems: [],
    developer: false,
    launcherButton: null,
    close: () => this.close(),
  };
  /** The conversation UI, once its chunk is here; until then the shell answers for it. */
  private readonly __loader = new PanelLoader<AgentChat>(this, this.__view, panelChunk);

  private get __panel(): PanelApi<AgentChat> | null {
    return this.__loader.panel;
  }

  override requestUpdate(key?: string, old?: unknown): void {
    // Also called while the element is constructed, before `loader` is.
    (this.__loader as PanelLoader<AgentChat> | undefined)?.panel?.renderRequested();
    super.requestUpdate(key, old);
  }

  constructor() {
    super();
    // The host's own elements ask for the widget's state and actions (README "Context").
    new ChatContext(
      this,
      () => ({
        threadId: this.threadId,
        status: this.status,
        lang: this.__view.locale,
        dir: this.__view.direction,
        theme: this.__checkedTheme,
      }),
      { send: (text) => this.send(text), open: () => this.open(), close: () => this.close(), newThread: () => this.newThread() },
    );
    this.addEventListener('agent-chat-message', () => {
      if (!this.__view.launcher || this.isOpen) return;
      this.unread = true;
      this.__stored.setUnread(true);
    });
  }

  /** The thread in use; changes as the conversation moves. Setting it opens that thread, as `thread-id` does. */
  get threadId(): string | null {
    return this.__panel ? this.__panel.threadId : (this.__view.config?.threadId ?? this.__stored.threadId ?? null);
  }

  set threadId(id: string | null) {
    this.threadIdAttribute = id ?? '';
  }

  /** The visible conversation, oldest first. Read-only. */
  get messages(): readonly ChatMessage[] {
    return this.__panel?.messages ?? [];
  }

  /**
   * `idle`, `connecting`, `streaming`, `reconnecting` or `error`. Before the panel is here:
   * `connecting` while it is on its way to show, `error` if it could not be fetched, and
   * `idle` for a launcher nobody opened.
   */
  get status(): ChatStatus {
    if (this.__panel) return this.__panel.status;
    if (this.__loader.failed) return 'error';
    return this.mode !== 'launcher' || this.isOpen ? 'connecting' : 'idle';
  }

  /**
   * Sends a message as if the user had typed it. Fires `agent-chat-send` first. With an
   * `imageUrl` and no text, the localized `imageMessage` ("Image") is sent: the service
   * requires text. Works at any time: before the panel has arrived, the text waits for it.
   * Three calls may come at once, then one a second; more are dropped with a warning.
   */
  async send(text: string, options: { imageUrl?: string } = {}): Promise<void> {
    const panel = await this.__loader.whenReady();
    await panel?.send(text, { imageUrl: options.imageUrl, host: true });
  }

  /** Starts a new conversation; the next message creates a new thread. */
  newThread(): void {
    this.__withPanel((panel) => panel.newThread());
  }

  /** Opens the launcher panel and moves focus into it. */
  open(): void {
    this.__setOpen(true);
  }

  /** Closes the launcher panel and returns focus to the launcher button. */
  close(): void {
    this.__setOpen(false);
  }

  toggle(): void {
    this.__setOpen(!this.isOpen);
  }

  /**
   * The conversation shown (its current branch) as a document: `markdown` to read (each
   * message with its speaker and time, a reply's cards as a list of their titles and links),
   * or `json`, the messages as the service's transcript has them (its `Message` objects). A
   * launcher's conversation that was never loaded is loaded first. Rejects only when the
   * widget's code cannot be fetched.
   */
  async exportTranscript(format: 'markdown' | 'json' = 'markdown'): Promise<string> {
    const text = await (await this.__loader.whenReady())?.exportTranscript(format);
    if (text == null) throw new Error('agent-chat: the export could not be loaded.');
    return text;
  }

  /** Moves focus to the text field (once the panel is here). */
  focusInput(): void {
    this.__withPanel((panel) => panel.focusInput());
  }

  /** Now if the panel is here, else once it has arrived (calls made before it are kept). */
  private __withPanel(use: (panel: PanelApi<AgentChat>) => void): void {
    if (this.__panel) use(this.__panel);
    else void this.__loader.whenReady().then((panel) => panel && use(panel));
  }

  private __uiLang(): string {
    return this.lang || document.documentElement.lang || navigator.language || 'en';
  }

  /** Inline, open, about to be opened, or with a reply pending: the panel is wanted now. */
  private __wantsPanel(): boolean {
    return this.mode !== 'launcher' || this.isOpen || this.intent || this.__stored.wake;
  }

  /**
   * Holds an update until what it shows has arrived: the UI language's table (a German page
   * never flashes English) and, when the panel is wanted, the panel and the feature chunks
   * its render needs, fetched in parallel. A chunk the network holds up delays a render a
   * little, never the widget: after FEATURE_WAIT_MS it renders without, and again on arrival.
   */
  protected override async scheduleUpdate(): Promise<void> {
    const deadline = performance.now() + FEATURE_WAIT_MS;
    const needs: Array<Promise<unknown>> = [];
    const lang = this.__uiLang();
    if (!hasStrings(lang)) {
      needs.push(
        loadStrings(lang).then((ok) => {
          if (!ok) warnOnce(`the "${lang}" strings could not be loaded; using English.`);
          this.__stringsStale = true;
        }),
      );
    }
    if (!this.__panel && !this.__loader.failed && this.__wantsPanel()) {
      const panel = this.__loader.ensure();
      // Inline (or a pending reply) waits, so the box never shows empty first; a launcher
      // shows its new state at once and the panel when it arrives (ensure() updates again).
      if (this.mode !== 'launcher' || this.__stored.wake) needs.push(panel);
    }
    if (needs.length && !(await settlesBy(Promise.all(needs), deadline))) {
      // Late: render without, and again once everything is here.
      void Promise.all(needs).then(() => this.requestUpdate());
    }
    // What the panel's features asked this render to wait for (a chunk on its way).
    const more = this.__panel?.waits() ?? [];
    if (more.length && !(await settlesBy(Promise.all(more), deadline))) void Promise.all(more).then(() => this.requestUpdate());
    super.scheduleUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const view = this.__view;
    if (changed.has('lang') || changed.has('strings') || this.__stringsStale) {
      this.__stringsStale = false;
      const lang = this.__uiLang();
      const overrides = reported((problems) => record('strings', this.strings, problems));
      this.__text = launcherStrings(lang, overrides);
      view.overrides = overrides as Partial<Strings> | undefined;
      view.stringsVersion++;
      view.direction = isRtl(lang) ? 'rtl' : 'ltr';
      view.locale = lang;
    }
    if (changed.has('mode'))
      view.launcher = reported((problems) => oneOf('mode', this.mode, ['inline', 'launcher'] as const, problems)) === 'launcher';
    if (changed.has('theme'))
      this.__checkedTheme = reported((problems) => oneOf('theme', this.theme, ['auto', 'light', 'dark'] as const, problems));
    if (changed.has('linkTarget')) reported((problems) => oneOf('link-target', this.linkTarget, ['blank', 'auto'] as const, problems));
    if (CONFIG_KEYS.some((key) => changed.has(key)) || changed.has('debug')) this.__applyConfig();
    // Opened however (open(), the attribute, the property): the reply has been seen.
    if (changed.has('isOpen') && this.isOpen && this.unread) {
      this.unread = false;
      this.__stored.setUnread(false);
    }
    if (changed.get('isOpen') !== undefined && view.launcher) this.__stored.setOpen(this.isOpen);
    const panel = this.__panel;
    if (!panel) return;
    panel.willUpdate(this.__loader.changes(changed));
    // Inline, or opened, or a reply pending: the conversation may call the service. After
    // the panel has its configuration, before it renders (a load starts as `connecting`).
    if (!view.launcher || this.isOpen || this.__stored.wake) panel.activate();
  }

  /**
   * The conversation's settings, checked (src/state/config.ts): problems become a warning
   * and, in the panel, a notice. The stored state of that conversation says whether a reply
   * is unread or a turn was running when the page went: then the panel loads at once.
   */
  private __applyConfig(): void {
    const { config, problems, missing } = readConfig(this);
    // Nothing to talk to right after the upgrade: a framework may set the required settings
    // a moment later (React hydrating server-rendered HTML sets properties after the element
    // upgraded, docs/integration-next.md). Said only if they are still missing then.
    this.__graceUntil ||= config ? -1 : Date.now() + CONFIG_GRACE_MS;
    const early = missing.length > 0 && Date.now() < this.__graceUntil;
    if (early) setTimeout(() => this.__view.config || (this.__applyConfig(), this.requestUpdate()), CONFIG_GRACE_MS);
    const said = early ? problems : [...missing, ...problems];
    said.forEach((problem) => warnOnce(problem));
    this.__view.config = config;
    this.__view.configProblems = said;
    this.__view.developer = this.debug || isLocalHost(location.hostname);
    if (!this.__stored.open(config)) return;
    this.unread = this.__stored.unread;
    // Open on the tab's page before, open here: the conversation follows the visitor through
    // the site. Unless the host set `open`, or the panel would cover the page (a phone).
    if (this.__stored.wasOpen && this.__view.launcher && !this.isOpen && !matchMedia(FULL_SCREEN_QUERY).matches) {
      this.isOpen = this.__reopened = true;
    }
    if ((this.__stored.wake || this.__reopened) && !this.__panel) void this.__loader.ensure();
  }

  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const view = this.__view;
    const t = this.__text;
    const root = this.renderRoot;
    if (view.launcher) {
      this.__launcherUi ??= new Launcher({
        toggle: () => this.toggle(),
        close: () => this.close(),
        // Intent fetches the panel; once it is here (focus returning on close) there is nothing to do.
        intent: () => {
          if (!this.__panel) this.intent = true;
        },
      });
      this.__launcherUi.sync(this.isOpen, this.unread, t);
      if (!this.__launcherUi.button.isConnected) root.prepend(this.__launcherUi.button);
    } else {
      this.__launcherUi?.button.remove();
    }
    view.launcherButton = view.launcher ? (this.__launcherUi?.button ?? null) : null;
    // Where the panel would show: inline, or the launcher's open panel (not on mere intent).
    this.__loader.showFailure(this.__loader.failed && !this.__panel && (!view.launcher || this.isOpen), t);
    this.__panel?.update();
  }

  protected override updated(changed: PropertyValues<this>): void {
    const panel = this.__panel;
    if (panel) {
      panel.updated(this.__loader.changes(changed));
      this.__loader.fresh = false;
    }
    if (changed.has('isOpen') && changed.get('isOpen') !== undefined && !this.__reopened) {
      if (this.isOpen) this.focusInput();
      else this.__launcherUi?.button.focus();
    }
    this.__reopened = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    live.add(this);
    this.__panel?.setConnected(true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    live.delete(this);
    this.__panel?.setConnected(false);
  }

  private __setOpen(open: boolean): void {
    if (open === this.isOpen) return;
    this.isOpen = open;
    // Opening is the reader asking for the panel: a fetch that failed (on intent) is tried again.
    if (open && !this.__panel) this.__loader.failed = false;
    emit(this, open ? 'agent-chat-open' : 'agent-chat-close', {});
  }
}

export type { Channel, Message };
