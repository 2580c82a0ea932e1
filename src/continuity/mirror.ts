import type { Message } from '../client/types.js';
import { emit } from '../events.js';
import { type ChatMessage, emptyReply, userMessage } from '../state/messages.js';
import type { TurnHost } from '../state/scene.js';
import { endTurn } from '../state/store.js';
import { appendDelta, mirror, reattach, replaceText, settle, watchTurn } from '../state/turn-transitions.js';
import { type RunningTurn, readRunningTurn } from './running-turn.js';
import { ORPHAN_MS, type TabMessage, follow, lockName, locks, openChannel, readTabMessage, turnId } from './tabs.js';

/** How long a tab that got the lock waits for the owner's `end` before it takes over. */
const GRACE_MS = 500;
/** Without Web Locks, how long a joining tab waits for the owner to answer `sync`. */
const JOIN_MS = 1_500;

/** Resumes the turn in this tab, holding the lock already (Turns.deliver). */
export type TakeOver = (user: ChatMessage, reply: ChatMessage, record: RunningTurn) => Promise<void>;

/**
 * The stored turn `record` could not be mirrored (Turns.resume). Ended since this tab's load
 * read it (its record gone, or another turn's; its tab clears it just before it lets go of
 * the lock): the transcript shown was read before, maybe before the service recorded the
 * turn, so it is read again, as when the lock was free. Otherwise (a turn of this tab's is
 * `running`, the element left) there is nothing to show.
 */
export function missed(chat: TurnHost, record: RunningTurn, running: boolean): void {
  const stored = readRunningTurn(chat.threads.saved?.current().turn);
  if (chat.host.isConnected && !running && stored?.startedAt !== record.startedAt) void chat.load();
  else chat.store.apply(endTurn);
}

/**
 * This tab shows a turn another tab of the scope talks to the service for (`persist="local"`,
 * docs/protocol.md "Tabs share one conversation"): the question, then the tokens as they
 * stream, then the final reply. It asks the owner for the turn so far when it joins, and
 * waits for the scope's lock: when the owner lets go of it with the turn still stored (the
 * tab was closed or reloaded mid-turn), this tab resumes it from what it has shown.
 */
export class Mirror {
  active = true;
  private __id: string | null = null;
  private __user: ChatMessage | null = null;
  private __reply: ChatMessage | null = null;
  /** The reply's text as far as this tab has shown it (the log may be loaded afresh meanwhile). */
  private __text = '';
  private __lastSeq = 0;
  private readonly __channel: BroadcastChannel | null;
  private __orphan: ReturnType<typeof setTimeout> | undefined;
  /** Ends the wait for the lock, and a grace under way, when this tab stops mirroring. */
  private readonly __waiting = new AbortController();

  constructor(
    private readonly __chat: TurnHost,
    scope: string,
    private readonly __takeOver: TakeOver,
    private readonly __closed: () => void,
    /** Puts the stored turn in the log, for a takeover before the owner told anything (recovery's view of it). */
    private readonly __fallback?: () => [ChatMessage, ChatMessage],
  ) {
    this.__channel = openChannel(scope);
    this.__channel?.addEventListener('message', (event) => {
      const message = readTabMessage(event.data);
      if (message) this.__receive(message);
    });
    __chat.store.apply(watchTurn);
    this.__post({ type: 'sync' });
    const manager = locks();
    if (manager) manager.request(lockName(scope), { signal: this.__waiting.signal }, () => this.__owned()).catch(() => undefined);
    // Without Web Locks: a tab that runs the turn answers `sync` at once; silence means none does.
    else this.__watch(JOIN_MS);
  }

  /** Stop, pressed here: the owner is asked to stop the turn. */
  stop(): void {
    if (this.__id) this.__post({ type: 'stop', id: this.__id });
  }

  /** The element leaves: nothing more is shown or taken over here. */
  close(): void {
    if (!this.active) return;
    this.active = false;
    clearTimeout(this.__orphan);
    this.__waiting.abort();
    this.__channel?.close();
    this.__closed();
  }

  private __receive(message: TabMessage): void {
    if (!this.active) return;
    switch (message.type) {
      case 'turn':
        return this.__show(message.id, message.turn);
      case 'token': {
        if (message.id !== this.__id || message.seq <= this.__lastSeq || !this.__reply) return;
        this.__lastSeq = message.seq;
        this.__keepShown();
        this.__text += message.text;
        this.__chat.store.apply(appendDelta, this.__reply.key, message.text);
        this.__watch();
        return;
      }
      case 'beat':
        if (message.id === this.__id) this.__watch();
        return;
      case 'end':
        if (message.id === this.__id) this.__finish(message.outcome === 'done' ? message.message : null);
        return;
    }
  }

  /** The turn so far (it started, or this tab asked): shown in place of what was. */
  private __show(id: string, turn: RunningTurn): void {
    const { __chat: chat } = this;
    this.__watch();
    // The thread the turn runs on is the one this tab shows (a new conversation gets it now).
    if (turn.threadId && turn.threadId !== chat.threads.id) follow(chat.threads, turn.threadId);
    const fresh = id !== this.__id;
    if (!fresh && turn.lastSeq <= this.__lastSeq) return;
    this.__id = id;
    this.__lastSeq = turn.lastSeq;
    this.__text = turn.text;
    if (fresh || !this.__user || !this.__reply) {
      const { text, image_url: imageUrl } = turn.body;
      const gone = [this.__user?.key, this.__reply?.key];
      // A service that records the question at once has it in the transcript shown here.
      const last = chat.state.messages.at(-1);
      if (!this.__user && last?.role === 'user' && last.text === text) gone.push(last.key);
      this.__user = userMessage(text, imageUrl);
      this.__reply = emptyReply(turn.text);
      chat.store.apply(mirror, this.__user, this.__reply, gone);
    } else {
      this.__keepShown();
      chat.store.apply(replaceText, this.__reply.key, turn.text);
    }
  }

  /** The owner ended the turn: its reply, or the thread as the service has it. */
  private __finish(message: Message | null): void {
    const { __chat: chat, __user: user, __reply: reply } = this;
    this.close();
    if (!message || !user || !reply) {
      chat.store.apply(endTurn);
      void chat.load();
      return;
    }
    this.__keepShown();
    chat.store.apply(settle, reply.key, user.key, message);
    emit(chat.host, 'agent-chat-message', { message, threadId: chat.threads.id });
  }

  /**
   * This tab holds the lock: the owner let go of it. With the turn still stored, the owner
   * went away mid-turn and this tab resumes it; otherwise the turn ended (its `end` is here
   * or on its way).
   */
  private async __owned(): Promise<void> {
    // The owner posts `end` before it lets go of the lock, but the two may arrive in either
    // order (and a browser may show this tab storage as it was a moment ago): a short grace,
    // over as soon as this tab stops mirroring, so the lock is free again for the next turn.
    await this.__grace();
    if (!this.active) return;
    const record = readRunningTurn(this.__chat.threads.saved?.current().turn);
    // The turn ended: its `end` was here already, or is on its way and shows no more than
    // the thread as the service has it now.
    if (!record) return this.__finish(null);
    const { __chat: chat } = this;
    // Without Web Locks several tabs may find the owner silent at once: each writes its claim,
    // and the one whose claim is still there a moment later takes over; the others keep
    // mirroring (the new owner posts the turn under a new id).
    if (!locks()) {
      const claim = turnId();
      chat.threads.saved?.set('claim', claim);
      await this.__grace();
      if (!this.active) return;
      if (chat.threads.saved?.current().claim !== claim) return this.__watch();
    }
    const threadId = record.threadId ?? record.body.thread_id ?? null;
    // A turn whose thread no page learnt is found by its key (docs/protocol.md "A send and a reload").
    const findable = !!(threadId || record.key);
    // The owner went before it told anything: shown as recovery would show it.
    if (!this.__user && findable && this.__fallback) {
      [this.__user, this.__reply] = this.__fallback();
      this.__text = this.__reply.text;
    }
    const { __user: user, __reply: reply } = this;
    this.close();
    if (!findable || !user || !reply) {
      // Nothing to resume from here: loading the thread again recovers the stored turn the
      // way a new page does.
      chat.store.apply(endTurn);
      void chat.load();
      return;
    }
    // Resumed from whichever is further along: what this tab showed, or what the owner stored.
    const seen = this.__lastSeq >= record.lastSeq;
    this.__keepShown();
    if (!seen) chat.store.apply(replaceText, reply.key, (this.__text = record.text));
    const shown = chat.store.find(reply.key) ?? reply;
    await this.__takeOver(user, shown, { ...record, threadId, lastSeq: seen ? this.__lastSeq : record.lastSeq, text: this.__text });
  }

  /** The log was loaded afresh meanwhile (this tab followed a move): the turn goes back at its end. */
  private __keepShown(): void {
    const { __chat: chat, __user: user, __reply: reply } = this;
    if (user && reply && !chat.store.find(reply.key)) chat.store.apply(reattach, user, { ...reply, text: this.__text });
  }

  private __grace(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GRACE_MS);
      this.__waiting.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /** Without Web Locks: an owner silent for ORPHAN_MS (no token, no beat) is gone. */
  private __watch(ms = ORPHAN_MS): void {
    if (locks()) return;
    clearTimeout(this.__orphan);
    this.__orphan = setTimeout(() => void this.__owned(), ms);
  }

  private __post(message: TabMessage): void {
    try {
      this.__channel?.postMessage(message);
    } catch {
      // Closed: nothing to tell.
    }
  }
}
