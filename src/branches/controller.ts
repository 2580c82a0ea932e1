import { html, nothing } from 'lit-html';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { renderBranchNav, renderEditButton, renderRegenerate } from './controls.js';
import { renderEditor } from './editor.js';
import { branchIndex } from '../state/branch-index.js';

interface TurnInfo {
  /** Index among the user messages. */
  turn: number;
  /** The interaction id of the reply that answers it: what a rerun needs. */
  replyId?: string;
  /** Its reply was stopped or interrupted, or cut at max-reply-length mid-stream: a rerun finds the id in the transcript first. */
  unfinished: boolean;
}

const UNFINISHED = new Set<ChatMessage['state']>(['stopped', 'interrupted']);
/** A reply that ended before the service gave it an id (a stream cut at max-reply-length has none either). */
const unfinished = (m: ChatMessage) => UNFINISHED.has(m.state) || (!!m.truncated && !m.id);

/**
 * Branches in the panel, once this chunk is here (feature.ts loads it): which turn each
 * message belongs to, regenerate and edit (reruns into new threads, run by the
 * conversation), the editor's state, and the navigator between the versions of a turn.
 */
export class TurnControls {
  /** The user message being edited, and whether its editor holds no text (Save is off). */
  private readonly __view: ViewState<{ editing: { key: string; blank: boolean } | null }>;
  /**
   * The editor's text, as typed. Not view state: a keystroke that does not empty the editor
   * or fill it again changes nothing on screen, and a render of the panel for it would draw
   * every message in the window again (the navigators with them).
   */
  private __text = '';
  private __turns = new Map<string, TurnInfo>();
  /** The messages `turns` was worked out for. */
  private __counted: readonly ChatMessage[] | null = null;

  constructor(private readonly __ctx: PanelContext) {
    this.__view = new ViewState<{ editing: { key: string; blank: boolean } | null }>(__ctx.host, { editing: null });
    __ctx.onMessageAction('edit', (m) => void this.__edit(m));
    __ctx.onMessageAction('regenerate', (m) => this.__regenerate(m));
    __ctx.onMessageAction('version', (_, control) => control.dataset.thread && __ctx.chat.showBranch(control.dataset.thread));
  }

  private get __editing() {
    return this.__view.value.editing;
  }

  willUpdate(): void {
    const { messages } = this.__ctx.chat.state;
    if (messages !== this.__counted) this.__turns = turnsOf((this.__counted = messages));
  }

  isEditing(m: ChatMessage): boolean {
    return this.__editing?.key === m.key;
  }

  /** Regenerate, edit and the branch navigator for finished turns (stopped ones too). */
  render(m: ChatMessage) {
    const { chat } = this.__ctx;
    const info = this.__turns.get(m.key);
    if (!info || !(info.replyId || info.unfinished) || m.state === 'streaming' || m.state === 'queued' || !chat.threadId) return nothing;
    const t = this.__ctx.text;
    const busy = chat.busy;
    if (m.role === 'user') return this.__editing?.key === m.key ? nothing : renderEditButton(t, busy);
    const position = info.replyId ? branchIndex(chat.branches).position(chat.threadId, info.turn) : null;
    // Most turns have one version: the button alone, without a template around it.
    return position ? html`${renderRegenerate(t, busy)}${renderBranchNav(position, t)}` : renderRegenerate(t, busy);
  }

  /** The editor of a user message. */
  renderEditor(m: ChatMessage) {
    return renderEditor(this.__ctx.text, {
      text: this.__text,
      onInput: (text) => {
        this.__text = text;
        if (!text.trim() !== this.__editing?.blank) this.__view.set({ editing: { key: m.key, blank: !text.trim() } });
      },
      onSave: () => this.__submitEdit(m),
      onCancel: () => this.cancelEdit(),
    });
  }

  private async __edit(m: ChatMessage): Promise<void> {
    const { host } = this.__ctx;
    this.__text = m.text;
    this.__view.set({ editing: { key: m.key, blank: !m.text.trim() } });
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLTextAreaElement>('.edit-input')?.focus();
  }

  private __regenerate(reply: ChatMessage): void {
    const { chat } = this.__ctx;
    const info = this.__turns.get(reply.key);
    const user = chat.state.messages.filter((m) => m.role === 'user')[info?.turn ?? -1];
    if (!info || !(info.replyId || info.unfinished) || !user) return;
    this.__rerun(info.turn, info.replyId ?? null, user.text);
  }

  private __submitEdit(user: ChatMessage): void {
    const info = this.__turns.get(user.key);
    const text = this.__editing && this.__text.trim();
    // Held (the disclaimer not accepted yet): the editor stays open with the text written.
    if (!info || !(info.replyId || info.unfinished) || !text || this.__ctx.sendHeld()) return;
    this.__view.set({ editing: null });
    this.__rerun(info.turn, info.replyId ?? null, text);
  }

  private __rerun(turn: number, replyId: string | null, text: string): void {
    const { chat } = this.__ctx;
    if (this.__ctx.sendHeld()) return;
    chat.useTurns().then(
      (turns) => turns.rerun(turn, replyId, text),
      (error: unknown) => chat.fail(error, null),
    );
  }

  cancelEdit(): void {
    this.__view.set({ editing: null });
    this.__ctx.focusInput();
  }
}

/** Each message's turn and the id of the reply that answers it (what a rerun needs). */
function turnsOf(messages: readonly ChatMessage[]): Map<string, TurnInfo> {
  const turns = new Map<string, TurnInfo>();
  let turn = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') {
      turn += 1;
      const next = messages[i + 1];
      const answered = next?.role === 'agent' ? next : undefined;
      turns.set(m.key, {
        turn,
        replyId: answered?.state === 'done' ? answered.id : undefined,
        unfinished: !!answered && unfinished(answered),
      });
    } else if (turn >= 0) {
      turns.set(m.key, { turn, replyId: m.state === 'done' ? m.id : undefined, unfinished: unfinished(m) });
    }
  });
  return turns;
}
