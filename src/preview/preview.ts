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
  private readonly __view: ViewState<View>;
  /** The messaging client followed: another one (service, credential) is checked afresh. */
  private __client: AgentClient | null = null;
  private __api: ManagementClient | null = null;
  /** Aborts the requests made for `client` when it is replaced. */
  private __requests = new AbortController();
  private __traceRequest: AbortController | null = null;
  /** The thread whose record was asked for last. */
  private __threadAsked: string | null = null;
  /** Threads whose version tag was asked for (or is known). */
  private readonly __tagsAsked = new Set<string>();
  /** Each reply's turn (its index among the questions), for the messages it was worked out for. */
  private __turns = new Map<string, number>();
  private __counted: readonly ChatMessage[] | null = null;
  /** The title as typed in the rename field: not view state (a keystroke renders nothing). */
  private __title = '';
  /** What the version tags were last asked for: the branches, the thread, the number of turns. */
  private __askedFor: readonly unknown[] = [];

  constructor(private readonly __ctx: PanelContext) {
    this.__view = new ViewState<View>(__ctx.host, {
      access: 'idle',
      versions: [],
      thread: null,
      rename: null,
      menu: null,
      trace: null,
      tags: new Map(),
    });
    __ctx.onMessageAction('trace', (m) => void this.__openTrace(m));
    __ctx.onMessageAction('versions', (m) => void this.__toggleMenu(m));
    __ctx.onMessageAction('rerun-version', (m, control) => this.__rerun(m, control.dataset.version));
  }

  private get __on(): boolean {
    return this.__ctx.host.preview && this.__view.value.access === 'on';
  }

  /**
   * Follows the conversation: once it is here (the widget has called the service, so the
   * token is known), what the token serves; then the record of each thread it moves to, and
   * the version tags its navigators show.
   */
  willUpdate(): void {
    const { host, chat } = this.__ctx;
    if (!host.preview) return;
    if (chat.client && chat.client !== this.__client && chat.state.ready) this.__connect(chat.client);
    if (this.__view.value.access !== 'on') return;
    const { messages } = chat.state;
    if (messages !== this.__counted) this.__turns = turnsOf((this.__counted = messages));
    if (chat.threadId !== this.__threadAsked) this.__loadThread(chat.threadId);
    this.__askTags();
  }

  /**
   * The preview's controls beside those of reply `m`: its version's label, the version menu,
   * Trace. Without `m`, what the header shows (`header()`).
   */
  render(m?: ChatMessage) {
    if (!m) return this.__header();
    const { chat } = this.__ctx;
    const { threadId } = chat;
    if (!this.__on || !finished(m) || !threadId) return nothing;
    const { versions, menu, tags } = this.__view.value;
    const turn = this.__turns.get(m.key);
    const position = turn === undefined ? null : branchIndex(chat.branches).position(threadId, turn);
    return renderReplyControls(this.__ctx.text, {
      tag: position ? tags.get(position.threads[position.index]!) : undefined,
      versions,
      menuOpen: menu === m.key,
      busy: chat.busy,
      onMenuKey: this.__onMenuKey,
      onMenuFocusOut: this.__onMenuFocusOut,
    });
  }

  /** In the header: the thread's title and rename, or why the preview is off; and the trace, when one is open. */
  private __header() {
    const { host, text: t, chat } = this.__ctx;
    if (!host.preview) return nothing;
    const { access, thread, rename, trace } = this.__view.value;
    if (access === 'scope' || access === 'refused') return renderNote(access === 'scope' ? t.previewNoManagement : t.previewRefused);
    if (access !== 'on') return nothing;
    const title =
      thread && thread.id === chat.threadId
        ? renderTitle(t, {
            title: thread.title,
            text: this.__title,
            rename,
            onEdit: () => void this.__edit(),
            onInput: (text) => (this.__title = text),
            onSave: () => void this.__save(),
            onCancel: () => void this.__cancel(),
          })
        : nothing;
    return trace ? [title, renderTraceDialog(t, trace, { onClose: () => void this.__closeTrace() })] : title;
  }

  // --- the token and the records ----------------------------------------------------------

  private __connect(client: AgentClient): void {
    this.__requests.abort();
    const requests = (this.__requests = new AbortController());
    const { signal } = requests;
    this.__client = client;
    this.__api = null;
    this.__threadAsked = null;
    this.__tagsAsked.clear();
    this.__view.set({ access: 'checking', versions: [], thread: null, rename: null, menu: null, trace: null, tags: new Map() });
    // The token the conversation already uses (a login session's serves both surfaces).
    client.ctx.tokens.get().then(
      (token) => {
        if (signal.aborted) return;
        const { management, agentId } = tokenAccess(token);
        if (!management) return this.__off('scope');
        const api = (this.__api = new ManagementClient(client));
        this.__view.set({ access: 'on' });
        if (agentId) {
          api.versions(agentId, { signal }).then(
            (versions) => this.__view.set({ versions }),
            (error: unknown) => this.__failed(error, "the agent's versions could not be loaded; the rerun menu is left out."),
          );
        }
      },
      // No token at all: the conversation says so; the next client is checked again.
      () => this.__view.set({ access: 'idle' }),
    );
  }

  /** Turns the preview off and says why (in the header, and once in the console); the chat goes on. */
  private __off(why: Off, error?: unknown): void {
    this.__requests.abort();
    this.__traceRequest?.abort();
    this.__api = null;
    warnOnce(
      why === 'scope'
        ? '`preview` is set, but the token serves messaging only (its scope has no "management"): the preview is off. ' +
            'A builder\'s page gives `tokenProvider` a login session\'s token (README "Builder preview").'
        : 'the service refused a management request: the preview is off until the token changes.',
      error,
    );
    const had = (this.__ctx.host.renderRoot as ShadowRoot).activeElement;
    this.__view.set({ access: why, rename: null, menu: null, trace: null });
    // What had focus may go with the preview (the trace, the rename field, a reply's trace
    // button): the reader goes on in the text field, not on the page's body.
    if (had) void this.__ctx.host.updateComplete.then(() => had.isConnected || this.__ctx.focusInput());
  }

  /** A management request failed: a refusal turns the preview off; anything else is warned (or said where it shows). */
  private __failed(error: unknown, what: string): boolean {
    if (isApiError(error) && error.kind === 'abort') return true;
    if (refusal(error)) {
      this.__off('refused', error);
      return true;
    }
    warnOnce(`preview: ${what}`, error);
    return false;
  }

  private __loadThread(threadId: string | null): void {
    this.__threadAsked = threadId;
    // A rename begun on another thread is not this one's.
    if (this.__view.value.rename) this.__view.set({ rename: null });
    const { __api: api } = this;
    if (!api || !threadId) return;
    api.thread(threadId, { signal: this.__requests.signal }).then(
      (thread) => {
        this.__tag(thread);
        if (this.__ctx.chat.threadId === thread.id) this.__view.set({ thread });
      },
      (error: unknown) => this.__failed(error, 'the thread could not be read; its title is left out.'),
    );
  }

  /** Keeps `thread`'s version tag for the labels. */
  private __tag(thread: ThreadRecord): void {
    this.__tagsAsked.add(thread.id);
    const tags = new Map(this.__view.value.tags);
    tags.set(thread.id, thread.version_tag ?? '');
    // The oldest go first: a Map keeps its insertion order.
    while (tags.size > MAX_TAGS) tags.delete(tags.keys().next().value!);
    this.__view.set({ tags });
  }

  /**
   * The threads whose version a navigator in this thread shows (the one each turn's version
   * is from), asked for once each. Worked out when the branches, the thread or the number
   * of messages change, not per token.
   */
  private __askTags(): void {
    const { chat } = this.__ctx;
    const { branches, threadId } = chat;
    const key = [branches, threadId, this.__turns.size];
    if (!threadId || !branches.length || key.every((k, i) => k === this.__askedFor[i])) return;
    this.__askedFor = key;
    const index = branchIndex(branches);
    for (const turn of new Set(this.__turns.values())) {
      const position = index.position(threadId, turn);
      const thread = position?.threads[position.index];
      if (!thread || thread === threadId || this.__tagsAsked.has(thread) || this.__tagsAsked.size >= MAX_TAGS) continue;
      this.__tagsAsked.add(thread);
      this.__api?.thread(thread, { signal: this.__requests.signal }).then(
        (record) => this.__tag(record),
        (error: unknown) => this.__failed(error, "a branch's thread could not be read; its version is not labelled."),
      );
    }
  }

  // --- rename -------------------------------------------------------------------------------

  private async __edit(): Promise<void> {
    const { host } = this.__ctx;
    this.__title = this.__view.value.thread?.title ?? '';
    this.__view.set({ rename: { saving: false, error: null } });
    await host.updateComplete;
    const field = host.renderRoot.querySelector<HTMLInputElement>('.rename-input');
    field?.focus();
    field?.select();
  }

  private async __save(): Promise<void> {
    const { __api: api } = this;
    const { thread, rename } = this.__view.value;
    if (!api || !thread || !rename || rename.saving) return;
    const title = this.__title.trim() || null;
    this.__view.set({ rename: { saving: true, error: null } });
    try {
      const saved = await api.rename(thread.id, title, { signal: this.__requests.signal });
      emit(this.__ctx.host, 'agent-chat-preview-rename', { threadId: saved.id, title: saved.title });
      // The reader may have moved to another thread meanwhile: its title is not this one.
      if (this.__ctx.chat.threadId !== saved.id) return;
      this.__view.set({ thread: saved, rename: null });
      await this.__focus('[part="rename-button"]');
    } catch (error) {
      if (this.__failed(error, 'the title could not be saved.') || this.__ctx.chat.threadId !== thread.id) return;
      // Said in place; the field keeps what was typed.
      this.__view.set({ rename: { saving: false, error: this.__ctx.text.renameFailed(detailOf(error)) } });
      await this.__focus('.rename-input');
    }
  }

  private async __cancel(): Promise<void> {
    this.__view.set({ rename: null });
    await this.__focus('[part="rename-button"]');
  }

  private async __focus(selector: string): Promise<void> {
    const { host } = this.__ctx;
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  // --- versions -----------------------------------------------------------------------------

  private async __toggleMenu(m: ChatMessage): Promise<void> {
    const open = this.__view.value.menu !== m.key;
    this.__view.set({ menu: open ? m.key : null });
    if (open) await this.__focus(`[data-key="${CSS.escape(m.key)}"] [part="version-menu"] button`);
  }

  /** Escape closes the version menu, and focus goes back to its button. */
  private readonly __onMenuKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the menu only; it must not close the launcher too.
    event.stopPropagation();
    const key = this.__view.value.menu;
    this.__view.set({ menu: null });
    void this.__focus(`[data-key="${CSS.escape(key ?? '')}"] [part="version-button"]`);
  };

  /**
   * Focus left the menu (a click or Tab elsewhere): it closes, as a disclosure does. Its own
   * button toggles it; focus going nowhere (the window losing it) leaves it open for the
   * reader's return.
   */
  private readonly __onMenuFocusOut = (event: FocusEvent): void => {
    const menu = event.currentTarget as HTMLElement;
    const to = event.relatedTarget as Node | null;
    if (to ? menu.contains(to) || to === menu.previousElementSibling : !document.hasFocus()) return;
    this.__view.set({ menu: null });
  };

  /** Reruns reply `m` on version `versionId`: as Regenerate does, pinned (src/state/turns.ts `rerun`). */
  private __rerun(m: ChatMessage, versionId: string | undefined): void {
    const { chat } = this.__ctx;
    const turn = this.__turns.get(m.key);
    const question = turn === undefined ? undefined : chat.state.messages.filter((x) => x.role === 'user')[turn];
    if (!question || !m.id || !versionId || !this.__view.value.versions.some((v) => v.id === versionId) || this.__ctx.sendHeld()) return;
    this.__view.set({ menu: null });
    chat.useTurns().then(
      (turns) => turns.rerun(turn!, m.id!, question.text, { versionId }),
      (error: unknown) => chat.fail(error, null),
    );
  }

  // --- trace --------------------------------------------------------------------------------

  private async __openTrace(m: ChatMessage): Promise<void> {
    const { __api: api } = this;
    const { host } = this.__ctx;
    if (!api || !m.id) return;
    this.__traceRequest?.abort();
    const request = (this.__traceRequest = new AbortController());
    this.__view.set({ trace: { key: m.key, trace: null, error: null } });
    await host.updateComplete;
    const dialog = host.renderRoot.querySelector<HTMLDialogElement>('dialog.trace');
    if (dialog && !dialog.open) dialog.showModal();
    try {
      const trace = await api.trace(m.id, { signal: AbortSignal.any([request.signal, this.__requests.signal]) });
      if (this.__view.value.trace?.key === m.key) this.__view.set({ trace: { key: m.key, trace, error: null } });
    } catch (error) {
      if (request.signal.aborted || this.__failed(error, 'a trace could not be loaded.')) return;
      if (this.__view.value.trace?.key === m.key)
        this.__view.set({ trace: { key: m.key, trace: null, error: this.__ctx.text.traceFailed(detailOf(error)) } });
    }
  }

  /** The dialog closed (Escape, its button): focus goes back to the reply's Trace button. */
  private async __closeTrace(): Promise<void> {
    this.__traceRequest?.abort();
    const key = this.__view.value.trace?.key;
    this.__view.set({ trace: null });
    if (key) await this.__focus(`[data-key="${CSS.escape(key)}"] [part="trace-button"]`);
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
