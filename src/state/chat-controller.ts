import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { AgentClient } from '../client/client.js';
import { ApiError, isApiError } from '../client/errors.js';
import { rerunBody, turnBody } from '../client/bodies.js';
import type { AgentVariables, Message } from '../client/types.js';
import { isHexId } from '../client/types.js';
import {
  type ChatMessage,
  fillPlaceholders,
  fromTranscript,
  fromWire,
  localKey,
} from './messages.js';
import { type BranchEvent, type BranchPosition, addBranch, branchPosition } from './branches.js';
import { type HistoryEntry, remove as removeEntry, touch } from './history.js';
import { type Notice, type RetryAction, errorDetail, noticeFor } from './notice.js';
import { emit, type ThreadReason } from '../events.js';
import { OnlineWaiter } from './online.js';
import { type PersistMode, type ThreadStorage, anonymousUserId, createStorage, scopeOf, sessionTokenCache } from './storage.js';

/** CONTRACT.md's status union; `render()` branches on it, never on loose flags. */
export type ChatStatus = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'error';

export type { ThreadReason };

export interface ChatConfig {
  baseUrl: string;
  publishableKey?: string;
  accessToken?: string;
  tokenProvider?: () => Promise<string>;
  userId?: string;
  threadId?: string;
  transport: 'sse' | 'rest' | 'websocket';
  agentVariables?: AgentVariables;
  persist: PersistMode;
  suggestionContext?: Record<string, unknown>;
  /** Pin reruns to an agent version (preview use). */
  versionId?: string;
  versionTag?: string;
}

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
  /** Threads this browser has had with this agent, newest first. */
  history: HistoryEntry[] = [];
  private branches: BranchEvent[] = [];

  private client: AgentClient | null = null;
  private storage: ThreadStorage | null = null;
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

  get activated(): boolean {
    return this.active;
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
      this.client = new AgentClient({
        baseUrl: config.baseUrl,
        publishableKey: config.publishableKey,
        accessToken: config.accessToken,
        tokenProvider: config.tokenProvider,
        // Only exchanged tokens are kept (the client checks), and only where the host lets
        // the widget keep anything.
        tokenCache: config.persist === 'none' ? undefined : sessionTokenCache(scope),
      });
      this.storage = createStorage(config.persist, scope);
      const saved = this.storage.read();
      this.draft = saved.draft ?? this.draft;
      this.history = Array.isArray(saved.history) ? saved.history : [];
      this.branches = Array.isArray(saved.branches) ? saved.branches : [];
      this.userId = config.userId || saved.userId || anonymousUserId();
      if (!config.userId && saved.userId !== this.userId) this.storage.write({ userId: this.userId });
      this.threadId = config.threadId ?? saved.threadId ?? null;
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
      // Held until activate(); the first reason asked for is the one reported then.
      this.deferred ??= reason;
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
      const [welcome, transcript] = await Promise.all([
        client.welcomeMessage({ signal }),
        threadId ? this.fetchTranscript(client, threadId, signal) : Promise.resolve(null),
      ]);
      this.welcome = fillPlaceholders(welcome, this.config.agentVariables?.static);
      if (transcript) {
        this.messages = fromTranscript(transcript);
        if (reason) this.emitThread(threadId, null, reason);
        if (this.history.some((e) => e.id === threadId)) this.recordActivity(this.messages.at(-1)?.createdAt);
      } else {
        this.messages = [];
      }
      if (this.messages.length === 0) {
        this.starters = await client.followupSuggestions(this.suggestionContext(), { signal });
      }
      this.status = 'idle';
      this.ready = true;
      // What was running when the page went has been answered or not: the transcript shows.
      if (!this.turn) this.storage?.clear(['pending']);
      emit(this.host, 'agent-chat-ready', { threadId: this.threadId });
    } catch (error) {
      if (signal.aborted) return;
      this.fail(error, 'load');
    } finally {
      if (this.loading === controller) this.loading = null;
      this.host.requestUpdate();
    }
  }

  /** A stored thread that the service no longer knows is not an error: start afresh. */
  private async fetchTranscript(client: AgentClient, threadId: string, signal: AbortSignal): Promise<Message[] | null> {
    try {
      return await client.transcript(threadId, { signal });
    } catch (error) {
      if (isApiError(error) && error.status === 404) {
        this.forgetThread();
        return null;
      }
      throw error;
    }
  }

  /** The reader is about to write: fetch what a streamed turn runs on, while they type. */
  prefetchTurn(): void {
    if (this.config?.transport !== 'rest') this.client?.prefetchStreaming();
  }

  setDraft(text: string): void {
    this.draft = text;
    this.storage?.write({ draft: text });
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
    const user: ChatMessage = {
      key: localKey('user'),
      role: 'user',
      text: trimmed,
      cards: [],
      suggestions: [],
      createdAt: new Date().toISOString(),
      imageUrl,
      state: 'done',
    };
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

    const reply: ChatMessage = { key: localKey('agent'), role: 'agent', text: '', cards: [], suggestions: [], state: 'streaming' };
    this.messages = [...this.messages, reply];
    const controller = (this.turn = new AbortController());
    const { signal } = controller;
    this.status = 'connecting';
    this.markPending();
    this.host.requestUpdate();

    const body = turnBody({ text: user.text, userId: this.userId, threadId: this.threadId, imageUrl: user.imageUrl, agentVariables: config.agentVariables });

    let accepted = false;
    try {
      let final: Message | null;
      if (config.transport === 'rest') {
        const response = await client.send(body, { signal });
        accepted = true;
        this.adoptThread(response.thread_id);
        final = response.message;
      } else {
        // Both transports resume a dropped connection the same way and share the handlers.
        const stream = config.transport === 'websocket' ? client.streamSocket.bind(client) : client.stream.bind(client);
        const result = await stream(
          body,
          {
            onThread: (id) => {
              accepted = true;
              this.adoptThread(id);
            },
            onToken: (delta) => {
              reply.text += delta;
              if (this.status !== 'streaming') {
                this.status = 'streaming';
                this.host.requestUpdate();
              }
              this.scheduleUpdate();
            },
            onReconnecting: () => {
              this.status = 'reconnecting';
              this.host.requestUpdate();
            },
          },
          { signal },
        );
        final = result.message;
      }
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
      if (this.turn === controller) this.turn = null;
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.clearPending();
      this.host.requestUpdate();
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
    if (this.status === 'error') this.status = 'idle';
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
    this.storage?.write({ threadId });
    this.messages = [];
    this.emitThread(threadId, previous, reason);
    void this.load();
  }

  private adoptThread(threadId: string): void {
    // The client only passes ids it checked; a thread id is a storage key and a URL part.
    if (threadId === this.threadId || !isHexId(threadId)) return;
    const previous = this.threadId;
    this.threadId = threadId;
    this.storage?.write({ threadId });
    this.emitThread(threadId, previous, 'created');
  }

  /** The alternatives for one turn (its index among user messages) of the viewed thread. */
  branchAt(turn: number): BranchPosition | null {
    return this.threadId ? branchPosition(this.branches, this.threadId, turn) : null;
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
    const userIndex = this.userMessageIndex(turn);
    if (userIndex < 0) return;
    const before = this.messages;
    const user: ChatMessage = { ...before[userIndex]!, key: localKey('user'), text: trimmed, id: undefined };
    const reply: ChatMessage = { key: localKey('agent'), role: 'agent', text: '', cards: [], suggestions: [], state: 'streaming' };
    this.messages = [...before.slice(0, userIndex), user, reply];
    this.notice = null;
    const controller = (this.turn = new AbortController());
    this.status = 'connecting';
    this.markPending();
    this.host.requestUpdate();
    try {
      const response = await client.rerun(
        source,
        rerunBody({ replyId, text: trimmed, userId: this.userId, imageUrl: user.imageUrl, versionId: this.config?.versionId, versionTag: this.config?.versionTag }),
        { signal: controller.signal },
      );
      this.branches = addBranch(this.branches, { from: source, turn, to: response.thread_id });
      this.threadId = response.thread_id;
      this.storage?.write({ threadId: response.thread_id, branches: this.branches });
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
      if (this.turn === controller) this.turn = null;
      this.clearPending();
      this.host.requestUpdate();
    }
  }

  /**
   * A turn is running: stored so that a reload (or another page of the site) loads the
   * panel and the conversation at once instead of waiting for a click (the shell reads it).
   */
  private markPending(): void {
    this.storage?.write({ pending: true });
  }

  private clearPending(): void {
    if (!this.turn) this.storage?.clear(['pending']);
  }

  /** Shows another alternative of a turn: that thread's transcript. */
  showBranch(threadId: string): void {
    if (threadId !== this.threadId) this.switchThread(threadId, 'switched');
  }

  removeFromHistory(threadId: string): void {
    this.history = removeEntry(this.history, threadId);
    this.storage?.write({ history: this.history });
    this.host.requestUpdate();
  }

  /** Position in `messages` of the user message of turn `turn`. */
  private userMessageIndex(turn: number): number {
    let seen = -1;
    return this.messages.findIndex((m) => m.role === 'user' && ++seen === turn);
  }

  private recordActivity(at?: string): void {
    const threadId = this.threadId;
    const first = this.messages.find((m) => m.role === 'user');
    if (!threadId || !first) return;
    const when = at ? new Date(at) : new Date();
    this.history = touch(this.history, threadId, first.text, Number.isNaN(when.getTime()) ? new Date() : when);
    this.storage?.write({ history: this.history });
  }

  private forgetThread(): void {
    this.threadId = null;
    this.storage?.clear(['threadId']);
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

  private suggestionContext(): Record<string, unknown> {
    const page = typeof location !== 'undefined' ? { url: location.href, title: document.title } : {};
    return { ...page, ...(this.config?.suggestionContext ?? {}) };
  }

  private emitThread(threadId: string | null, previousThreadId: string | null, reason: ThreadReason): void {
    emit(this.host, 'agent-chat-thread', { threadId, previousThreadId, reason });
  }

}
