import { ApiError, isApiError } from '../client/errors.js';
import { rerunBody, turnBody } from '../client/bodies.js';
import { isHexId, type Message } from '../client/types.js';
import { emit } from '../events.js';
import { NOT_RECEIVED, type RunningTurn, newKey, readRunningTurn } from '../continuity/running-turn.js';
import { TurnJournal } from '../continuity/journal.js';
import { TurnLink, follow, lockName, locks } from '../continuity/tabs.js';
import { Mirror, missed } from '../continuity/mirror.js';
import { type PersistedState, scopeOf } from './storage.js';
import { type ChatMessage, emptyReply, localKey, userMessageIndex } from './messages.js';
import { addBranch } from './branches.js';
import { HostSends } from './host-sends.js';
import type { TurnHost } from './scene.js';
import type { Chunk } from '../lazy.js';
import type { VersionPin } from './types.js';
import type { Notice } from './notice.js';
import { appendUser, endTurn, inform, withdraw } from './store.js';
import {
  appendDelta,
  branch,
  interrupt,
  reconnecting,
  replaceMessages,
  settle,
  startReply,
  stop,
  takeOver,
  undo,
} from './turn-transitions.js';

export { strings } from './turn-strings.js';

/**
 * The turns of a conversation, a chunk (src/chunks.ts `turns`): sending one and streaming
 * its reply, resuming one a page before this one started (`recovery`, a chunk handed in),
 * rerunning one, and showing one another tab runs (src/continuity/mirror.ts). One turn at a
 * time, each with its own AbortController; a streamed one is kept in storage as it moves
 * (TurnJournal). What the reader sees changes through the store's named transitions.
 */
export class Turns {
  private __controller: AbortController | null = null;
  /** The running turn's link to the other tabs, when it has one. */
  private __link: TurnLink | null = null;
  /** A turn another tab runs, shown here. */
  private __mirrored: Mirror | null = null;
  private __shown = 0; // when the last turn of another tab shown here began (its `startedAt`)
  /** The running streamed turn, kept in storage so the next page can resume it. */
  private readonly __journal: TurnJournal;
  /** A question of this tab's that another tab's turn beat (`lost`), while it is in the composer. */
  private __returned: { text: string; notice: Notice } | null = null;
  /** The page's send() calls (src/state/host-sends.ts). */
  readonly hostSends = new HostSends();

  constructor(
    private readonly __chat: TurnHost,
    private readonly __recovery: Chunk<typeof import('../continuity/recover.js')>,
  ) {
    this.__journal = new TurnJournal((turn) => __chat.threads.saved?.set('turn', turn));
  }

  /** A turn (send, retry, rerun, resume) is under way here, or mirrored from another tab. */
  private get __running(): boolean {
    return this.__controller !== null || !!this.__mirrored?.active;
  }

  stop(): void {
    this.__controller?.abort();
    this.__mirrored?.stop();
  }

  /** Asks the service the question `user` (in the log, its turn started) and streams the reply. */
  async send(user: ChatMessage): Promise<void> {
    const { __chat: chat } = this;
    const { config } = chat;
    if (!config) return;
    const reply = emptyReply();
    const { messages } = chat.state;
    const after = messages.findLast((m) => m.id)?.id ?? null;
    // Which time this question is asked in the thread: recovery tells this turn from an earlier same one by it.
    const prior = messages.filter((m) => m.role === 'user' && m.key !== user.key && m.text === user.text).length;
    chat.store.apply(startReply, reply);
    const threadId = chat.threads.id;
    const body = turnBody({
      text: user.text,
      userId: chat.threads.userId,
      threadId,
      imageUrl: user.imageUrl,
      agentVariables: config.agentVariables,
    });
    const record = { body, threadId, lastSeq: 0, text: '', after, prior, startedAt: Date.now(), key: newKey() };
    await this.__run(user, reply, record, false);
  }

  /**
   * Retry of a question that went back to the composer: asked once more, its text out of the
   * composer again (what the reader added stays); a second Retry meanwhile finds it asked.
   */
  resend(unsent: ChatMessage): Promise<void> | undefined {
    const { __chat: chat } = this;
    const { draft, messages } = chat.state;
    if (chat.busy || messages.some((m) => m.key === unsent.key)) return;
    const rest = draft.trim() === unsent.text ? '' : draft.startsWith(`${unsent.text}\n`) ? draft.slice(unsent.text.length + 1) : draft;
    if (rest !== draft) chat.holdOutgoing(unsent.text, rest);
    chat.store.apply(appendUser, unsent);
    return chat.ask(unsent);
  }

  /**
   * Another tab talks to the service for a turn of this scope (`persist="local"`): this one
   * shows it as it streams, and resumes it if that tab goes (src/continuity/mirror.ts).
   */
  mirror(fallback?: () => [ChatMessage, ChatMessage]): boolean {
    const { __chat: chat } = this;
    if (this.__mirrored?.active) return true;
    if (!chat.host.isConnected) return false;
    // Already over (the tab learnt of it late): nothing to show but the transcript.
    const record = readRunningTurn(chat.threads.saved?.current().turn);
    if (this.__running || chat.config?.persist !== 'local' || !record) return false;
    this.__shown = record.startedAt;
    this.__mirrored = new Mirror(
      chat,
      scopeOf(chat.config),
      (user, reply, record) => {
        chat.store.apply(takeOver, user.key, reply.key);
        return this.__run(user, reply, record, true, true);
      },
      () => {
        this.__mirrored = null;
        this.__catchUp();
      },
      fallback,
    );
    return true;
  }

  /**
   * Another tab wrote (ChatController listens): the thread it moved to (new conversation, history,
   * branch, hand-off, or its turn's new thread), a turn it started (mirrored here, or loaded if
   * over). Saved takes over history and branches. Not its draft: a draft belongs to its tab
   * (src/state/saved.ts), never written into this composer under the reader's cursor.
   */
  followTab(state: PersistedState): void {
    const { __chat: chat } = this;
    if (!chat.host.isConnected) return;
    const threadId = typeof state.threadId === 'string' && isHexId(state.threadId) ? state.threadId : null;
    // A question that lost the race stays in this composer until the reader sends or edits it away.
    const back = this.__returned && chat.state.draft.includes(this.__returned.text) ? this.__returned : (this.__returned = null);
    if (threadId !== chat.threads.id) {
      if (this.__running) {
        // A turn another tab runs shows here: the thread it created is taken; any other move
        // is followed when the turn ends (`catchUp`), as this state may be older than what
        // the turn told. A turn of this tab names its thread itself.
        if (this.__mirrored?.active && !chat.threads.id && threadId) follow(chat.threads, threadId);
      } else {
        const created = !chat.threads.id && !!threadId && !!state.turn;
        // What the reader typed here stays in this composer, whatever conversation another tab moved to.
        const typed = chat.state.draft;
        follow(chat.threads, threadId);
        // Another tab's turn named the thread it created: shown as it streams (or, over, from the service).
        if (!(created && this.mirror())) {
          chat.reset();
          if (typed.trim()) chat.setDraft(typed);
          // The move cleared the notice; this tab's returned question still needs its reason.
          if (back) chat.store.apply(inform, back.notice);
        }
      }
    }
    // A turn the other tab started shows here as it streams; over already (heard of late, its
    // code fetched first), as the service has it now: once, and not while a turn here starts.
    const turn = state.turn && !this.__running && chat.state.ready && !this.mirror() && !chat.state.turn && readRunningTurn(state.turn);
    if (turn && turn.startedAt !== this.__shown) {
      this.__shown = turn.startedAt;
      void chat.load();
      if (back) chat.store.apply(inform, back.notice); // the load cleared it
    }
  }

  /** A turn here ended: what the other tabs did meanwhile (a move, a turn of theirs) is followed now. */
  private __catchUp(): void {
    const { __chat: chat } = this;
    const saved = chat.threads.saved;
    if (chat.config?.persist !== 'local' || !saved) return;
    setTimeout(() => chat.host.isConnected && !this.__running && this.followTab(saved.current()));
  }

  /**
   * Resumes a stored turn (src/continuity/recover.ts) while holding the scope's lock; if
   * another tab holds it, that tab talks to the service for the turn and this one mirrors
   * it. `show` puts the turn in the log and returns its two messages.
   */
  async resume(record: RunningTurn, show: () => [ChatMessage, ChatMessage]): Promise<void> {
    const config = this.__chat.config;
    const manager = locks();
    if (config?.persist !== 'local') {
      const [user, reply] = show();
      return this.__run(user, reply, record, true);
    }
    // Without Web Locks: mirrored; a tab that runs it answers at once, else this one takes over.
    if (!manager) {
      if (!this.mirror(show)) missed(this.__chat, record, this.__running);
      return;
    }
    await manager
      .request(lockName(scopeOf(config)), { ifAvailable: true }, async (lock) => {
        if (!this.__chat.host.isConnected) return;
        if (!lock) {
          // Another tab runs it (or a page that is going lets go of it): mirrored, and taken
          // over if that tab goes; or it ended meanwhile: the transcript shows it (`missed`).
          if (!this.mirror(show)) missed(this.__chat, record, this.__running);
          return;
        }
        // The tab that ran it may have ended it while this page loaded (the record is gone or
        // another one's): its transcript has the turn now, and streaming it again would ask twice.
        if (readRunningTurn(this.__chat.threads.saved?.current().turn)?.startedAt !== record.startedAt) return void this.__chat.load();
        const [user, reply] = show();
        await this.__run(user, reply, record, true, true);
      })
      .catch(() => undefined);
  }

  /** The element leaves (or the page goes): the streamed turn stays stored, to be resumed. */
  leave(): void {
    this.__journal.release();
    this.__link?.leave();
    this.__mirrored?.close();
    this.__controller?.abort();
    this.__controller = null;
  }

  /**
   * A turn a page before this one started and did not see end (`stored`, as storage had
   * it): resumed by the recovery chunk, fetched only by pages that have one. If it cannot be
   * fetched the turn stays stored for the next page; the transcript shows meanwhile. A
   * record that is not one (too old, another version's, broken) is dropped.
   */
  recover(stored: unknown, transcript: Message[]): void {
    const turn = readRunningTurn(stored);
    if (!turn) {
      this.__chat.threads.saved?.set('turn', null);
      return this.__chat.store.apply(endTurn);
    }
    this.__recovery().then(
      ({ recover }) => this.__chat.host.isConnected && recover(this, this.__chat, turn, transcript),
      () => this.__chat.store.apply(endTurn),
    );
  }

  /**
   * Runs `then` unless another tab holds the scope's lock (it runs a turn: this tab mirrors
   * it instead). Without sharing or Web Locks, runs it.
   */
  unlessAnotherTabRuns(then: () => void): void {
    const config = this.__chat.config;
    const manager = locks();
    if (config?.persist !== 'local' || !manager) return then();
    manager
      .request(lockName(scopeOf(config)), { ifAvailable: true }, (lock) => {
        if (lock) then();
        else if (!this.mirror()) this.__chat.store.apply(endTurn);
      })
      .catch(() => then());
  }

  /**
   * Runs the turn's request and streams its reply into `reply` (shown already), or resumes
   * it (`resuming`) from the record's last seq; the record goes to storage as the turn
   * moves and is cleared when it ends here. `held`: this tab holds the scope's lock already.
   */
  private async __run(user: ChatMessage, reply: ChatMessage, record: RunningTurn, resuming: boolean, held = false): Promise<void> {
    const { __chat: chat, __journal: journal } = this;
    const { client, config, store } = chat;
    if (!client || !config) return;
    const controller = this.__begin(false);
    const { signal } = controller;
    // Other tabs of the scope mirror the turn (persist="local"; docs/protocol.md "Tabs"),
    // unless another tab's turn has the conversation: then this question goes back.
    const link = (this.__link =
      config.persist === 'local'
        ? await TurnLink.open(
            scopeOf(config),
            () => journal.current,
            () => controller.abort(),
            held,
            () => this.__conversationUnchanged(record),
          )
        : null);
    if (config.persist === 'local' && !link) return this.__lost(user, reply.key, controller);
    // The element left while this tab waited for the lock: nothing went out, and the question stays the stored draft.
    if (!chat.host.isConnected) return link?.leave();
    chat.threads.saved?.set('pending', true);
    journal.begin(record);
    // In the task that stored the turn, before any request: a reload finds the question in one of the two.
    chat.holdOutgoing(null, chat.state.draft);
    link?.announce();
    // A turn this tab has seen nothing of (the page before went as it was sent) is asked for
    // by its key, over the stream operation whatever the transport: the service replays it or
    // says it never arrived (docs/protocol.md "A send and a reload"). Until then it may not exist.
    const byKey = resuming && !!record.key && !record.lastSeq;
    let accepted = resuming && !byKey;
    let gone = false;
    let final: Message | null | undefined;
    let text = reply.text;
    try {
      const handlers = {
        onThread: (id: string) => {
          accepted = true;
          journal.thread(id);
          this.__adopt(id);
          link?.announce();
        },
        onToken: (delta: string, seq: number, cut?: boolean) => {
          text += delta;
          store.apply(appendDelta, reply.key, delta, cut);
          journal.progress(seq, text);
          link?.token(seq, delta);
        },
        onReconnecting: () => store.apply(reconnecting),
      };
      const transport = byKey ? 'sse' : config.transport;
      const resume = resuming && transport !== 'rest' ? { threadId: record.threadId, lastSeq: record.lastSeq } : undefined;
      final =
        resuming && !resume
          ? undefined
          : await client.turn(transport, record.body, handlers, { signal, resume, idempotencyKey: record.key }).catch((error: unknown) => {
              if (signal.aborted || !isApiError(error)) throw error;
              // "Never received" is believed while nothing of the turn was seen here: a service that forgot the key says it too.
              const lost = error.code === NOT_RECEIVED;
              if (lost && !accepted) throw error;
              // The service no longer has the turn's stream: its transcript will have the turn.
              if (resume && record.threadId && (lost || error.status === 409 || error.status === 404)) return undefined;
              // Neither found by its key nor said not received: the service may have it or not.
              if (resume && !accepted) throw new ApiError({ kind: 'stream', message: error.message, mayHaveRun: true, cause: error });
              throw lost ? new ApiError({ kind: 'stream', status: 409, message: error.message }) : error;
            });
      if (final === undefined) await (await this.__recovery()).awaitReply(chat, client, record, signal);
      else this.__complete(reply.key, user.key, final);
    } catch (error) {
      // The thread was deleted on the service: the message starts a new conversation instead.
      gone = !accepted && !signal.aborted && !!record.body.thread_id && isApiError(error) && error.status === 404;
      if (!gone) this.__failed(error, signal, accepted, user, reply.key);
    } finally {
      journal.end();
      link?.end(final !== undefined ? 'done' : signal.aborted ? 'stopped' : 'failed', final ?? null);
      this.__end(controller);
    }
    if (!gone) return;
    chat.threads.forget();
    store.apply(replaceMessages, [user]);
    const resent = chat.ask(user);
    // After the send began (it clears notices): the reader learns why the log starts over.
    chat.threadGone();
    await resent;
  }

  /**
   * Whether the conversation is as this turn's request has it: no other tab's turn stored,
   * and the thread it was built for still the scope's (another tab's turn may have created
   * one, or moved the conversation, while this tab waited for the lock).
   */
  private __conversationUnchanged(record: RunningTurn): boolean {
    const state = this.__chat.threads.saved?.current();
    if (!state) return true;
    const threadId = typeof state.threadId === 'string' && isHexId(state.threadId) ? state.threadId : null;
    return !readRunningTurn(state.turn) && threadId === (record.body.thread_id ?? null);
  }

  /**
   * Another tab's turn has the conversation (two tabs sent at once; docs/protocol.md): this
   * question leaves the log, its text goes back to this tab's composer with a notice, and
   * this tab shows the other turn. The text is kept as this tab's draft: a reload here finds
   * it, and no other tab's composer shows it (a draft belongs to its tab, src/state/saved.ts).
   */
  private __lost(user: ChatMessage, reply: string, controller: AbortController): void {
    const { __chat: chat } = this;
    const error = new ApiError({ kind: 'abort', code: 'turn.busy', message: 'Another tab sent a message at the same moment' });
    const notice: Notice = { ...chat.noticeOf(error, null), kind: 'other-tab' };
    this.__returned = { text: user.text, notice };
    chat.holdOutgoing(null, chat.state.draft);
    const draft = chat.draftWith(user.text);
    chat.threads.saved?.draft(chat.threads.id, draft);
    chat.store.apply(withdraw, user, reply, draft, notice);
    if (this.__controller === controller) this.__controller = null;
    this.__catchUp();
  }

  /** A turn's `thread` frame named the thread it runs on: a new conversation now has one. */
  private __adopt(threadId: string): void {
    const { threads } = this.__chat;
    // The client only passes ids it checked; a thread id is a storage key and a URL part.
    if (threadId === threads.id || !isHexId(threadId)) return;
    // What the reader typed meanwhile belongs to the conversation that now has an id.
    const draft = threads.saved?.draftOf(threads.id);
    if (draft) {
      threads.saved?.draft(threads.id, '');
      threads.saved?.draft(threadId, draft);
    }
    threads.move(threadId, 'created');
  }

  /** The turn failed: what the reader sees depends on whether the service took it. */
  private __failed(error: unknown, signal: AbortSignal, accepted: boolean, user: ChatMessage, reply: string): void {
    const { __chat: chat } = this;
    if (signal.aborted) {
      chat.store.apply(stop, reply);
    } else if (isApiError(error) && error.code === NOT_RECEIVED) {
      // A page before this one sent it and went: the service says it never arrived (and now never runs).
      const notice: Notice = { ...chat.noticeOf(error, 'send'), kind: 'unsent' };
      chat.setDraft(chat.draftWith(user.text));
      chat.store.apply(withdraw, user, reply, chat.state.draft, notice);
    } else if (!accepted) {
      // The service did not take the turn, or may have: take it back out of the log and
      // give the text back to the composer, so nothing the reader typed is lost. If it may
      // be running, Retry reloads the thread (where it shows if it ran) rather than
      // sending it a second time; in a new conversation there is nothing to reload.
      chat.withdraw(user, reply, error, isApiError(error) && error.mayHaveRun && chat.threads.id ? 'load' : 'send');
    } else {
      // The turn exists on the service and may have finished there: retry reloads it.
      chat.store.apply(interrupt, reply, chat.noticeOf(error, 'load'));
    }
  }

  /** The reply is final: shown, kept in the history, announced (`agent-chat-message`). */
  private __complete(reply: string, user: string, final: Message | null): void {
    const { __chat: chat } = this;
    chat.store.apply(settle, reply, user, final);
    const settled = chat.store.find(reply);
    chat.threads.touch(chat.state.messages);
    const message: Message = final ?? { id: settled?.id ?? '', text: settled?.text ?? '', sender: { type: 'agent' }, cards: [] };
    emit(chat.host, 'agent-chat-message', { message, threadId: chat.threads.id });
  }

  /**
   * Regenerates the reply of turn `turn` (`replyId` is its interaction id; null for a turn
   * that was stopped or interrupted, found in the transcript), or re-asks it with edited
   * text. The service answers with a NEW thread branched from this one; the view switches
   * to it and the relation is kept for the branch navigator. `pin`: the agent version it
   * runs on (the preview's menu), else the element's `version-id`/`version-tag`, else live.
   */
  async rerun(turn: number, replyId: string | null, text: string, pin?: VersionPin): Promise<void> {
    const { __chat: chat } = this;
    const { client, config, store } = chat;
    const version: VersionPin = pin ?? { versionId: config?.versionId, versionTag: config?.versionTag };
    const source = chat.threads.id;
    const trimmed = text.trim();
    if (!client || !source || !trimmed || chat.busy) return;
    const before = chat.state.messages;
    const userIndex = userMessageIndex(before, turn);
    if (userIndex < 0) return;
    const question = before[userIndex]!;
    const user: ChatMessage = { ...question, key: localKey('user'), text: trimmed, id: undefined };
    const reply = emptyReply();
    store.apply(branch, userIndex, user, reply);
    const controller = this.__begin();
    let askAgain = false;
    try {
      // A stopped or interrupted reply has no id of its own: the transcript gives it, once
      // the service has recorded the turn (it runs on after Stop; docs/protocol.md).
      const id = replyId ?? (await (await this.__recovery()).recordedReply(client, source, before, userIndex, controller.signal));
      if (id) {
        const body = rerunBody({ replyId: id, text: trimmed, userId: chat.threads.userId, imageUrl: user.imageUrl, ...version });
        const response = await client.rerun(source, body, { signal: controller.signal });
        const to = response.thread_id;
        chat.threads.saved?.edit('branches', (branches) => addBranch(branches, { from: source, turn, to }), { threadId: to });
        chat.threads.move(response.thread_id, 'rerun', false);
        this.__complete(reply.key, user.key, response.message);
      } else {
        // The service never recorded that turn: asking it again is the regeneration.
        store.apply(replaceMessages, [...before.slice(0, userIndex), user]);
        askAgain = true;
      }
    } catch (error) {
      if (controller.signal.aborted) {
        store.apply(undo, before, null);
      } else {
        // An edit that did not go through is the reader's text: keep it in the composer.
        if (trimmed !== question.text) chat.setDraft(chat.draftWith(trimmed));
        store.apply(undo, before, chat.noticeOf(error, null));
      }
    } finally {
      this.__end(controller);
    }
    if (askAgain) await chat.ask(user);
  }

  /**
   * A turn starts: its own AbortController, and `pending` stored so that a reload (or
   * another page of the site) loads the conversation at once (the shell reads it).
   */
  private __begin(pending = true): AbortController {
    const controller = (this.__controller = new AbortController());
    if (pending) this.__chat.threads.saved?.set('pending', true);
    return controller;
  }

  private __end(controller: AbortController): void {
    if (this.__controller === controller) this.__controller = null;
    if (!this.__controller) this.__chat.threads.saved?.set('pending', null);
    this.__catchUp();
  }
}
