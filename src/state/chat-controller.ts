import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import type { AgentClient } from '../client/client.js';
import { ApiError, isApiError } from '../client/errors.js';
import { rerunBody, turnBody } from '../client/bodies.js';
import type { Message } from '../client/types.js';
import { isHexId } from '../client/types.js';
import { type ChatMessage, emptyReply, fillPlaceholders, fromTranscript, fromWire, localKey, userMessageIndex } from './messages.js';
import type { BranchPosition } from './branches.js';
import type { HistoryEntry } from './history.js';
import { Saved } from './saved.js';
import { type Notice, type RetryAction, errorDetail, noticeFor } from './notice.js';
import { emit, type ThreadReason } from '../events.js';
import { OnlineWaiter } from './online.js';
import { scopeOf } from './storage.js';
import type { ChatConfig, ChatStatus } from './types.js';
import { createClient, deliverTurn, fetchConversation } from './requests.js';

export type { ChatConfig, ChatStatus, ThreadReason };

type Host = ReactiveControllerHost & HTMLElement;

/**
 * Owns the conversation: loading, the running turn and its stream, errors and persistence.
 * The element reads its fields in `render()` and forwards user actions to its methods.
 * Every request has its own AbortController; all of them end when the host disconnects.
 */
export class ChatController implements ReactiveController {
  status: ChatStatus = 'idle';
  messages: ChatMessage[] = [];
  welcome = '';
  /** Starter suggestions, shown before the first message. */
  starters: string[] = [];
  notice: Notice | null = null;
  threadId: string | null = null;
  /** The composer's text; kept here so no failure can lose it. */
  draft = '';
  /** True once welcome or transcript have been loaded for the current configuration. */
  ready = false;

  private client: AgentClient | null = null;
  /** What this browser keeps of the conversation (thread, draft, history, branches). */
  private saved: Saved | null = null;
  private config: ChatConfig | null = null;
  private userId = '';
  private turn: AbortController | null = null;
  private loading: AbortController | null = null;
  /** Settles when the latest `load()` has (successfully or not). */
  private loaded: Promise<void> = Promise.resolve();
  private frame = 0;
  /** Offline failures retry by themselves once the browser is back online. */
  private readonly online = new OnlineWaiter(() => {
    if (this.notice?.retry) this.retry();
  });
  /** The text of a send that has not reached the service yet (offline, or failed). */
  private unsent: ChatMessage | null = null;
  /**
   * Whether the service may be called. A launcher that was never opened calls nothing
   * (docs/architecture.md "Shell and panel"): the panel activates the conversation when it
   * is about to show, when a turn is sent, or when stored state says a reply is pending.
   */
  private active = false;
  /** The reason of a load asked for before activation (`undefined`: none asked for). */
  private deferred: ThreadReason | null | undefined;

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {
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
    this.turn?.abort();
    this.loading?.abort();
    this.turn = this.loading = null;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.online.stop();
    if (this.status !== 'idle') this.status = 'idle';
    this.ready = false;
  }

  get busy(): boolean {
    return this.status === 'connecting' || this.status === 'streaming' || this.status === 'reconnecting';
  }

  /** A turn (send, retry, rerun) is under way; loading a conversation is not one. */
  get turnRunning(): boolean {
    return this.turn !== null;
  }

  /** Threads this browser has had with this agent, newest first. */
  get history(): readonly HistoryEntry[] {
    return this.saved?.history ?? [];
  }

  get currentUserId(): string {
    return this.userId;
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
      const saved = (this.saved = new Saved(config.persist, scope));
      this.draft = typeof saved.initial.draft === 'string' ? saved.initial.draft : this.draft;
      this.userId = saved.userId(config.userId);
      this.threadId = config.threadId ?? (typeof saved.initial.threadId === 'string' ? saved.initial.threadId : null);
      void this.load(config.threadId ? 'switched' : 'restored');
      return;
    }

    if (config.userId && config.userId !== this.userId) this.userId = config.userId;
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
    if (this.threadId && !threadId) this.forgetThread();

    try {
      const loaded = await fetchConversation(client, threadId, this.config.suggestionContext, signal);
      this.welcome = fillPlaceholders(loaded.welcome, this.config.agentVariables?.static);
      if (loaded.unknownThread) this.forgetThread();
      this.messages = loaded.transcript ? fromTranscript(loaded.transcript) : [];
      this.starters = loaded.starters;
      if (loaded.transcript) {
        if (reason) this.emitThread(threadId, null, reason);
        if (this.history.some((e) => e.id === threadId)) this.recordActivity(this.messages.at(-1)?.createdAt);
      }
      this.status = 'idle';
      this.ready = true;
      // What was running when the page went has been answered or not: the transcript shows.
      if (!this.turn) this.saved?.pending(false);
      emit(this.host, 'agent-chat-ready', { threadId: this.threadId });
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
    if (this.config?.transport !== 'rest') this.client?.prefetchStreaming();
  }

  setDraft(text: string): void {
    this.draft = text;
    this.saved?.draft(text);
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
    const user: ChatMessage = { key: localKey('user'), role: 'user', text: trimmed, cards: [], suggestions: [], createdAt: new Date().toISOString(), imageUrl, state: 'done' };
    this.messages = [...this.messages, user];
    await this.runTurn(user);
  }

  private async runTurn(user: ChatMessage): Promise<void> {
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

    const reply = emptyReply();
    this.messages = [...this.messages, reply];
    const controller = this.beginTurn();
    const { signal } = controller;

    const body = turnBody({ text: user.text, userId: this.userId, threadId: this.threadId, imageUrl: user.imageUrl, agentVariables: config.agentVariables });

    let accepted = false;
    try {
      const final = await deliverTurn(client, config.transport, body, signal, {
        onThread: (id) => {
          accepted = true;
          this.adoptThread(id);
        },
        onToken: (delta) => {
          reply.text += delta;
          if (this.status === 'streaming') return this.scheduleUpdate();
          this.status = 'streaming';
          this.host.requestUpdate();
        },
        onReconnecting: () => this.setStatus('reconnecting'),
      });
      this.complete(reply, user, final);
    } catch (error) {
      const remove = (...gone: ChatMessage[]) => (this.messages = this.messages.filter((m) => !gone.includes(m)));
      if (signal.aborted) {
        reply.state = 'stopped';
        this.status = 'idle';
        if (!reply.text) remove(reply);
      } else if (!accepted) {
        // The service did not take the turn, or may have: take it back out of the log and
        // give the text back to the composer, so nothing the reader typed is lost. If it may
        // be running, Retry reloads the thread (where it shows if it ran) rather than
        // sending it a second time; in a new conversation there is nothing to reload.
        remove(reply, user);
        this.unsent = user;
        this.restoreDraft(user.text);
        this.fail(error, isApiError(error) && error.mayHaveRun && this.threadId ? 'load' : 'send');
      } else {
        reply.state = 'interrupted';
        if (!reply.text) remove(reply);
        // The turn exists on the service and may have finished there: retry reloads it.
        this.fail(error, 'load');
      }
    } finally {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.endTurn(controller);
    }
  }

  private complete(reply: ChatMessage, user: ChatMessage, final: Message | null): void {
    if (final) {
      const settled = fromWire(final, 0);
      Object.assign(reply, settled, { key: reply.key, role: 'agent', state: 'done' });
      // The user message of a turn carries the interaction id too (edit needs it).
      user.id ??= final.id;
    } else {
      reply.state = 'done';
    }
    this.messages = [...this.messages];
    this.status = 'idle';
    this.recordActivity();
    const message: Message = final ?? { id: reply.id ?? '', text: reply.text, sender: { type: 'agent' }, cards: [] };
    emit(this.host, 'agent-chat-message', { message, threadId: this.threadId });
  }

  stop(): void {
    this.turn?.abort();
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
    this.setStatus(this.status === 'error' ? 'idle' : this.status);
  }

  private setStatus(status: ChatStatus): void {
    this.status = status;
    this.host.requestUpdate();
  }

  /** Starts over: the next message creates a new thread. */
  newThread(): void {
    const previous = this.threadId;
    this.turn?.abort();
    this.forgetThread();
    this.messages = [];
    this.notice = null;
    this.unsent = null;
    this.online.stop();
    this.emitThread(null, previous, 'reset');
    void this.load();
  }

  switchThread(threadId: string, reason: ThreadReason): void {
    const previous = this.threadId;
    this.turn?.abort();
    this.threadId = threadId;
    this.saved?.thread(threadId);
    this.messages = [];
    this.emitThread(threadId, previous, reason);
    void this.load();
  }

  private adoptThread(threadId: string): void {
    // The client only passes ids it checked; a thread id is a storage key and a URL part.
    if (threadId === this.threadId || !isHexId(threadId)) return;
    const previous = this.threadId;
    this.threadId = threadId;
    this.saved?.thread(threadId);
    this.emitThread(threadId, previous, 'created');
  }

  /** The alternatives for one turn (its index among user messages) of the viewed thread. */
  branchAt(turn: number): BranchPosition | null {
    return this.threadId ? (this.saved?.branchAt(this.threadId, turn) ?? null) : null;
  }

  /**
   * Regenerates the reply of turn `turn` (`replyId` is its interaction id), or re-asks it
   * with edited text. The service answers with a NEW thread branched from this one; the
   * view switches to it and the relation is kept for the branch navigator.
   */
  async rerun(turn: number, replyId: string, text: string): Promise<void> {
    const client = this.client;
    const source = this.threadId;
    const trimmed = text.trim();
    if (!client || !source || !trimmed || this.busy) return;
    const userIndex = userMessageIndex(this.messages, turn);
    if (userIndex < 0) return;
    const before = this.messages;
    const user: ChatMessage = { ...before[userIndex]!, key: localKey('user'), text: trimmed, id: undefined };
    const reply = emptyReply();
    this.messages = [...before.slice(0, userIndex), user, reply];
    this.notice = null;
    const controller = this.beginTurn();
    try {
      const response = await client.rerun(
        source,
        rerunBody({ replyId, text: trimmed, userId: this.userId, imageUrl: user.imageUrl, versionId: this.config?.versionId, versionTag: this.config?.versionTag }),
        { signal: controller.signal },
      );
      this.threadId = response.thread_id;
      this.saved?.branch(source, turn, response.thread_id);
      this.emitThread(response.thread_id, source, 'rerun');
      this.complete(reply, user, response.message);
    } catch (error) {
      this.messages = before;
      if (controller.signal.aborted) {
        this.status = 'idle';
      } else {
        // An edit that did not go through is the reader's text: keep it in the composer.
        if (trimmed !== before[userIndex]!.text) this.restoreDraft(trimmed);
        this.fail(error, null);
      }
    } finally {
      this.endTurn(controller);
    }
  }

  /**
   * A turn starts: its own AbortController, and `pending` stored so that a reload (or
   * another page of the site) loads the conversation at once (the shell reads it).
   */
  private beginTurn(): AbortController {
    const controller = (this.turn = new AbortController());
    this.status = 'connecting';
    this.saved?.pending(true);
    this.host.requestUpdate();
    return controller;
  }

  private endTurn(controller: AbortController): void {
    if (this.turn === controller) this.turn = null;
    if (!this.turn) this.saved?.pending(false);
    this.host.requestUpdate();
  }

  /** Shows another alternative of a turn: that thread's transcript. */
  showBranch(threadId: string): void {
    if (threadId !== this.threadId) this.switchThread(threadId, 'switched');
  }

  removeFromHistory(threadId: string): void {
    this.saved?.forget(threadId);
    this.host.requestUpdate();
  }

  private recordActivity(at?: string): void {
    const threadId = this.threadId;
    const first = this.messages.find((m) => m.role === 'user');
    if (threadId && first) this.saved?.touch(threadId, first.text, at);
  }

  private forgetThread(): void {
    this.threadId = null;
    this.saved?.thread(null);
  }

  private restoreDraft(text: string): void {
    const current = this.draft.trim();
    this.setDraft(!current ? text : current === text ? this.draft : `${text}\n${this.draft}`);
  }

  private fail(error: unknown, retry: RetryAction): void {
    const apiError = isApiError(error)
      ? error
      : new ApiError({ kind: 'protocol', message: error instanceof Error ? error.message : String(error) });
    this.notice = noticeFor(apiError, retry);
    this.status = 'error';
    emit(this.host, 'agent-chat-error', errorDetail(apiError));
    if (this.notice.kind === 'offline' || this.notice.kind === 'network') this.online.wait();
  }

  /** Tokens arrive faster than frames: one render per animation frame is enough. */
  private scheduleUpdate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.host.requestUpdate();
    });
  }

  private emitThread(threadId: string | null, previousThreadId: string | null, reason: ThreadReason): void {
    emit(this.host, 'agent-chat-thread', { threadId, previousThreadId, reason });
  }
}
