/**
 * The builder's preview (attribute `preview`), a lazy chunk: for a page whose token serves
 * management (a login session's, docs/protocol.md "Management"), each finished reply offers
 * its trace and a rerun on another version of the agent, a turn's version navigator is
 * labelled with the version of the thread it shows, and the header shows the thread's title
 * with rename. Without such a token, or once the service refuses one, the preview says why
 * in the header and the chat goes on as usual.
 *
 * Everything it shows comes from the management surface through src/client/management.ts
 * (checked and bounded there) and is bound as text.
 */
import { nothing } from 'lit-html';
import type { AgentClient } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import { ManagementClient, tokenAccess, type AgentVersion, type ThreadRecord, type Trace } from '../client/management.js';
import { emit } from '../events.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import { branchIndex } from '../state/branch-index.js';
import type { ChatMessage } from '../state/messages.js';
import { warnOnce } from '../warn.js';
import { renderNote, renderReplyControls, renderTitle } from './templates.js';
import { renderTraceDialog } from './trace.js';

/** Why the preview is off although `preview` is set: the token serves messaging only, or the service refused it. */
export type Off = 'scope' | 'refused';

interface View {
  /** `idle` until the conversation is here, `checking` the token, `on`, or why it is off. */
  access: 'idle' | 'checking' | 'on' | Off;
  /** The agent's versions, for the rerun menu. */
  versions: readonly AgentVersion[];
  /** The thread in use as the service has it (its title). */
  thread: ThreadRecord | null;
  /** The rename form is open: whether it is saving, and what went wrong. */
  rename: { saving: boolean; error: string | null } | null;
  /** The reply whose version menu is open (its key). */
  menu: string | null;
  /** The trace shown, for the reply with this key: null while it loads, or why it could not. */
  trace: { key: string; trace: Trace | null; error: string | null } | null;
  /** The version tag of each thread asked for: the label beside a turn's navigator. */
  tags: ReadonlyMap<string, string>;
}

/** Threads whose version tag is kept for labels: a conversation's branches, not a history of them. */
const MAX_TAGS = 200;

/** A reply the service has finished and named: it has a trace and can be rerun. */
const finished = (m: ChatMessage) => m.role === 'agent' && m.state === 'done' && !!m.id;

/** The refusals that turn the preview off: no token the service takes, or one that does not serve management. */
const refusal = (error: unknown) => isApiError(error) && (error.kind === 'auth' || error.status === 401 || error.status === 403);

/** What the service said went wrong, for a developer: its per-field details, else its message. */
const detailOf = (error: unknown) =>
  isApiError(error) ? error.details.map((d) => d.message).join(' ') || error.message : error instanceof Error ? error.message : undefined;

export class Preview {
  private readonly view: ViewState<View>;
  /** The messaging client followed: another one (service, credential) is checked afresh. */
  private client: AgentClient | null = null;
  private api: ManagementClient | null = null;
  /** Aborts the requests made for `client` when it is replaced. */
  private requests = new AbortController();
  private traceRequest: AbortController | null = null;
  /** The thread whose record was asked for last. */
  private threadAsked: string | null = null;
  /** Threads whose version tag was asked for (or is known). */
  private readonly tagsAsked = new Set<string>();
  /** Each reply's turn (its index among the questions), for the messages it was worked out for. */
  private turns = new Map<string, number>();
  private counted: readonly ChatMessage[] | null = null;
  /** The title as typed in the rename field: not view state (a keystroke renders nothing). */
  private title = '';
  /** What the version tags were last asked for: the branches, the thread, the number of turns. */
  private askedFor: readonly unknown[] = [];

  constructor(private readonly ctx: PanelContext) {
    this.view = new ViewState<View>(ctx.host, {
      access: 'idle',
      versions: [],
      thread: null,
      rename: null,
      menu: null,
      trace: null,
      tags: new Map(),
    });
    ctx.onMessageAction('trace', (m) => void this.openTrace(m));
    ctx.onMessageAction('versions', (m) => void this.toggleMenu(m));
    ctx.onMessageAction('rerun-version', (m, control) => this.rerun(m, control.dataset.version));
  }

  private get on(): boolean {
    return this.ctx.host.preview && this.view.value.access === 'on';
  }

  /**
   * Follows the conversation: once it is here (the widget has called the service, so the
   * token is known), what the token serves; then the record of each thread it moves to, and
   * the version tags its navigators show.
   */
  willUpdate(): void {
    const { host, chat } = this.ctx;
    if (!host.preview) return;
    if (chat.client && chat.client !== this.client && chat.state.ready) this.connect(chat.client);
    if (this.view.value.access !== 'on') return;
    const { messages } = chat.state;
    if (messages !== this.counted) this.turns = turnsOf((this.counted = messages));
    if (chat.threadId !== this.threadAsked) this.loadThread(chat.threadId);
    this.askTags();
  }

  /**
   * The preview's controls beside those of reply `m`: its version's label, the version menu,
   * Trace. Without `m`, what the header shows (`header()`).
   */
  render(m?: ChatMessage) {
    if (!m) return this.header();
    const { chat } = this.ctx;
    const { threadId } = chat;
    if (!this.on || !finished(m) || !threadId) return nothing;
    const { versions, menu, tags } = this.view.value;
    const turn = this.turns.get(m.key);
    const position = turn === undefined ? null : branchIndex(chat.branches).position(threadId, turn);
    return renderReplyControls(this.ctx.text, {
      tag: position ? tags.get(position.threads[position.index]!) : undefined,
      versions,
      menuOpen: menu === m.key,
      busy: chat.busy,
      onMenuKey: this.onMenuKey,
      onMenuFocusOut: this.onMenuFocusOut,
    });
  }

  /** In the header: the thread's title and rename, or why the preview is off; and the trace, when one is open. */
  private header() {
    const { host, text: t, chat } = this.ctx;
    if (!host.preview) return nothing;
    const { access, thread, rename, trace } = this.view.value;
    if (access === 'scope' || access === 'refused') return renderNote(access === 'scope' ? t.previewNoManagement : t.previewRefused);
    if (access !== 'on') return nothing;
    const title =
      thread && thread.id === chat.threadId
        ? renderTitle(t, {
            title: thread.title,
            text: this.title,
            rename,
            onEdit: () => void this.edit(),
            onInput: (text) => (this.title = text),
            onSave: () => void this.save(),
            onCancel: () => void this.cancel(),
          })
        : nothing;
    return trace ? [title, renderTraceDialog(t, trace, { onClose: () => void this.closeTrace() })] : title;
  }

  // --- the token and the records ----------------------------------------------------------

  private connect(client: AgentClient): void {
    this.requests.abort();
    const requests = (this.requests = new AbortController());
    const { signal } = requests;
    this.client = client;
    this.api = null;
    this.threadAsked = null;
    this.tagsAsked.clear();
    this.view.set({ access: 'checking', versions: [], thread: null, rename: null, menu: null, trace: null, tags: new Map() });
    // The token the conversation already uses (a login session's serves both surfaces).
    client.ctx.tokens.get().then(
      (token) => {
        if (signal.aborted) return;
        const { management, agentId } = tokenAccess(token);
        if (!management) return this.off('scope');
        const api = (this.api = new ManagementClient(client));
        this.view.set({ access: 'on' });
        if (agentId) {
          api.versions(agentId, { signal }).then(
            (versions) => this.view.set({ versions }),
            (error: unknown) => this.failed(error, "the agent's versions could not be loaded; the rerun menu is left out."),
          );
        }
      },
      // No token at all: the conversation says so; the next client is checked again.
      () => this.view.set({ access: 'idle' }),
    );
  }

  /** Turns the preview off and says why (in the header, and once in the console); the chat goes on. */
  private off(why: Off, error?: unknown): void {
    this.requests.abort();
    this.traceRequest?.abort();
    this.api = null;
    warnOnce(
      why === 'scope'
        ? '`preview` is set, but the token serves messaging only (its scope has no "management"): the preview is off. ' +
            'A builder\'s page gives `tokenProvider` a login session\'s token (README "Builder preview").'
        : 'the service refused a management request: the preview is off until the token changes.',
      error,
    );
    const had = (this.ctx.host.renderRoot as ShadowRoot).activeElement;
    this.view.set({ access: why, rename: null, menu: null, trace: null });
    // What had focus may go with the preview (the trace, the rename field, a reply's trace
    // button): the reader goes on in the text field, not on the page's body.
    if (had) void this.ctx.host.updateComplete.then(() => had.isConnected || this.ctx.focusInput());
  }

  /** A management request failed: a refusal turns the preview off; anything else is warned (or said where it shows). */
  private failed(error: unknown, what: string): boolean {
    if (isApiError(error) && error.kind === 'abort') return true;
    if (refusal(error)) {
      this.off('refused', error);
      return true;
    }
    warnOnce(`preview: ${what}`, error);
    return false;
  }

  private loadThread(threadId: string | null): void {
    this.threadAsked = threadId;
    // A rename begun on another thread is not this one's.
    if (this.view.value.rename) this.view.set({ rename: null });
    const { api } = this;
    if (!api || !threadId) return;
    api.thread(threadId, { signal: this.requests.signal }).then(
      (thread) => {
        this.tag(thread);
        if (this.ctx.chat.threadId === thread.id) this.view.set({ thread });
      },
      (error: unknown) => this.failed(error, 'the thread could not be read; its title is left out.'),
    );
  }

  /** Keeps `thread`'s version tag for the labels. */
  private tag(thread: ThreadRecord): void {
    this.tagsAsked.add(thread.id);
    const tags = new Map(this.view.value.tags);
    tags.set(thread.id, thread.version_tag ?? '');
    // The oldest go first: a Map keeps its insertion order.
    while (tags.size > MAX_TAGS) tags.delete(tags.keys().next().value!);
    this.view.set({ tags });
  }

  /**
   * The threads whose version a navigator in this thread shows (the one each turn's version
   * is from), asked for once each. Worked out when the branches, the thread or the number
   * of messages change, not per token.
   */
  private askTags(): void {
    const { chat } = this.ctx;
    const { branches, threadId } = chat;
    const key = [branches, threadId, this.turns.size];
    if (!threadId || !branches.length || key.every((k, i) => k === this.askedFor[i])) return;
    this.askedFor = key;
    const index = branchIndex(branches);
    for (const turn of new Set(this.turns.values())) {
      const position = index.position(threadId, turn);
      const thread = position?.threads[position.index];
      if (!thread || thread === threadId || this.tagsAsked.has(thread) || this.tagsAsked.size >= MAX_TAGS) continue;
      this.tagsAsked.add(thread);
      this.api?.thread(thread, { signal: this.requests.signal }).then(
        (record) => this.tag(record),
        (error: unknown) => this.failed(error, "a branch's thread could not be read; its version is not labelled."),
      );
    }
  }

  // --- rename -------------------------------------------------------------------------------

  private async edit(): Promise<void> {
    const { host } = this.ctx;
    this.title = this.view.value.thread?.title ?? '';
    this.view.set({ rename: { saving: false, error: null } });
    await host.updateComplete;
    const field = host.renderRoot.querySelector<HTMLInputElement>('.rename-input');
    field?.focus();
    field?.select();
  }

  private async save(): Promise<void> {
    const { api } = this;
    const { thread, rename } = this.view.value;
    if (!api || !thread || !rename || rename.saving) return;
    const title = this.title.trim() || null;
    this.view.set({ rename: { saving: true, error: null } });
    try {
      const saved = await api.rename(thread.id, title, { signal: this.requests.signal });
      emit(this.ctx.host, 'agent-chat-preview-rename', { threadId: saved.id, title: saved.title });
      // The reader may have moved to another thread meanwhile: its title is not this one.
      if (this.ctx.chat.threadId !== saved.id) return;
      this.view.set({ thread: saved, rename: null });
      await this.focus('[part="rename-button"]');
    } catch (error) {
      if (this.failed(error, 'the title could not be saved.') || this.ctx.chat.threadId !== thread.id) return;
      // Said in place; the field keeps what was typed.
      this.view.set({ rename: { saving: false, error: this.ctx.text.renameFailed(detailOf(error)) } });
      await this.focus('.rename-input');
    }
  }

  private async cancel(): Promise<void> {
    this.view.set({ rename: null });
    await this.focus('[part="rename-button"]');
  }

  private async focus(selector: string): Promise<void> {
    const { host } = this.ctx;
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  // --- versions -----------------------------------------------------------------------------

  private async toggleMenu(m: ChatMessage): Promise<void> {
    const open = this.view.value.menu !== m.key;
    this.view.set({ menu: open ? m.key : null });
    if (open) await this.focus(`[data-key="${CSS.escape(m.key)}"] [part="version-menu"] button`);
  }

  /** Escape closes the version menu, and focus goes back to its button. */
  private readonly onMenuKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the menu only; it must not close the launcher too.
    event.stopPropagation();
    const key = this.view.value.menu;
    this.view.set({ menu: null });
    void this.focus(`[data-key="${CSS.escape(key ?? '')}"] [part="version-button"]`);
  };

  /**
   * Focus left the menu (a click or Tab elsewhere): it closes, as a disclosure does. Its own
   * button toggles it; focus going nowhere (the window losing it) leaves it open for the
   * reader's return.
   */
  private readonly onMenuFocusOut = (event: FocusEvent): void => {
    const menu = event.currentTarget as HTMLElement;
    const to = event.relatedTarget as Node | null;
    if (to ? menu.contains(to) || to === menu.previousElementSibling : !document.hasFocus()) return;
    this.view.set({ menu: null });
  };

  /** Reruns reply `m` on version `versionId`: as Regenerate does, pinned (src/state/turns.ts `rerun`). */
  private rerun(m: ChatMessage, versionId: string | undefined): void {
    const { chat } = this.ctx;
    const turn = this.turns.get(m.key);
    const question = turn === undefined ? undefined : chat.state.messages.filter((x) => x.role === 'user')[turn];
    if (!question || !m.id || !versionId || !this.view.value.versions.some((v) => v.id === versionId) || this.ctx.sendHeld()) return;
    this.view.set({ menu: null });
    chat.useTurns().then(
      (turns) => turns.rerun(turn!, m.id!, question.text, { versionId }),
      (error: unknown) => chat.fail(error, null),
    );
  }

  // --- trace --------------------------------------------------------------------------------

  private async openTrace(m: ChatMessage): Promise<void> {
    const { api } = this;
    const { host } = this.ctx;
    if (!api || !m.id) return;
    this.traceRequest?.abort();
    const request = (this.traceRequest = new AbortController());
    this.view.set({ trace: { key: m.key, trace: null, error: null } });
    await host.updateComplete;
    const dialog = host.renderRoot.querySelector<HTMLDialogElement>('dialog.trace');
    if (dialog && !dialog.open) dialog.showModal();
    try {
      const trace = await api.trace(m.id, { signal: AbortSignal.any([request.signal, this.requests.signal]) });
      if (this.view.value.trace?.key === m.key) this.view.set({ trace: { key: m.key, trace, error: null } });
    } catch (error) {
      if (request.signal.aborted || this.failed(error, 'a trace could not be loaded.')) return;
      if (this.view.value.trace?.key === m.key)
        this.view.set({ trace: { key: m.key, trace: null, error: this.ctx.text.traceFailed(detailOf(error)) } });
    }
  }

  /** The dialog closed (Escape, its button): focus goes back to the reply's Trace button. */
  private async closeTrace(): Promise<void> {
    this.traceRequest?.abort();
    const key = this.view.value.trace?.key;
    this.view.set({ trace: null });
    if (key) await this.focus(`[data-key="${CSS.escape(key)}"] [part="trace-button"]`);
  }
}

/** Each reply's turn: its index among the questions. */
function turnsOf(messages: readonly ChatMessage[]): Map<string, number> {
  const turns = new Map<string, number>();
  let turn = -1;
  for (const m of messages) {
    if (m.role === 'user') turn += 1;
    else if (turn >= 0) turns.set(m.key, turn);
  }
  return turns;
}
