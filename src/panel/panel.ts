import { render, type RootPart } from 'lit-html';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { plain as plainChunk, reading, recovery, stream, turns, websocket } from '../chunks.js';
import { emit } from '../events.js';
import type { Chunk } from '../lazy.js';
import { handleLinkClick } from '../links/links.js';
import { handleCopyClick, loadTailSupport, type MarkdownLabels } from '../markdown/markdown.js';
import type { PanelApi, ShellView } from '../shell/panel-api.js';
import { type ChatStatus, ChatController } from '../state/chat-controller.js';
import { CONFIG_KEYS } from '../state/config.js';
import { offline } from '../state/online.js';
import type { ChatMessage } from '../state/messages.js';
import type { Change, ConversationState } from '../state/store.js';
import type { Strings } from '../i18n/index.js';
import type { MessageAction, PanelContext } from './context.js';
import { Announcer } from './announcer.js';
import { Texts } from './texts.js';
import { FocusKeeper } from './focus-keeper.js';
import { Feature, type FeatureModule, RenderWaits } from './feature.js';
import { renderSection } from './section.js';
import { onPanelKey } from './keys.js';
import { MarkdownCode } from './markdown-code.js';
import { Renders } from './renders.js';
// The log, the composer and the features' specs last: the bundler lays the panel's chunk
// out in import order, and they are read with this module (which makes them), not with
// the conversation's and the markdown's modules, more than gzip's 32 KB window before it
// (BENCHMARKS.md "Bundle size").
import { Log } from '../log/log.js';
import { actOn } from '../log/message.js';
import { Composer } from '../composer/composer.js';
import { FEATURES } from './features.js';
import { type Composed, type Place, type Uses, renderPlace, useAll } from './spec.js';

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
  private readonly __waiting = new RenderWaits();
  /** Features whose chunk failed and has not arrived since: the notice says so, Retry asks again. */
  private readonly __unloaded = new Set<Feature<FeatureModule>>();
  private readonly __composer: Composer;
  private readonly __log: Log;
  /** Every feature of the registry (src/panel/features.ts), by name, and in its order. */
  private readonly __features: Uses<typeof FEATURES>;
  private readonly __uses: readonly Composed[];
  /** What text is drawn with: the lexer, the guard for half-typed markdown, the allow-html sanitiser. */
  private readonly __markdown: MarkdownCode;
  /** When the panel renders, and how much of the log a render touches. */
  readonly renders: Renders;
  /** What the controls inside messages do, by their `data-act` (`onMessageAction`). */
  private readonly __actions = new Map<string, MessageAction>();
  private readonly __announcer: Announcer;
  private __anchor: string | undefined;
  private __part: RootPart | null = null;
  private readonly __texts: Texts;
  /** The status the last notification had: a token that changes it renders at once. */
  private __lastStatus: ChatStatus = 'idle';
  /** A render or a change came while the widget was off the page: it renders when it returns. */
  private __missed = false;

  constructor(
    readonly host: ChatHost,
    readonly view: ShellView,
  ) {
    this.chat = new ChatController(host, { code: { turns, recovery, stream, websocket } });
    // Keeps focus on something sensible when a re-render removes the focused control.
    this.focusKeeper = new FocusKeeper(host, () => (view.launcher && !host.isOpen ? view.launcherButton : this.__composer.input));
    this.__texts = new Texts(view);
    this.renders = new Renders(host);
    this.__announcer = new Announcer(host, this.renders);
    this.__markdown = new MarkdownCode((chunk) => this.feature(chunk), host, this.__waiting);
    this.__features = useAll(FEATURES, this);
    this.__uses = Object.values(this.__features);
    this.__composer = new Composer(this, this.__features.attachments, this.__features.voice);
    this.__log = new Log(this, reading, {
      cards: (m) => this.__place('cards', m),
      // Only the features that show something under a message take a part (a marker node each).
      turnControls: (m) => this.__place(m.role === 'user' ? 'questionControls' : 'replyControls', m),
      belowControls: (m) => this.__place('belowControls', m),
      editor: (m) => this.__place('editor', m),
    });
    this.chat.store.subscribe(this.__onChange);
    this.chat.threads.subscribe(() => host.requestUpdate());
    host.addEventListener('agent-chat-message', () =>
      this.__announcer.reply(this.text, host.agentDisplayName || this.text.agentName, this.chat.messages.at(-1)),
    );
    // Copy buttons and links come from the markdown renderer, and every message's controls say
    // what they do (`data-act`): one delegated listener serves them all.
    host.addEventListener(
      'click',
      (event) =>
        handleCopyClick(event, this.text.copied) || actOn(event, this.chat.messages, this.__actions) || handleLinkClick(event, this),
    );
  }

  get threadId(): string | null {
    return this.chat.threadId;
  }

  /** Every UI text: the language's table with the host's `strings` on top (resolved again when either changes). */
  get text(): Strings {
    return this.__texts.current.text;
  }

  get labels(): MarkdownLabels {
    return this.__texts.current.labels;
  }

  renderRequested(): void {
    this.renders.renderRequested();
  }

  get messages(): readonly ChatMessage[] {
    return this.chat.messages;
  }

  get status(): ChatStatus {
    return this.chat.status;
  }

  /** What the features render in `place` (in the registry's order). */
  private __place(place: Place, m?: ChatMessage): unknown {
    return renderPlace(this.__uses, place, m);
  }

  feature<T extends FeatureModule>(chunk: Chunk<T>, saysFailure = false): Feature<T> {
    return new Feature(chunk, this.host, this.__waiting, saysFailure ? null : this.__unloaded);
  }

  activate(): void {
    this.chat.activate();
  }

  send(text: string, options: { imageUrl?: string; host?: boolean } = {}): Promise<void> {
    const go = () =>
      this.sendHeld(options.host)
        ? undefined
        : this.chat.send(text.trim() || (options.imageUrl ? this.text.imageMessage : ''), options.imageUrl, options.host);
    // Whether the reader accepted the disclaimer is known once its chunk is here (a page's
    // send() can come before it): waited for, or the send would be refused unasked.
    const { disclaimer } = this.__features;
    return disclaimer.api.pending() ? disclaimer.api.ready().then(go) : Promise.resolve(go());
  }

  sendHeld(host?: boolean): boolean {
    return this.__features.disclaimer.api.holds(host);
  }

  readonly newThread = (): void => {
    this.__announcer.clear();
    this.chat.newThread();
  };

  focusInput(): void {
    this.__composer.input?.focus();
  }

  exportTranscript(format: unknown): Promise<string | null> {
    return this.__features.exporter.api.transcript(format);
  }

  announce(text: string): void {
    this.__announcer.say(text);
  }

  onMessageAction(name: string, action: MessageAction): void {
    this.__actions.set(name, action);
  }

  pickSuggestion(text: string): void {
    if (!emit(this.host, 'agent-chat-suggestion', { text }, true)) return;
    void this.send(text);
  }

  waits(): Array<Promise<unknown>> {
    return this.__waiting.list();
  }

  /**
   * The conversation changed (one notification per transition of its store): render, once
   * per animation frame for tokens. The features whose chunks what it now shows needs ask
   * for them here, so a render that shows them waits for them: not per token, and not by
   * scanning on every render.
   */
  private readonly __onChange = (state: ConversationState, change: Change): void => {
    // A widget off the page renders nothing: what changed meanwhile is shown when it returns.
    if (!this.host.isConnected) {
      this.__missed = true;
      return;
    }
    const statusChanged = state.status !== this.__lastStatus;
    this.__lastStatus = state.status;
    if (change === 'draft') {
      this.__log.prefetch();
      return this.renders.quietly();
    }
    if (change === 'appendDelta') {
      // Fetched as the turn started, waited for if not here yet.
      this.__markdown.streaming(state);
      // The first token (the status turns `streaming`) shows at once, the rest once a frame.
      return statusChanged ? this.host.requestUpdate() : this.renders.nextFrame();
    }
    // The reader's new question (typed, a suggestion, the page's send(), an edit or a rerun)
    // is placed in view, wherever the reader was.
    if (change === 'appendUser' || change === 'branch') {
      const question = change === 'branch' ? state.turn?.user : state.messages.at(-1)?.key;
      if (question) this.__log.place(question);
    }
    // A transcript on its way (online: a failed fetch holds the next try back), or a reply:
    // the lexer is fetched meanwhile (prose needs none).
    const transcript = change === 'loading' && !!this.chat.threadId && !offline();
    if (transcript || change === 'startTurn') this.__markdown.wantLexer(false);
    if (transcript) {
      // And what its finished replies show (copy, regenerate and edit, the save button):
      // fetched beside the token and the transcript, so the render that shows them does not
      // wait for another round trip once the transcript is here (BENCHMARKS.md "Fetched
      // with the transcript").
      for (const use of this.__uses) use.prefetch('transcript');
    }
    if (change === 'startTurn') {
      // What a reply brings: fetched while the agent thinks (a chunk that fails is tried
      // again when needed).
      loadTailSupport().then(() => plainChunk().catch(() => undefined));
      for (const use of this.__uses) use.prefetch('turn');
      this.__log.prefetch();
    }
    this.__fetchForShown(state, change === 'startTurn');
    this.host.requestUpdate();
  };

  /** The features what the conversation shows needs ask for their chunks (a render that shows them waits for them). */
  private __fetchForShown(state: ConversationState, startTurn = false): void {
    this.__markdown.fetchForShown(state, startTurn);
    for (const use of this.__uses) use.fetchForShown(state);
  }

  willUpdate(changed: PropertyValues<ChatHost>): void {
    const { view } = this;
    // A chunk that failed here and came since for another feature or widget is not said any more.
    for (const feature of this.__unloaded) if (feature.arrived) this.__unloaded.delete(feature);
    this.__markdown.willUpdate(changed);
    for (const use of this.__uses) use.willUpdate(changed);
    if (CONFIG_KEYS.some((key) => changed.has(key)) && view.config) this.chat.configure(view.config);
    this.__log.willUpdate();
    if (this.__log.anchor !== this.__anchor) {
      this.__anchor = this.__log.anchor;
      this.__features.cards.api.reset();
    }
  }

  update(): void {
    const host = this.host;
    // Off the page nothing renders, whatever asked (a chunk that arrived, a frame's tokens, a
    // property): it renders when it returns (`setConnected`).
    if (!host.isConnected) {
      this.__missed = true;
      return;
    }
    // What asked for this update, up to here (its willUpdate included), is in this render.
    this.renders.rendering();
    // After the launcher, which the shell keeps first: lit-html owns everything from its marker on.
    this.__part = render(this.__render(), host.renderRoot, { host, isConnected: host.isConnected });
  }

  setConnected(connected: boolean): void {
    this.__part?.setConnected(connected);
    if (!connected || !this.__missed) return;
    // Back on the page after a render or a change it did not show: shown now, with what it needs.
    this.__missed = false;
    this.__fetchForShown(this.chat.state);
    this.host.requestUpdate();
  }

  private __render() {
    const { host, view, chat, __unloaded: unloaded } = this;
    const { history, fullScreen } = this.__features;
    return renderSection({
      host,
      view,
      text: this.text,
      modal: fullScreen.api.active(),
      title: this.__place('title'),
      buttons: this.__place('headerButtons'),
      aboveLog: this.__place('aboveLog'),
      log: this.__log.render(this.__place('overLog')),
      composer: this.__composer.render(),
      announcer: this.__announcer.render(view, host.lang),
      historyOpen: history.api.isOpen,
      onHistory: () => void history.api.toggle(),
      onNewThread: this.newThread,
      onKeyDown: this.__onKeyDown,
      notice: chat.state.notice,
      retry: () => chat.retry(),
      dismissNotice: () => chat.dismissNotice(),
      loadFailed: unloaded.size
        ? { retry: () => unloaded.forEach((feature) => void feature.retry()), dismiss: () => (unloaded.clear(), host.requestUpdate()) }
        : null,
    });
  }

  updated(): void {
    // Nothing was rendered off the page: the log follows what the next render shows.
    if (this.host.isConnected) this.__log.updated();
  }

  private readonly __onKeyDown = (event: KeyboardEvent): void =>
    onPanelKey(event, {
      chat: this.chat,
      launcher: this.view.launcher,
      open: this.host.isOpen,
      input: () => this.__composer.input,
      trap: (e) => this.__features.fullScreen.api.trap(e),
      history: this.__features.history.api,
      closePanel: this.view.close,
    });
}
