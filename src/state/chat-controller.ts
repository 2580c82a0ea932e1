import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import type { AgentClient } from '../client/client.js';
import { ApiError, errorFromException, isApiError } from '../client/errors.js';
import { isHexId } from '../client/types.js';
import { type ChatMessage, fillPlaceholders, fromTranscript, userMessage } from './messages.js';
import type { BranchPosition } from './branches.js';
import type { HistoryEntry } from './history.js';
import { Threads } from './threads.js';
import { type Notice, type RetryAction, errorDetail, noticeFor } from './notice.js';
import { emit, type ThreadReason } from '../events.js';
import { OnlineWaiter } from './online.js';
import { scopeOf } from './storage.js';
import type { ChatConfig, ChatStatus } from './types.js';
import { createClient, fetchConversation } from './requests.js';
import type { TurnScene } from './scene.js';
import type { Turns } from './turns.js';
import { lazy } from '../lazy.js';

export type { ChatConfig, ChatStatus, ThreadReason };

const loadTurns = lazy(() => import('./turns.js'));

type Host = ReactiveControllerHost & HTMLElement;

/**
 * Owns the conversation: loading, the running turn and its stream, errors and persistence.
 * The element reads its fields in `render()` and forwards user actions to its methods.
 * Every request has its own AbortController; all of them end when the host disconnects.
 */
export class ChatController implements ReactiveController, TurnScene {
  status: ChatStatus = 'idle';
  messages: ChatMessage[] = [];
  welcome = '';
  /** Starter suggestions, shown before the first message. */
  starters: string[] = [];
  notice: Notice | null = null;
  /** The composer's text; kept here so no failure can lose it. */
  draft = '';
  /** True once welcome or transcript have been loaded for the current configuration. */
  ready = false;

  /** @internal The service of the current configuration (turns.ts). */
  client: AgentClient | null = null;
  /** @internal The thread in use and what this browser keeps of its threads. */
  readonly threads: Threads;
  /** @internal */
  config: ChatConfig | null = null;
  /** The turns (send, resume, rerun), once their chunk is here (`useTurns()`). */
  private turns: Turns | null = null;
  private loading: AbortController | null = null;
  /** Settles when the latest `load()` has (successfully or not). */
  private loaded: Promise<void> = Promise.resolve();
  /** Offline failures retry by themselves once the browser is back online. */
  private readonly online = new OnlineWaiter(() => {
    if (this.notice?.retry) this.retry();
  });
  /** @internal The text of a send that has not reached the service yet (offline, or failed). */
  unsent: ChatMessage | null = null;
  /**
   * Whether the service may be called. A launcher that was never opened calls nothing
   * (docs/architecture.md "Shell and panel"): the panel activates the conversation when it
   * is about to show, when a turn is sent, or when stored state says a reply is pending.
   */
  private active = false;
  /** The reason of a load asked for before activation (`undefined`: none asked for). */
  private deferred: ThreadReason | null | undefined;
  /** Stops listening to the other tabs' writes. */
  private unwatch: (() => void) | null = null;

  constructor(readonly host: Host) {
    this.threads = new Threads(host);
    host.addController(this);
  }

  /** The thread in use; null before the first message of a new conversation. */
  get threadId(): string | null {
    return this.threads.id;
  }

  hostConnected(): void {
    this.watchTabs();
    // Reconnecting after a move in the DOM: reload what the disconnect aborted.
    if (this.active && this.config && !this.ready && !this.loading) void this.load();
  }

  /** Lets the conversation call the service, and loads it if that was held back. */
  activate(): void {
    if (this.active) return;
    this.active = true;
    const reason = this.deferred;
    this.deferred = undefined;
    if (this.config && !this.ready) void this.load(reason ?? null);
  }

  hostDisconnected(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.turns?.leave();
    this.client?.close();
    this.loading?.abort();
    this.loading = null;
    this.online.stop();
    if (this.status !== 'idle') this.status = 'idle';
    this.ready = false;
  }

  get busy(): boolean {
    return this.status === 'connecting' || this.status === 'streaming' || this.status === 'reconnecting';
  }

  /** A turn (send, retry, rerun) is under way; loading a conversation is not one. */
  get turnRunning(): boolean {
    return !!this.turns?.running;
  }

  /** Earlier conversations, newest first; a conversation's branches are one entry. */
  get history(): readonly HistoryEntry[] {
    return this.threads.conversations;
  }

  /** The history entry of the conversation in use (it may show another branch of it). */
  get historyCurrent(): string | null {
    const id = this.threadId;
    if (!id) return null;
    const members = this.threads.conversationOf(id);
    return this.history.find((e) => members.includes(e.id))?.id ?? id;
  }

  get currentUserId(): string {
    return this.threads.userId;
  }

  /** The client of the current configuration, for operations outside a turn (hand-off). */
  get api(): AgentClient | null {
    return this.client;
  }

  /** Applies a new configuration; a change of service, credential or thread reloads. */
  configure(config: ChatConfig): void {
    const previous = this.config;
    this.config = config;
    const scopeChanged =
      !previous ||
      previous.baseUrl !== config.baseUrl ||
      previous.publishableKey !== config.publishableKey ||
      previous.accessToken !== config.accessToken ||
      previous.tokenProvider !== config.tokenProvider ||
      previous.persist !== config.persist;

    if (scopeChanged) {
      const scope = scopeOf(config);
      this.client = createClient(config, scope);
      this.draft = this.threads.open(config) || this.draft;
      if (this.host.isConnected) this.watchTabs();
      void this.load(config.threadId ? 'switched' : 'restored');
      return;
    }

    if (config.userId && config.userId !== this.threads.userId) this.threads.userId = config.userId;
    if (config.threadId && config.threadId !== this.threadId) {
      this.switchThread(config.threadId, 'switched');
    }
  }

  /** Welcome message, then either the thread's transcript or the starter suggestions. */
  load(reason: ThreadReason | null = null): Promise<void> {
    if (!this.active) {
      // Held until activate(); the last load asked for is the one made (a switch meanwhile
      // has reported itself, and must not be reported again as 'restored').
      this.deferred = reason;
      return Promise.resolve();
    }
    this.loaded = this.loadThread(reason);
    return this.loaded;
  }

  private async loadThread(reason: ThreadReason | null): Promise<void> {
    const client = this.client;
    if (!client || !this.config) return;
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    const { signal } = controller;
    this.ready = false;
    this.notice = null;
    this.status = 'connecting';
    this.host.requestUpdate();

    const threadId = this.threadId && isHexId(this.threadId) ? this.threadId : null;
    if (this.threadId && !threadId) this.threads.forget();

    try {
      const loaded = await fetchConversation(client, threadId, this.config.suggestionContext, signal);
      this.welcome = fillPlaceholders(loaded.welcome, this.config.agentVariables?.static);
      if (loaded.unknownThread) this.threadGone();
      this.messages = loaded.transcript ? fromTranscript(loaded.transcript) : [];
      this.starters = loaded.starters;
      if (loaded.transcript) {
        if (reason) this.threads.announce(threadId, null, reason);
        if (this.threads.history.some((e) => e.id === threadId)) this.threads.touch(this.messages, this.messages.at(-1)?.createdAt);
      }
      this.ready = true;
      // A rerun running when the page went has been answered or not: the transcript shows.
      if (!this.turnRunning) this.threads.saved?.pending(false);
      const running = this.turnRunning ? null : this.threads.saved?.runningTurn();
      // A turn still running stays `connecting` until recovery decides how it goes on.
      this.status = running ? 'connecting' : 'idle';
      emit(this.host, 'agent-chat-ready', { threadId: this.threadId });
      // Cannot fetch the turns' code: the turn stays stored for the next page; the transcript shows.
      if (running) {
        this.useTurns().then(
          (turns) => turns.recover(running, loaded.transcript ?? []),
          () => {
            this.status = 'idle';
            this.host.requestUpdate();
          },
        );
      }
    } catch (error) {
      if (signal.aborted) return;
      this.fail(error, 'load');
    } finally {
      if (this.loading === controller) this.loading = null;
      this.host.requestUpdate();
    }
  }

  /** The reader is about to write: fetch what a streamed turn runs on, while they type. */
  prefetchTurn(): void {
    this.useTurns().catch(() => undefined);
    if (this.config?.transport !== 'rest') this.client?.prefetchStreaming();
  }

  /**
   * @internal The turns, from a chunk fetched when the reader focuses the text field or a
   * turn starts (pages that only show a conversation never need it). Rejects with the
   * network ApiError of a chunk that cannot be fetched; the next call tries again.
   */
  async useTurns(): Promise<Turns> {
    const { Turns } = await loadTurns().catch((e: unknown) => {
      throw errorFromException(e, undefined, () => false);
    });
    return (this.turns ??= new Turns(this));
  }

  setDraft(text: string): void {
    this.draft = text;
    this.threads.saved?.draft(this.threadId, text);
  }

  /**
   * Sends one turn. Resolves when the turn has ended, however it ended; failures become a
   * notice (and `agent-chat-error`), never a rejection the host must catch.
   */
  async send(text: string, imageUrl?: string): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    this.activate();
    // Sent while the conversation loads (a host calling send() at once): wait, or the
    // restored transcript would replace the message. If the load fails, the text stays as
    // the draft beside the error notice instead of being lost.
    if (this.loading) {
      await this.loaded;
      if (!this.ready) {
        if (!this.draft.trim()) {
          this.setDraft(trimmed);
          this.host.requestUpdate();
        }
        return;
      }
    }
    if (!this.client || !this.config || this.busy) return;
    if (this.draft.trim() === trimmed) this.setDraft('');
    const user = userMessage(trimmed, imageUrl, new Date().toISOString());
    this.messages = [...this.messages, user];
    await this.runTurn(user);
  }

  /** @internal Sends a user message already in the log (again). */
  async runTurn(user: ChatMessage): Promise<void> {
    const client = this.client;
    const config = this.config;
    if (!client || !config) return;
    this.notice = null;
    this.starters = [];
    this.unsent = null;
    this.online.stop();

    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      // Keep the message in the log, marked as waiting; it goes out when the browser is back.
      user.state = 'queued';
      this.unsent = user;
      this.notice = { kind: 'offline', details: [], retry: 'send' };
      this.status = 'error';
      this.online.wait();
      this.host.requestUpdate();
      return;
    }
    user.state = 'done';
    this.status = 'connecting';
    this.host.requestUpdate();
    let turns: Turns;
    try {
      turns = await this.useTurns();
    } catch (error) {
      // As a turn the service did not take: the text goes back to the composer, Retry sends it.
      this.messages = this.messages.filter((m) => m !== user);
      this.unsent = user;
      this.restoreDraft(user.text);
      return this.fail(error, 'send');
    }
    await turns.send(user, config);
  }

  stop(): void {
    this.turns?.stop();
  }

  /** The notice's action: resend what failed, or reload the conversation. */
  retry(): void {
    const action: RetryAction = this.notice?.retry ?? null;
    const unsent = this.unsent;
    if (action === 'send' && unsent) {
      // A message the service refused went back to the composer; an offline one is still
      // in the log. Either way the same message goes out once more.
      if (!this.messages.includes(unsent)) {
        if (this.draft.trim() === unsent.text) this.setDraft('');
        this.messages = [...this.messages, unsent];
      }
      void this.runTurn(unsent);
    } else if (action === 'load') {
      void this.load();
    }
  }

  dismissNotice(): void {
    this.notice = null;
    if (this.status === 'error') this.status = 'idle';
    this.host.requestUpdate();
  }

  /** Starts over: the next message creates a new thread. */
  newThread(): void {
    this.turns?.stop();
    this.notice = null;
    this.unsent = null;
    this.online.stop();
    this.threads.move(null, 'reset');
    this.reset();
  }

  switchThread(threadId: string, reason: ThreadReason): void {
    this.turns?.stop();
    this.threads.move(threadId, reason);
    this.reset();
  }

  /** @internal The thread in use changed: its draft, then its transcript. */
  reset(): void {
    this.messages = [];
    this.draft = this.threads.saved?.draftOf(this.threadId) ?? '';
    void this.load();
  }

  /** Listens to what the other tabs of the scope write (persist="local" shares one conversation). */
  private watchTabs(): void {
    this.unwatch?.();
    // Followed by code that comes with the turns' chunk: a page alone never needs it.
    this.unwatch =
      this.threads.saved?.watch((state) =>
        this.useTurns().then(
          (turns) => turns.followTab(state),
          () => undefined,
        ),
      ) ?? null;
  }

  /** The stored thread is gone from the service (404): said once; the next message starts a new one. */
  /** @internal */
  threadGone(): void {
    this.threads.forget();
    this.notice = { kind: 'thread-gone', details: [], retry: null };
  }

  /** The alternatives for one turn (its index among user messages) of the viewed thread. */
  branchAt(turn: number): BranchPosition | null {
    return this.threads.branchAt(turn);
  }

  /** Shows another alternative of a turn: that thread's transcript. */
  showBranch(threadId: string): void {
    if (threadId !== this.threadId) this.switchThread(threadId, 'switched');
  }

  removeFromHistory(threadId: string): void {
    this.threads.remove(threadId);
    this.host.requestUpdate();
  }

  /** @internal Gives text back to the composer, beside what is there. */
  restoreDraft(text: string): void {
    const current = this.draft.trim();
    this.setDraft(!current ? text : current === text ? this.draft : `${text}\n${this.draft}`);
  }

  /** @internal A failure becomes a notice and `agent-chat-error`. */
  fail(error: unknown, retry: RetryAction): void {
    const apiError = isApiError(error)
      ? error
      : new ApiError({ kind: 'protocol', message: error instanceof Error ? error.message : String(error) });
    this.notice = noticeFor(apiError, retry);
    this.status = 'error';
    emit(this.host, 'agent-chat-error', errorDetail(apiError));
    if (this.notice.kind === 'offline' || this.notice.kind === 'network') this.online.wait();
  }
}
