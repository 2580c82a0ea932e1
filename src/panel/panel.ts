import { html, nothing, render, type RootPart } from 'lit-html';
import type { PropertyValues } from '../shell/host.js';
import type { AgentChat } from '../agent-chat-element.js';
import { TurnSlot } from '../branches/slot.js';
import { CardsControl } from '../cards/controller.js';
import { Composer } from '../composer/composer.js';
import { emit } from '../events.js';
import { HandOffSlot } from '../handoff/slot.js';
import { HistoryControl } from '../history/controller.js';
import { handleLinkClick } from '../links/links.js';
import { Log } from '../log/log.js';
import {
  handleCopyClick,
  hasHtmlSupport,
  hasTailSupport,
  loadHtmlSupport,
  loadTailSupport,
  markdownLabels,
  type MarkdownLabels,
} from '../markdown/markdown.js';
import { renderConfigNotice, renderNotice } from '../notices/notice.js';
import { noticeText } from '../notices/text.js';
import { CONFIG_KEYS } from '../shell/attributes.js';
import type { PanelApi, ShellView } from '../shell/panel-api.js';
import { type ChatStatus, ChatController } from '../state/chat-controller.js';
import type { ChatMessage } from '../state/messages.js';
import type { FullScreen } from '../full-screen/full-screen.js';
import { type Strings, resolveStrings } from '../i18n/index.js';
import { lazy } from '../lazy.js';
import { warnOnce } from '../warn.js';
import type { PanelContext } from './context.js';
import { FocusKeeper } from './focus-keeper.js';
import { Feature } from './feature.js';
import { renderHeader } from './header.js';

/** The full-screen, modal panel of a launcher on a small screen (src/full-screen/). */
const loadFullScreen = lazy(() => import('../full-screen/full-screen.js'));
/** Markdown as plain text for the announcement of a reply: a chunk, first needed when a reply completes. */
const loadPlain = lazy(() => import('../markdown/plain.js'));

/**
 * The conversation UI (docs/architecture.md "Shell and panel"): the conversation itself
 * (ChatController), the section with its header, notices and live region, and the features
 * it is made of, each in its own folder. The element renders it into its shadow root.
 */
export class Panel implements PanelApi, PanelContext {
  readonly chat: ChatController;
  readonly focusKeeper: FocusKeeper;
  /** A launcher's open panel on a small screen: full-screen and modal (src/full-screen/, a chunk only launchers fetch). */
  private fullScreen: FullScreen | null = null;
  private readonly fullScreenFeature: Feature<typeof import('../full-screen/full-screen.js')>;
  labels: MarkdownLabels;
  private readonly composer: Composer;
  private readonly log: Log;
  private readonly cards: CardsControl;
  private readonly turns: TurnSlot;
  private readonly history: HistoryControl;
  private readonly handoff: HandOffSlot;
  /**
   * What the polite status region says: the last completed reply as plain text, then how
   * many suggested replies came with it. Fixed when the reply completes, so later renders
   * (suggestions hidden while the next turn runs) never change it and re-announce it.
   */
  private liveText = '';
  /** allow-html is set but its sanitiser chunk failed to load (warned once). */
  private htmlUnavailable = false;
  private anchor: string | undefined;
  private part: RootPart | null = null;
  text: Strings;
  private stringsVersion: number;

  constructor(
    readonly host: AgentChat,
    readonly view: ShellView,
  ) {
    this.chat = new ChatController(host);
    // Keeps focus on something sensible when a re-render removes the focused control.
    this.focusKeeper = new FocusKeeper(host, () => (view.launcher && !host.isOpen ? view.launcherButton : this.composer.input));
    this.fullScreenFeature = new Feature(loadFullScreen, host);
    this.stringsVersion = view.stringsVersion;
    this.text = resolveStrings(view.locale, view.overrides);
    this.labels = markdownLabels(this.text);
    this.composer = new Composer(this);
    this.cards = new CardsControl(this);
    this.turns = new TurnSlot(this);
    this.history = new HistoryControl(this);
    this.handoff = new HandOffSlot(this);
    this.log = new Log(this, {
      cards: (m) => this.cards.render(m),
      turnControls: (m) => this.turns.render(m),
      editor: (m) => this.turns.editor(m),
    });
    host.addEventListener('agent-chat-message', () => this.announceReply());
    // Copy buttons and links come from the markdown renderer; one delegated listener serves them all.
    host.addEventListener('click', (event) => handleCopyClick(event, this.text.copied) || handleLinkClick(event, this));
  }

  get threadId(): string | null {
    return this.chat.threadId;
  }

  get messages(): readonly ChatMessage[] {
    return this.chat.messages;
  }

  get status(): ChatStatus {
    return this.chat.status;
  }

  activate(): void {
    this.chat.activate();
  }

  async send(text: string, options: { imageUrl?: string } = {}): Promise<void> {
    const trimmed = text.trim() || (options.imageUrl ? this.text.imageMessage : '');
    // While the conversation loads the controller holds the text until it can go out;
    // while a turn runs, nothing is sent.
    if (!trimmed || this.chat.turnRunning) return;
    const allowed = emit(
      this.host,
      'agent-chat-send',
      { text: trimmed, threadId: this.chat.threadId, imageUrl: options.imageUrl ?? null },
      true,
    );
    if (!allowed) return;
    // What a reply brings (cards, its turn controls): fetched while the agent thinks.
    this.cards.prefetch();
    this.turns.prefetch();
    await this.chat.send(trimmed, options.imageUrl);
  }

  readonly newThread = (): void => {
    this.liveText = '';
    this.chat.newThread();
  };

  focusInput(): void {
    this.composer.input?.focus();
  }

  announce(text: string): void {
    // The same words again must change the region's text, or they are not read out again.
    this.liveText = text === this.liveText ? `${text}\u00a0` : text;
    this.host.requestUpdate();
  }

  pickSuggestion(text: string): void {
    if (!emit(this.host, 'agent-chat-suggestion', { text }, true)) return;
    void this.send(text);
  }

  needs(): Array<Promise<unknown>> {
    const needs = [
      ...this.composer.needs(),
      ...this.history.needs(),
      ...this.handoff.needs(),
      ...this.turns.needs(),
      ...this.cards.needs(),
    ];
    // The guard for half-typed markdown: fetched as a turn starts, waited for by a reply that
    // streams or was cut off (it would show raw syntax for a moment without it).
    if (!hasTailSupport()) {
      const { status, messages } = this.chat;
      if (messages.some((m) => m.text && /^(streaming|stopped|interrupted)$/.test(m.state))) needs.push(loadTailSupport());
      else if (status !== 'idle' && status !== 'error')
        loadTailSupport()
          .then(loadPlain)
          .catch(() => {}); // a chunk that fails is tried again when needed
    }
    // The sanitiser for allow-html: until it is here, nothing renders rather than markup that would change.
    if (this.host.allowHtml && !hasHtmlSupport() && !this.htmlUnavailable) {
      needs.push(
        loadHtmlSupport().then((ok) => {
          if (ok) return;
          this.htmlUnavailable = true;
          warnOnce('allow-html could not load its sanitiser; raw HTML is shown as text.');
        }),
      );
    }
    return needs;
  }

  willUpdate(changed: PropertyValues): void {
    const { host, view } = this;
    const fullScreen = this.fullScreenFeature.module;
    // A launcher fetches its full-screen chunk beside the panel, without holding a render for
    // it: the panel shows at once and turns modal when the chunk lands (it renders again).
    if (view.launcher && !fullScreen && !this.fullScreenFeature.failed) void this.fullScreenFeature.ensure();
    if (fullScreen && !this.fullScreen) {
      this.fullScreen = new fullScreen.FullScreen(
        host,
        () => view.launcher && host.isOpen,
        () => host.renderRoot.querySelector<HTMLElement>('.panel'),
      );
    }
    if (view.stringsVersion !== this.stringsVersion) {
      this.stringsVersion = view.stringsVersion;
      this.text = resolveStrings(view.locale, view.overrides);
      this.labels = markdownLabels(this.text);
    }
    if (changed.has('uploadImage')) this.composer.setUpload(host.uploadImage);
    if (changed.has('cardRenderer')) this.cards.setRenderer(host.cardRenderer);
    if (changed.has('channels')) this.handoff.setChannels(host.channels);
    if (CONFIG_KEYS.some((key) => changed.has(key)) && view.config) this.chat.configure(view.config);
    this.handoff.willUpdate();
    this.composer.willUpdate();
    this.turns.willUpdate();
    this.log.willUpdate();
    if (this.log.anchor !== this.anchor) {
      this.anchor = this.log.anchor;
      this.cards.reset();
    }
  }

  update(): void {
    const host = this.host;
    // After the launcher, which the shell keeps first: lit-html owns everything from its marker on.
    this.part = render(this.render(), host.renderRoot, { host, isConnected: host.isConnected });
  }

  setConnected(connected: boolean): void {
    this.part?.setConnected(connected);
  }

  private render() {
    const { host, view, chat } = this;
    const t = this.text;
    const launcher = view.launcher;
    const heading = host.heading || t.heading;
    const notice = chat.notice;
    return html`<section
      part="panel"
      class="panel"
      id="panel"
      role=${launcher ? 'dialog' : 'region'}
      aria-modal=${launcher && this.fullScreen?.active ? 'true' : nothing}
      aria-label=${heading}
      dir=${view.direction}
      lang=${host.lang || nothing}
      ?hidden=${launcher && !host.isOpen}
      @keydown=${this.onKeyDown}
    >
      ${renderHeader(t, {
        heading,
        launcher,
        historyOpen: this.history.isOpen,
        channelButton: this.handoff.renderButton(),
        onHistory: () => void this.history.toggle(),
        onNewThread: this.newThread,
        onClose: view.close,
      })}
      ${this.handoff.renderForm()}
      ${view.configProblems.length ? renderConfigNotice(t, view.configProblems, { developer: view.developer, fatal: !view.config }) : nothing}
      ${this.log.render(this.history.isOpen ? this.history.render() : nothing)}
      ${
        notice
          ? renderNotice(t, {
              title: noticeText(t, notice),
              body: notice.details,
              onRetry: notice.retry ? () => chat.retry() : undefined,
              onDismiss: () => chat.dismissNotice(),
            })
          : nothing
      }
      ${this.composer.render()}
      <slot name="footer"></slot>
    </section>
    <div class="sr-only announcer" role="status" aria-live="polite" aria-atomic="true" dir=${view.direction} lang=${host.lang || nothing}>${this.liveText}</div>`;
  }

  updated(): void {
    this.log.updated();
  }

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (this.fullScreen?.trap(event)) return;
    // Ctrl+. (⌘. on a Mac, the system's "cancel") stops a running reply, in either mode.
    if (event.key === '.' && (event.ctrlKey || event.metaKey) && this.chat.turnRunning) {
      event.preventDefault();
      this.chat.stop();
      return;
    }
    if (event.key !== 'Escape') return;
    if (this.history.isOpen) {
      event.stopPropagation();
      this.history.close();
      return;
    }
    // Inline, Escape in the text field stops the reply; a launcher's Escape closes the panel
    // and the reply keeps streaming (the unread dot shows when it lands).
    if (!this.view.launcher && this.chat.turnRunning && event.target === this.composer.input) {
      this.chat.stop();
      return;
    }
    if (this.view.launcher && this.host.isOpen) {
      event.stopPropagation();
      this.view.close();
    }
  };

  /**
   * The polite region's text for the reply that just completed (see `liveText`). The region
   * is outside the panel, so a reply that lands while the launcher is closed is heard too.
   */
  private announceReply(): void {
    const reply = this.chat.messages.at(-1);
    if (reply?.role !== 'agent') return;
    const t = this.text;
    const suggestions = reply.suggestions.filter((s) => typeof s === 'string' && s.trim() !== '').length;
    // Plain text: a screen reader must not read out "asterisk asterisk" or table pipes.
    // A bounded summary: a live region that received a whole long reply would keep a
    // screen reader talking for minutes (and hold the text after the reply is gone).
    // Without its chunk (offline), the reply is not announced; it is in the log.
    loadPlain().then(
      ({ plainSummary }) => {
        const parts = [t.announce(this.host.agentDisplayName || t.agentName, plainSummary(reply.text))];
        if (suggestions) parts.push(t.suggestionsAvailable(suggestions));
        this.announce(parts.join(' '));
      },
      () => {},
    );
  }
}
