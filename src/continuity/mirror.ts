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
  private id: string | null = null;
  private user: ChatMessage | null = null;
  private reply: ChatMessage | null = null;
  /** The reply's text as far as this tab has shown it (the log may be loaded afresh meanwhile). */
  private text = '';
  private lastSeq = 0;
  private readonly channel: BroadcastChannel | null;
  private orphan: ReturnType<typeof setTimeout> | undefined;
  /** Ends the wait for the lock, and a grace under way, when this tab stops mirroring. */
  private readonly waiting = new AbortController();

  constructor(
    private readonly chat: TurnHost,
    scope: string,
    private readonly takeOver: TakeOver,
    private readonly closed: () => void,
    /** Puts the stored turn in the log, for a takeover before the owner told anything (recovery's view of it). */
    private readonly fallback?: () => [ChatMessage, ChatMessage],
  ) {
    this.channel = openChannel(scope);
    this.channel?.addEventListener('message', (event) => {
      const message = readTabMessage(event.data);
      if (message) this.receive(message);
    });
    chat.store.apply(watchTurn);
    this.post({ type: 'sync' });
    const manager = locks();
    if (manager) manager.request(lockName(scope), { signal: this.waiting.signal }, () => this.owned()).catch(() => undefined);
    // Without Web Locks: a tab that runs the turn answers `sync` at once; silence means none does.
    else this.watch(JOIN_MS);
  }

  /** Stop, pressed here: the owner is asked to stop the turn. */
  stop(): void {
    if (this.id) this.post({ type: 'stop', id: this.id });
  }

  /** The element leaves: nothing more is shown or taken over here. */
  close(): void {
    if (!this.active) return;
    this.active = false;
    clearTimeout(this.orphan);
    this.waiting.abort();
    this.channel?.close();
    this.closed();
  }

  private receive(message: TabMessage): void {
    if (!this.active) return;
    switch (message.type) {
      case 'turn':
        return this.show(message.id, message.turn);
      case 'token': {
        if (message.id !== this.id || message.seq <= this.lastSeq || !this.reply) return;
        this.lastSeq = message.seq;
        this.keepShown();
        this.text += message.text;
        this.chat.store.apply(appendDelta, this.reply.key, message.text);
        this.watch();
        return;
      }
      case 'beat':
        if (message.id === this.id) this.watch();
        return;
      case 'end':
        if (message.id === this.id) this.finish(message.outcome === 'done' ? message.message : null);
        return;
    }
  }

  /** The turn so far (it started, or this tab asked): shown in place of what was. */
  private show(id: string, turn: RunningTurn): void {
    const { chat } = this;
    this.watch();
    // The thread the turn runs on is the one this tab shows (a new conversation gets it now).
    if (turn.threadId && turn.threadId !== chat.threads.id) follow(chat.threads, turn.threadId);
    const fresh = id !== this.id;
    if (!fresh && turn.lastSeq <= this.lastSeq) return;
    this.id = id;
    this.lastSeq = turn.lastSeq;
    this.text = turn.text;
    if (fresh || !this.user || !this.reply) {
      const { text, image_url: imageUrl } = turn.body;
      const gone = [this.user?.key, this.reply?.key];
      // A service that records the question at once has it in the transcript shown here.
      const last = chat.state.messages.at(-1);
      if (!this.user && last?.role === 'user' && last.text === text) gone.push(last.key);
      this.user = userMessage(text, imageUrl);
      this.reply = emptyReply(turn.text);
      chat.store.apply(mirror, this.user, this.reply, gone);
    } else {
      this.keepShown();
      chat.store.apply(replaceText, this.reply.key, turn.text);
    }
  }

  /** The owner ended the turn: its reply, or the thread as the service has it. */
  private finish(message: Message | null): void {
    const { chat, user, reply } = this;
    this.close();
    if (!message || !user || !reply) {
      chat.store.apply(endTurn);
      void chat.load();
      return;
    }
    this.keepShown();
    chat.store.apply(settle, reply.key, user.key, message);
    emit(chat.host, 'agent-chat-message', { message, threadId: chat.threads.id });
  }

  /**
   * This tab holds the lock: the owner let go of it. With the turn still stored, the owner
   * went away mid-turn and this tab resumes it; otherwise the turn ended (its `end` is here
   * or on its way).
   */
  private async owned(): Promise<void> {
    // The owner posts `end` before it lets go of the lock, but the two may arrive in either
    // order (and a browser may show this tab storage as it was a moment ago): a short grace,
    // over as soon as this tab stops mirroring, so the lock is free again for the next turn.
    await this.grace();
    if (!this.active) return;
    const record = readRunningTurn(this.chat.threads.saved?.current().turn);
    // The turn ended: its `end` was here already, or is on its way and shows no more than
    // the thread as the service has it now.
    if (!record) return this.finish(null);
    const { chat } = this;
    // Without Web Locks several tabs may find the owner silent at once: each writes its claim,
    // and the one whose claim is still there a moment later takes over; the others keep
    // mirroring (the new owner posts the turn under a new id).
    if (!locks()) {
      const claim = turnId();
      chat.threads.saved?.set('claim', claim);
      await this.grace();
      if (!this.active) return;
      if (chat.threads.saved?.current().claim !== claim) return this.watch();
    }
    const threadId = record.threadId ?? record.body.thread_id ?? null;
    // A turn whose thread no page learnt is found by its key (docs/protocol.md "A send and a reload").
    const findable = !!(threadId || record.key);
    // The owner went before it told anything: shown as recovery would show it.
    if (!this.user && findable && this.fallback) {
      [this.user, this.reply] = this.fallback();
      this.text = this.reply.text;
    }
    const { user, reply } = this;
    this.close();
    if (!findable || !user || !reply) {
      // Nothing to resume from here: loading the thread again recovers the stored turn the
      // way a new page does.
      chat.store.apply(endTurn);
      void chat.load();
      return;
    }
    // Resumed from whichever is further along: what this tab showed, or what the owner stored.
    const seen = this.lastSeq >= record.lastSeq;
    this.keepShown();
    if (!seen) chat.store.apply(replaceText, reply.key, (this.text = record.text));
    const shown = chat.store.find(reply.key) ?? reply;
    await this.takeOver(user, shown, { ...record, threadId, lastSeq: seen ? this.lastSeq : record.lastSeq, text: this.text });
  }

  /** The log was loaded afresh meanwhile (this tab followed a move): the turn goes back at its end. */
  private keepShown(): void {
    const { chat, user, reply } = this;
    if (user && reply && !chat.store.find(reply.key)) chat.store.apply(reattach, user, { ...reply, text: this.text });
  }

  private grace(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GRACE_MS);
      this.waiting.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /** Without Web Locks: an owner silent for ORPHAN_MS (no token, no beat) is gone. */
  private watch(ms = ORPHAN_MS): void {
    if (locks()) return;
    clearTimeout(this.orphan);
    this.orphan = setTimeout(() => void this.owned(), ms);
  }

  private post(message: TabMessage): void {
    try {
      this.channel?.postMessage(message);
    } catch {
      // Closed: nothing to tell.
    }
  }
}
