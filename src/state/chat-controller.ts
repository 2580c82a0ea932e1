import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import type { AgentClient } from '../client/client.js';
import { ApiError, chunkError, isApiError } from '../client/errors.js';
import { isHexId, isObject } from '../client/types.js';
import { emit, type ThreadReason } from '../events.js';
import { addEnglish } from '../i18n/index.js';
import type { BranchEvent } from './branches.js';
import type { HistoryEntry } from './history.js';
import { type ChatMessage, fillPlaceholders, fromTranscript, userMessage } from './messages.js';
import { type Notice, type RetryAction, developerNote, errorDetail, noticeFor } from './notice.js';
import { OnlineWaiter, offline } from './online.js';
import { type FetchedConversation, createClient, fetchConversation } from './requests.js';
import type { TurnHost } from './scene.js';
import { scopeOf } from './storage.js';
import {
  type ConversationState,
  ConversationStore,
  appendUser,
  clear,
  disconnected,
  dismissNotice,
  editDraft,
  endTurn,
  fail,
  inform,
  loading,
  queue,
  restore,
  startTurn,
  withdraw,
} from './store.js';
import { Threads } from './threads.js';
import type { ConversationCode } from './code.js';
import { warnOnce } from '../warn.js';
import type { Turns } from './turns.js';
import type { ChatConfig, ChatStatus } from './types.js';

export type { ChatConfig, ChatStatus, ThreadReason };

type Host = ReactiveControllerHost & HTMLElement;

/** What the controller is built with: its lazy code and, in Node tests, a fake client. */
export interface ChatDependencies {
  readonly code: ConversationCode;
  createClient?(config: ChatConfig, scope: string, userId: () => string, code: ConversationCode): AgentClient;
}

/**
 * The conversation's effects: loading it, sending a question, retrying, moving between
 * threads, and what the page and the other tabs keep of it. Its state lives in the store
 * (store.ts), which only this controller and the turns (a chunk) change, through named
 * transitions; the element reads `state` in `render()` and forwards user actions here.
 * Every request has its own AbortController; all of them end when the host disconnects.
 */
export class ChatController implements ReactiveController, TurnHost {
  /** The one owner of what the conversation shows (store.ts). */
  readonly store = new ConversationStore();
  /** The service of the current configuration. */
  client: AgentClient | null = null;
  /** The thread in use and what this browser keeps of its threads. */
  readonly threads: Threads;
  config: ChatConfig | null = null;
  /** The turns (send, resume, rerun), once their chunk is here (`useTurns()`). */
  private __turns: Turns | null = null;
  private __loading: AbortController | null = null;
  /** Settles when the latest `load()` has (successfully or not). */
  private __loaded: Promise<void> = Promise.resolve();
  /** Offline failures retry by themselves once the browser is back online. */
  private readonly __online = new OnlineWaiter(() => {
    if (this.state.notice?.retry) this.retry();
  });
  /**
   * Whether the service may be called. A launcher that was never opened calls nothing
   * (docs/architecture.md "Shell and panel"): the panel activates the conversation when it
   * is about to show, when a turn is sent, or when stored state says a reply is pending.
   */
  private __active = false;
  /** The reason of a load asked for before activation (`undefined`: none asked for). */
  private __deferred: ThreadReason | null | undefined;
  /** Stops listening to the other tabs' writes. */
  private __unwatch: (() => void) | null = null;
  /**
   * A question out of the composer whose turn is not stored yet (it waits for the turns'
   * code, the tab's lock): the stored draft keeps it meanwhile, so a reload finds it there.
   */
  private __outgoing: string | null = null;
  /** The questions whose sends wait for a load: the same one again (Enter pressed twice) is that send. */
  private readonly __early = new Set<string>();
  /**
   * While a load reads the conversation: the turns other tabs had stored meanwhile (their
   * `startedAt`), as read when the read began and as heard of since (`watchTabs`).
   */
  private __overlapping: Set<number> | null = null;

  constructor(
    readonly host: Host,
    private readonly __deps: ChatDependencies,
  ) {
    this.threads = new Threads(host);
    host.addController(this);
  }

  /** What the conversation shows now (read-only; the store's transitions change it). */
  get state(): ConversationState {
    return this.store.state;
  }

  get messages(): readonly ChatMessage[] {
    return this.store.state.messages;
  }

  get status(): ChatStatus {
    return this.store.state.status;
  }

  /** The thread in use; null before the first message of a new conversation. */
  get threadId(): string | null {
    return this.threads.id;
  }

  hostConnected(): void {
    this.__watchTabs();
    // Reconnecting after a move in the DOM: reload what the disconnect aborted.
    if (this.__active && this.config && !this.state.ready && !this.__loading) void this.load();
  }

  /** Lets the conversation call the service, and loads it if that was held back. */
  activate(): void {
    if (this.__active) return;
    this.__active = true;
    const reason = this.__deferred;
    this.__deferred = undefined;
    if (this.config && !this.state.ready) void this.load(reason ?? null);
  }

  hostDisconnected(): void {
    this.__unwatch?.();
    this.__unwatch = null;
    this.__turns?.leave();
    this.client?.close();
    this.__loading?.abort();
    this.__loading = null;
    this.__online.stop();
    this.store.apply(disconnected);
  }

  /** Loading or in a turn: a rerun waits. */
  get busy(): boolean {
    const { status } = this.state;
    return status === 'connecting' || status === 'streaming' || status === 'reconnecting';
  }

  /**
   * A reply is under way (a turn, or one a page before left running that recovery picks up):
   * the composer offers Stop, not Send. A load is not one: a send waits for it (`send`).
   */
  get replying(): boolean {
    return this.turnRunning || (this.busy && !this.__loading);
  }

  /** A turn (send, retry, rerun, resume, another tab's) is under way; loading a conversation is not one. */
  get turnRunning(): boolean {
    return this.state.turn !== null;
  }

  /** Threads this browser has had with this agent, newest first (the history chunk groups them into conversations). */
  get history(): readonly HistoryEntry[] {
    return this.threads.history;
  }

  /** How reruns made threads of threads (src/state/branches.ts). */
  get branches(): readonly BranchEvent[] {
    return this.threads.branches;
  }

  get currentUserId(): string {
    return this.threads.userId;
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
      previous.persist !== config.persist ||
      // What the transcript shows depends on it too: read again with the new limit.
      previous.maxReplyLength !== config.maxReplyLength;

    if (scopeChanged) {
      const scope = scopeOf(config);
      this.client = (this.__deps.createClient ?? createClient)(config, scope, () => this.threads.visitor, this.__deps.code);
      this.store.apply(editDraft, this.threads.open(config) || this.state.draft);
      if (this.host.isConnected) this.__watchTabs();
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
    if (!this.__active) {
      // Held until activate(); the last load asked for is the one made (a switch meanwhile
      // has reported itself, and must not be reported again as 'restored').
      this.__deferred = reason;
      return Promise.resolve();
    }
    this.__loaded = this.__loadThread(reason);
    return this.__loaded;
  }

  private async __loadThread(reason: ThreadReason | null): Promise<void> {
    const client = this.client;
    if (!client || !this.config) return;
    this.__loading?.abort();
    const controller = (this.__loading = new AbortController());
    const { signal } = controller;
    // An id that is not one (a stored state another version or a person wrote) is let go
    // first: what `loading` tells the subscribers (they fetch for a thread on its way) is the
    // thread the load asks for.
    const threadId = this.threadId && isHexId(this.threadId) ? this.threadId : null;
    if (this.threadId && !threadId) this.threads.forget();
    this.store.apply(loading);

    try {
      const [loaded, running] = await this.__fetchWithTurn(client, threadId, signal);
      const messages = loaded.transcript ? fromTranscript(loaded.transcript) : [];
      if (loaded.transcript) {
        if (reason) this.threads.announce(threadId, null, reason);
        if (this.threads.history.some((e) => e.id === threadId)) this.threads.touch(messages, messages.at(-1)?.createdAt);
      }
      // A rerun running when the page went has been answered or not: the transcript shows.
      if (!this.turnRunning) this.threads.saved?.set('pending', null);
      // A turn a page before left running (or another tab runs): the turns check and resume (or mirror) it.
      this.store.apply(restore, fillPlaceholders(loaded.welcome, this.config.agentVariables?.static), messages, loaded.starters, !!running);
      if (loaded.unknownThread) this.threadGone();
      emit(this.host, 'agent-chat-ready', { threadId: this.threadId });
      // Cannot fetch the turns' code: the turn stays stored for the next page; the transcript shows.
      if (running) {
        this.useTurns().then(
          (turns) => turns.recover(running, loaded.transcript ?? []),
          () => this.store.apply(endTurn),
        );
      }
    } catch (error) {
      if (signal.aborted) return;
      this.fail(error, 'load');
    } finally {
      if (this.__loading === controller) {
        this.__loading = null;
        this.__overlapping = null;
      }
    }
  }

  /**
   * The conversation as the service has it, and the turn stored beside it (none while a turn
   * runs here). The two are read one after the other, and a service records a turn when it
   * ends: another tab's turn that was stored while the transcript was read, and is over when
   * storage is read, may be in neither. The `storage` events of that turn came while this
   * load was under way, when a tab does not follow them (Turns.followTab), so nothing would
   * show it: a launcher opened mid-turn showed the conversation without it, in CI. The
   * transcript is read again then, after that turn's end (its tab clears the turn once the
   * service's answer is complete, so a finished turn is recorded by then), once for each
   * turn that ended so.
   */
  private async __fetchWithTurn(client: AgentClient, id: string | null, signal: AbortSignal): Promise<[FetchedConversation, unknown]> {
    const over = new Set<number>();
    for (;;) {
      const overlapping = (this.__overlapping = new Set<number>());
      const before = startOf(this.threads.saved?.current().turn);
      if (before !== null) overlapping.add(before);
      const loaded = await fetchConversation(client, id, this.config?.suggestionContext, signal);
      const running = this.turnRunning ? undefined : this.threads.saved?.current().turn;
      const ended = [...overlapping].filter((start) => start !== startOf(running) && !over.has(start));
      if (this.turnRunning || !ended.length) return [loaded, running];
      for (const start of ended) over.add(start);
    }
  }

  /** The reader is about to write: fetch what a streamed turn runs on, while they type (not offline: a failed fetch costs retries). */
  prefetchTurn(): void {
    if (offline()) return;
    this.useTurns().catch(() => undefined);
    if (this.config?.transport !== 'rest') this.client?.prefetchStreaming();
  }

  /**
   * The turns, from a chunk fetched when the reader focuses the text field or a turn
   * starts (pages that only show a conversation never need it). Rejects with a `chunk`
   * ApiError when it cannot be fetched or does not run; a later need tries again
   * (src/lazy.ts), and the reader's Retry at once.
   */
  async useTurns(): Promise<Turns> {
    const { Turns, strings } = await this.__deps.code.turns().catch((e: unknown) => {
      throw chunkError(e);
    });
    if (!this.__turns) addEnglish(strings);
    return (this.__turns ??= new Turns(this, this.__deps.code.recovery));
  }

  /** The reader typed: kept in the store and, per `persist`, for the next page (after a question on its way out). */
  setDraft(text: string): void {
    this.store.apply(editDraft, text);
    this.threads.saved?.draft(this.threadId, this.__outgoing ? this.draftWith(this.__outgoing) : text);
  }

  /**
   * The question `text` leaves the composer, which keeps `rest`. Storage keeps it in the
   * draft until the turn is stored with it (then `holdOutgoing(null)`, Turns.run): a reload before
   * its request can have gone finds it in the composer (docs/protocol.md "A send and a reload").
   */
  holdOutgoing(text: string | null, rest: string): void {
    if (!(text ?? this.__outgoing)) return;
    this.__outgoing = text;
    this.setDraft(rest);
  }

  /**
   * Sends one question (`agent-chat-send` first, which the host may cancel). Resolves when
   * the turn has ended, however it ended; failures become a notice (and
   * `agent-chat-error`), never a rejection the host must catch.
   */
  async send(text: string, imageUrl?: string, host = false): Promise<void> {
    const trimmed = text.trim();
    // While a turn runs, nothing is sent.
    if (!trimmed || this.turnRunning || this.__early.has(trimmed)) return;
    // The page's calls are limited (src/state/host-sends.ts, with the turns' chunk, which a
    // send needs anyway). When it cannot load, the send goes on and fails as the reader's would.
    if (host && (await this.useTurns().catch(() => null))?.hostSends.allow() === false) return;
    if (!emit(this.host, 'agent-chat-send', { text: trimmed, threadId: this.threadId, imageUrl: imageUrl ?? null }, true)) return;
    this.activate();
    // Sent while the conversation loads (the page's send() at once, the reader's Enter): wait,
    // or the restored transcript would replace it; also for a load of this thread that replaced
    // it (new credentials). A failed load keeps the text as the draft, beside its notice.
    if (this.__loading) {
      const thread = this.threadId;
      this.__early.add(trimmed);
      // (`loaded` never rejects: a load's failure is its notice.)
      while (this.__loading && this.threadId === thread) await this.__loaded;
      this.__early.delete(trimmed);
      if (!this.state.ready) {
        if (!this.state.draft.trim()) this.setDraft(trimmed);
        return;
      }
    }
    if (!this.client || !this.config || this.busy) return;
    if (this.state.draft.trim() === trimmed) this.holdOutgoing(trimmed, '');
    const user = userMessage(trimmed, imageUrl, new Date().toISOString());
    this.store.apply(appendUser, user);
    await this.ask(user);
  }

  /** Asks the service the question `user`, which is in the log (again, after a failure). */
  async ask(user: ChatMessage): Promise<void> {
    if (!this.client || !this.config) return;
    this.__online.stop();
    if (offline()) {
      // Keeps the question in the log, marked as waiting; it goes out when the browser is back.
      this.store.apply(queue, user, { kind: 'offline', details: [], retry: 'send' });
      this.__online.wait();
      return;
    }
    this.store.apply(startTurn, user.key);
    let turns: Turns;
    try {
      turns = await this.useTurns();
    } catch (error) {
      // As a turn the service did not take: the text goes back to the composer, Retry sends it.
      return this.withdraw(user, null, error, 'send');
    }
    await turns.send(user);
  }

  stop(): void {
    this.__turns?.stop();
  }

  /** The notice's action: resend what failed, or reload the conversation. */
  retry(): void {
    const { notice, unsent, messages } = this.state;
    // Code that did not load is asked for again at once (not after its pause): the resend joins it.
    const { turns, stream, websocket } = this.__deps.code;
    if (notice?.kind === 'chunk') for (const code of [turns, stream, websocket]) if (code.failed) code.retry().catch(() => undefined);
    if (notice?.retry === 'send' && unsent) {
      // An offline question is still in the log and goes out as it is; one the service did not
      // take went back to the composer, and the turns take it out again (Turns.resend).
      if (messages.some((m) => m.key === unsent.key)) void this.ask(unsent);
      else
        this.useTurns().then(
          (turns) => turns.resend(unsent),
          (error: unknown) => this.fail(error, 'send'),
        );
    } else if (notice?.retry === 'load') {
      void this.load();
    }
  }

  dismissNotice(): void {
    this.store.apply(dismissNotice);
  }

  /** Starts over: the next message creates a new thread. */
  newThread(): void {
    this.__turns?.stop();
    this.__online.stop();
    this.threads.move(null, 'reset');
    this.reset();
  }

  switchThread(threadId: string, reason: ThreadReason): void {
    this.__turns?.stop();
    this.threads.move(threadId, reason);
    this.reset();
  }

  /** The thread in use changed: its draft, then its transcript. */
  reset(): void {
    this.store.apply(clear, this.threads.saved?.draftOf(this.threadId) ?? '');
    void this.load();
  }

  /** Listens to what the other tabs of the scope write (persist="local" shares one conversation). */
  private __watchTabs(): void {
    this.__unwatch?.();
    // Followed by code that comes with the turns' chunk: a page alone never needs it. A turn
    // heard of while a load is under way is the load's to check (`fetchWithTurn`).
    this.__unwatch = this.threads.watch((state) => {
      const start = startOf(state.turn);
      if (start !== null) this.__overlapping?.add(start);
      this.useTurns().then(
        (turns) => turns.followTab(state),
        () => undefined,
      );
    });
  }

  /** Shows another alternative of a turn: that thread's transcript. */
  showBranch(threadId: string): void {
    if (threadId !== this.threadId) this.switchThread(threadId, 'switched');
  }

  /** The composer's text with `text` given back (beside what is there): what a failed turn returns. */
  draftWith(text: string): string {
    const { draft } = this.state;
    const current = draft.trim();
    return !current ? text : current === text ? draft : `${text}\n${draft}`;
  }

  /**
   * The turn of `user` (and its `reply`, if it had one) was not taken by the service, or
   * may not have been: out of the log, its text back in the composer, the failure said.
   */
  withdraw(user: ChatMessage, reply: string | null, error: unknown, retry: RetryAction): void {
    const draft = this.draftWith(user.text);
    this.__outgoing = null;
    this.threads.saved?.draft(this.threadId, draft);
    this.store.apply(withdraw, user, reply, draft, this.noticeOf(error, retry));
  }

  /** A failure becomes a notice and `agent-chat-error`. */
  fail(error: unknown, retry: RetryAction): void {
    this.store.apply(fail, this.noticeOf(error, retry));
  }

  /** The notice for `error`, reported to the host (`agent-chat-error`); offline failures retry once online. */
  noticeOf(error: unknown, retry: RetryAction): Notice {
    const apiError = isApiError(error)
      ? error
      : new ApiError({ kind: 'protocol', message: error instanceof Error ? error.message : String(error) });
    const notice = noticeFor(apiError, retry);
    emit(this.host, 'agent-chat-error', errorDetail(apiError));
    // The visitor reads that the assistant failed; the developer reads the service's own words.
    const note = developerNote(apiError, notice.kind);
    if (note) warnOnce(note, apiError.requestId ?? undefined);
    if (notice.kind === 'offline' || notice.kind === 'network') this.__online.wait();
    return notice;
  }

  /** The stored thread is gone from the service (404): said once; the next message starts a new one. */
  threadGone(): void {
    this.threads.forget();
    this.store.apply(inform, THREAD_GONE);
  }
}

/** A stored turn's start, which tells it from another (unchecked here: the turns' chunk reads it whole). */
const startOf = (turn: unknown): number | null => (isObject(turn) && typeof turn.startedAt === 'number' ? turn.startedAt : null);

/** Not an error of the reader's: the stored conversation is gone from the service. */
const THREAD_GONE: Notice = { kind: 'thread-gone', details: [], retry: null };
