import { nothing } from 'lit-html';
import { turnControls } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';

type BranchesModule = typeof import('./index.js');

/** A turn that can be rerun: one with an id, or one stopped or cut off (a rerun finds its id in the transcript). */
const rerunnable = (m: ChatMessage) => !!m.id || m.state === 'stopped' || m.state === 'interrupted';

/**
 * Where regenerate, edit and the version navigator sit in the panel (the chunk is
 * index.ts): fetched as a thread loads, with the first turn (while the agent thinks) or
 * when the first message that can be rerun shows (such a render waits for it a little).
 */
export class TurnSlot {
  private readonly feature: Feature<BranchesModule>;
  private control: InstanceType<BranchesModule['TurnControls']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(turnControls);
  }

  /** A turn starts: fetched while the agent thinks. */
  prefetch(): void {
    void this.feature.want();
  }

  sync(state: ConversationState): void {
    if (!this.feature.module && state.messages.some(rerunnable)) void this.feature.want(true);
  }

  willUpdate(): void {
    const module = this.feature.module;
    if (module) this.control ??= new module.TurnControls(this.ctx);
    this.control?.willUpdate();
  }

  render(m: ChatMessage) {
    return this.control?.render(m) ?? nothing;
  }

  /** The editor, when this user message is being edited; null otherwise. */
  editor(m: ChatMessage) {
    return this.control?.isEditing(m) ? this.control.renderEditor(m) : null;
  }
}
