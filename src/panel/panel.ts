import { html, nothing, render, type RootPart } from 'lit-html';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { plain as plainChunk, reading, recovery, stream, turns, websocket } from '../chunks.js';
import { lexer as lexerChunk } from '../markdown/chunks.js';
import { emit } from '../events.js';
import type { Chunk } from '../lazy.js';
import { handleLinkClick } from '../links/links.js';
import {
  handleCopyClick,
  hasHtmlSupport,
  hasLexer,
  hasTailSupport,
  loadHtmlSupport,
  loadTailSupport,
  markdownLabels,
  needsLexer,
  type MarkdownLabels,
} from '../markdown/markdown.js';
import { renderConfigNotice, renderNotice } from '../notices/notice.js';
import { noticeText } from '../notices/text.js';
import type { PanelApi, ShellView } from '../shell/panel-api.js';
import { type ChatStatus, ChatController } from '../state/chat-controller.js';
import { CONFIG_KEYS } from '../state/config.js';
import { offline } from '../state/online.js';
import type { ChatMessage } from '../state/messages.js';
import type { Change, ConversationState } from '../state/store.js';
import { type Strings, englishVersion, resolveStrings } from '../i18n/index.js';
import { warnOnce } from '../warn.js';
import { type MessageAction, type PanelContext, ViewState } from './context.js';
import { FocusKeeper } from './focus-keeper.js';
import { Feature, type FeatureModule, Waits } from './feature.js';
import { renderHeader } from './header.js';
import { onPanelKey } from './keys.js';
// The log, the composer and the features' specs last: the bundler lays the panel's chunk
// out in import order, and they are read with this module (which makes them), not with
// the conversation's and the markdown's modules, more than gzip's 32 KB window before it
// (BENCHMARKS.md "Bundle size").
import { Log } from '../log/log.js';
import { actOn } from '../log/message.js';
import { Composer } from '../composer/composer.js';
import { FEATURES } from './features.js';
import { type Composed, type Place, type Uses, renderPlace, useAll } from './spec.js';

/** A reply's text that streams or was cut off: the guard for half-typed markdown draws it. */
const unfinished = (m: ChatMessage) =>
  !!m.text && (m.state === 'streaming' || m.state === 'stopped' || m.state === 'interrupted' || !!m.truncated);

/**
 * The conversation UI (docs/architecture.md "Shell and panel"): the conversation itself
 * (ChatController and its store), the section with its header, notices and live region,
 * and the features it is made of, each in its own folder. The element renders it into its
 * shadow root; the store's notifications (one per transition) and a feature's own view
 * state are what render it again.
 */
export class Panel implements PanelApi<ChatHost>, PanelContext {
  readonly chat: ChatController;
  readonly focusKeeper: FocusKeeper;
  private readonly waiting = new Waits();
  /** Features whose chunk failed and has not arrived since: the notice says so, Retry asks again. */
  private readonly unloaded = new Set<Feature<FeatureModule>>();
  private readonly composer: Composer;
  private readonly log: Log;
  /** Every feature of the registry (src/panel/features.ts), by name, and in its order. */
  private readonly features: Uses<typeof FEATURES>;
  private readonly uses: readonly Composed[];
  /** The markdown lexer's chunk (`wantLexer`). */
  private readonly lexer: Feature<typeof import('../markdown/lex.js')>;
  /** The messages whose text was read for the lexer (`newlyNeedsLexer`). */
  private readonly lexerRead = new WeakSet<ChatMessage>();
  /** What the controls inside messages do, by their `data-act` (`onMessageAction`). */
  private readonly actions = new Map<string, MessageAction>();
  /**
   * What the polite status region says: the last completed reply as plain text, then how
   * many suggested replies came with it. Fixed when the reply completes, so later renders
   * (suggestions hidden while the next turn runs) never change it and re-announce it.
   */
  private readonly live: ViewState<{ text: string }>;
  /** allow-html is set but its sanitiser chunk failed to load (warned once). */
  private htmlUnavailable = false;
  private anchor: string | undefined;
  private part: RootPart | null = null;
  /** The UI's texts, resolved for the shell's strings version and the English added so far. */
  private strings: { shell: number; english: number; text: Strings; labels: MarkdownLabels } | null = null;
  /** The animation frame that renders what streamed meanwhile (tokens come faster than frames). */
  private frame = 0;
  /** The status the last notification had: a token that changes it renders at once. */
  private lastStatus: ChatStatus = 'idle';
  /**
   * What a message shows besides its own fields changes with every render except those of a
   * keystroke and of streamed tokens (the text field, the one message that grew): those
   * leave `revision` as it was, and the log re-renders only the messages that changed
   * (src/log/log.ts). Anything else that asks the element to render (a feature's view
   * state, a chunk's arrival, a setting, another transition) counts as `loud`.
   */
  revision = 0;
  /** By message key: how many times what it shows besides itself changed (`touched`). */
  private readonly marked = new Map<string, number>();
  touches = 0;
  private loud = true;
  private quiet = false;
  /** A render or a change came while the widget was off the page: it renders when it returns. */
  private missed = false;

  constructor(
    readonly host: ChatHost,
    readonly view: ShellView,
  ) {
    this.chat = new ChatController(host, { code: { turns, recovery, stream, websocket } });
    // Keeps focus on something sensible when a re-render removes the focused control.
    this.focusKeeper = new FocusKeeper(host, () => (view.launcher && !host.isOpen ? view.launcherButton : this.composer.input));
    // Outside the log: what it says renders no message again.
    this.live = new ViewState(host, { text: '' }, { panel: this, keys: () => [] });
    this.lexer = this.feature(lexerChunk);
    this.features = useAll(FEATURES, this);
    this.uses = Object.values(this.features);
    this.composer = new Composer(this, this.features.attachments, this.features.voice);
    this.log = new Log(this, reading, {
      cards: (m) => this.place('cards', m),
      // Only the features that show something under a message take a part (a marker node each).
      turnControls: (m) => this.place(m.role === 'user' ? 'questionControls' : 'replyControls', m),
      belowControls: (m) => this.place('belowControls', m),
      editor: (m) => this.place('editor', m),
    });
    this.chat.store.subscribe(this.onChange);
    this.chat.threads.subscribe(() => host.requestUpdate());
    host.addEventListener('agent-chat-message', () => this.announceReply());
    // Copy buttons and links come from the markdown renderer, and every message's controls say
    // what they do (`data-act`): one delegated listener serves them all.
    host.addEventListener(
      'click',
      (event) => handleCopyClick(event, this.text.copied) || actOn(event, this.chat.messages, this.actions) || handleLinkClick(event, this),
    );
  }

  get threadId(): string | null {
    return this.chat.threadId;
  }

  /** Every UI text: the language's table with the host's `strings` on top (resolved again when either changes). */
  get text(): Strings {
    return this.resolved().text;
  }

  get labels(): MarkdownLabels {
    return this.resolved().labels;
  }

  private resolved() {
    const { view } = this;
    // A feature that arrives brings its English texts (src/i18n/index.ts `addEnglish`).
    const english = englishVersion();
    if (this.strings?.shell !== view.stringsVersion || this.strings.english !== english) {
      const text = resolveStrings(view.locale, view.overrides);
      this.strings = { shell: view.stringsVersion, english, text, labels: markdownLabels(text) };
    }
    return this.strings;
  }

  get messages(): readonly ChatMessage[] {
    return this.chat.messages;
  }

  get status(): ChatStatus {
    return this.chat.status;
  }

  /** What the features render in `place` (in the registry's order). */
  private place(place: Place, m?: ChatMessage): unknown {
    return renderPlace(this.uses, place, m);
  }

  feature<T extends FeatureModule>(chunk: Chunk<T>, saysFailure = false): Feature<T> {
    return new Feature(chunk, this.host, this.waiting, saysFailure ? null : this.unloaded);
  }

  activate(): void {
    this.chat.activate();
  }

  send(text: string, options: { imageUrl?: string; host?: boolean } = {}): Promise<void> {
    const go = () =>
      this.held(options.host)
        ? undefined
        : this.chat.send(text.trim() || (options.imageUrl ? this.text.imageMessage : ''), options.imageUrl, options.host);
    // Whether the reader accepted the disclaimer is known once its chunk is here (a page's
    // send() can come before it): waited for, or the send would be refused unasked.
    const { disclaimer } = this.features;
    return disclaimer.api.pending() ? disclaimer.api.ready().then(go) : Promise.resolve(go());
  }

  held(host?: boolean): boolean {
    return this.features.disclaimer.api.holds(host);
  }

  readonly newThread = (): void => {
    this.live.set({ text: '' });
    this.chat.newThread();
  };

  focusInput(): void {
    this.composer.input?.focus();
  }

  exportTranscript(format: unknown): Promise<string | null> {
    return this.features.exporter.api.transcript(format);
  }

  announce(text: string): void {
    // The same words again must change the region's text, or they are not read out again.
    this.live.set({ text: text === this.live.value.text ? `${text}\u00a0` : text });
  }

  onMessageAction(name: string, action: MessageAction): void {
    this.actions.set(name, action);
  }

  pickSuggestion(text: string): void {
    if (!emit(this.host, 'agent-chat-suggestion', { text }, true)) return;
    void this.send(text);
  }

  waits(): Array<Promise<unknown>> {
    return this.waiting.list();
  }

  /**
   * The conversation changed (one notification per transition of its store): render, once
   * per animation frame for tokens. The features whose chunks what it now shows needs ask
   * for them here, so a render that shows them waits for them: not per token, and not by
   * scanning on every render.
   */
  private readonly onChange = (state: ConversationState, change: Change): void => {
    // A widget off the page renders nothing: what changed meanwhile is shown when it returns.
    if (!this.host.isConnected) {
      this.missed = true;
      return;
    }
    const statusChanged = state.status !== this.lastStatus;
    this.lastStatus = state.status;
    if (change === 'draft') {
      this.log.prefetch();
      return this.quietly();
    }
    if (change === 'appendDelta') {
      // The lexer and the guard for half-typed markdown draw a streaming reply (it would
      // show raw syntax for a moment without them): fetched as the turn started, waited
      // for if not here yet.
      if (!hasTailSupport()) this.waiting.add(loadTailSupport());
      if (needsLexer(state.messages.at(-1)?.text ?? '')) this.wantLexer(true);
      // The first token (the status turns `streaming`) shows at once, the rest once a frame.
      if (statusChanged) return this.host.requestUpdate();
      this.frame ||= requestAnimationFrame(() => {
        this.frame = 0;
        this.quietly();
      });
      return;
    }
    // The reader's new question (typed, a suggestion, the page's send(), an edit or a rerun)
    // is placed in view, wherever the reader was.
    if (change === 'appendUser' || change === 'branch') {
      const question = change === 'branch' ? state.turn?.user : state.messages.at(-1)?.key;
      if (question) this.log.place(question);
    }
    // A transcript on its way (online: a failed fetch holds the next try back), or a reply:
    // the lexer is fetched meanwhile (prose needs none).
    const transcript = change === 'loading' && !!this.chat.threadId && !offline();
    if (transcript || change === 'startTurn') this.wantLexer(false);
    if (transcript) {
      // And what its finished replies show (copy, regenerate and edit, the save button):
      // fetched beside the token and the transcript, so the render that shows them does not
      // wait for another round trip once the transcript is here (BENCHMARKS.md "Fetched
      // with the transcript").
      for (const use of this.uses) use.prefetch('transcript');
    }
    if (change === 'startTurn') {
      // What a reply brings: fetched while the agent thinks (a chunk that fails is tried
      // again when needed).
      loadTailSupport().then(() => plainChunk().catch(() => undefined));
      for (const use of this.uses) use.prefetch('turn');
      this.log.prefetch();
    }
    this.sync(state, change === 'startTurn');
    this.host.requestUpdate();
  };

  /** The features what the conversation shows needs ask for their chunks (a render that shows them waits for them). */
  private sync(state: ConversationState, startTurn = false): void {
    // Text that is more than prose waits a little for the lexer, rather than show its syntax.
    if (!hasLexer() && (needsLexer(state.welcome) || state.messages.some(this.newlyNeedsLexer))) this.wantLexer(true);
    if (!startTurn && !hasTailSupport() && state.messages.some(unfinished)) this.waiting.add(loadTailSupport());
    for (const use of this.uses) use.sync(state);
  }

  /**
   * The lexer is needed (src/markdown/lex.ts, a chunk): fetched, or joined; `wait`: renders
   * wait for it a little while it is on its way. Its arrival renders again, and what was
   * drawn as text is drawn with it; a failure is said with Retry.
   */
  private wantLexer(wait: boolean): void {
    if (!hasLexer()) void this.lexer.want(wait);
  }

  /** A message not read before whose text needs the lexer (messages are never changed in place: each is read once). */
  private readonly newlyNeedsLexer = (m: ChatMessage): boolean => {
    if (this.lexerRead.has(m)) return false;
    this.lexerRead.add(m);
    return needsLexer(m.text);
  };

  marks(key: string): number {
    return this.marked.get(key) ?? 0;
  }

  touched(keys: ReadonlyArray<string | null | undefined>): void {
    for (const key of keys) if (key) this.marked.set(key, this.marks(key) + 1);
    this.touches++;
    this.quietly();
  }

  requested(): void {
    this.loud ||= !this.quiet;
  }

  /** A render for a keystroke or for streamed tokens: it leaves `revision` as it was. */
  private quietly(): void {
    this.quiet = true;
    this.host.requestUpdate();
    this.quiet = false;
  }

  willUpdate(changed: PropertyValues<ChatHost>): void {
    const { host, view } = this;
    // A chunk that failed here and came since for another slot or widget is not said any more.
    for (const feature of this.unloaded) if (feature.arrived) this.unloaded.delete(feature);
    // The sanitiser for allow-html: until it is here, nothing renders rather than markup that would change.
    if (changed.has('allowHtml') && host.allowHtml && !hasHtmlSupport() && !this.htmlUnavailable) {
      this.waiting.add(
        loadHtmlSupport().then((ok) => {
          if (ok) return host.requestUpdate();
          this.htmlUnavailable = true;
          warnOnce('allow-html could not load its sanitiser; raw HTML is shown as text.');
        }),
      );
    }
    for (const use of this.uses) use.willUpdate(changed);
    if (CONFIG_KEYS.some((key) => changed.has(key)) && view.config) this.chat.configure(view.config);
    this.log.willUpdate();
    if (this.log.anchor !== this.anchor) {
      this.anchor = this.log.anchor;
      this.features.cards.api.reset();
    }
  }

  update(): void {
    const host = this.host;
    // Off the page nothing renders, whatever asked (a chunk that arrived, a frame's tokens, a
    // property): it renders when it returns (`setConnected`).
    if (!host.isConnected) {
      this.missed = true;
      return;
    }
    // What asked for this update, up to here (its willUpdate included), is in this render.
    if (this.loud) this.revision++;
    this.loud = false;
    // After the launcher, which the shell keeps first: lit-html owns everything from its marker on.
    this.part = render(this.render(), host.renderRoot, { host, isConnected: host.isConnected });
  }

  setConnected(connected: boolean): void {
    this.part?.setConnected(connected);
    if (!connected || !this.missed) return;
    // Back on the page after a render or a change it did not show: shown now, with what it needs.
    this.missed = false;
    this.sync(this.chat.state);
    this.host.requestUpdate();
  }

  private render() {
    const { host, view, chat } = this;
    const t = this.text;
    const launcher = view.launcher;
    const heading = host.heading || t.heading;
    const { notice } = chat.state;
    const { history, fullScreen } = this.features;
    return html`<section
      part="panel"
      class="panel"
      id="panel"
      role=${launcher ? 'dialog' : 'region'}
      aria-modal=${launcher && fullScreen.api.active() ? 'true' : nothing}
      aria-label=${heading}
      dir=${view.direction}
      lang=${host.lang || nothing}
      ?hidden=${launcher && !host.isOpen}
      @keydown=${this.onKeyDown}
    >
      ${renderHeader(t, {
        heading,
        title: this.place('title'),
        launcher,
        historyOpen: history.api.isOpen,
        buttons: this.place('headerButtons'),
        onHistory: () => void history.api.toggle(),
        onNewThread: this.newThread,
        onClose: view.close,
      })}
      ${this.place('aboveLog')}
      ${view.configProblems.length ? renderConfigNotice(t, view.configProblems, { developer: view.developer, fatal: !view.config }) : nothing}
      ${this.log.render(this.place('overLog'))}
      ${
        notice
          ? renderNotice(t, {
              title: noticeText(t, notice),
              body: notice.details,
              onRetry: notice.retry ? () => chat.retry() : undefined,
              onDismiss: () => chat.dismissNotice(),
            })
          : this.unloaded.size
            ? renderNotice(t, {
                title: t.loadFailed,
                onRetry: () => this.unloaded.forEach((feature) => void feature.retry()),
                onDismiss: () => (this.unloaded.clear(), host.requestUpdate()),
              })
            : nothing
      }
      ${this.composer.render()}
      <slot name="footer"></slot>
    </section>
    <div class="sr-only announcer" role="status" aria-live="polite" aria-atomic="true" dir=${view.direction} lang=${host.lang || nothing}>${this.live.value.text}</div>`;
  }

  updated(): void {
    // Nothing was rendered off the page: the log follows what the next render shows.
    if (this.host.isConnected) this.log.updated();
  }

  private readonly onKeyDown = (event: KeyboardEvent): void =>
    onPanelKey(event, {
      chat: this.chat,
      launcher: this.view.launcher,
      open: this.host.isOpen,
      input: () => this.composer.input,
      trap: (e) => this.features.fullScreen.api.trap(e),
      history: this.features.history.api,
      closePanel: this.view.close,
    });

  /**
   * The polite region's text for the reply that just completed (see `live`). The region
   * is outside the panel, so a reply that lands while the launcher is closed is heard too.
   */
  private announceReply(): void {
    const reply = this.chat.messages.at(-1);
    if (reply?.role !== 'agent') return;
    const t = this.text;
    // Without its chunk (offline), the reply is not announced; it is in the log.
    plainChunk().then(
      ({ replyAnnouncement }) => this.announce(replyAnnouncement(t, this.host.agentDisplayName || t.agentName, reply)),
      () => {},
    );
  }
}
