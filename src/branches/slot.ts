import { nothing } from 'lit-html';
import { lazy } from '../lazy.js';
import { Feature } from '../panel/feature.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';

/** Turn controls and the editor (this folder), fetched with the first message sent or a finished turn. */
const loadBranches = lazy(() => import('./index.js'));

/**
 * Where regenerate, edit and the version navigator sit in the panel before their chunk
 * arrives: fetched with the first turn (while the agent thinks) or the first message that
 * has an id. Everything else is in the chunk (controller.ts).
 */
export class TurnSlot {
  private readonly feature: Feature<typeof import('./index.js')>;
  private control: import('./index.js').TurnControls | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = new Feature(loadBranches, ctx.host);
  }

  /** A turn starts: fetch the chunk while the agent thinks (again, if it failed before). */
  prefetch(): void {
    void (this.feature.failed ? this.feature.retry() : this.feature.ensure());
  }

  needs(): Array<Promise<unknown>> {
    // A chunk that failed is not fetched on every render; the next turn tries again.
    if (this.feature.failed) return [];
    // Turns with ids, or stopped ones (a rerun finds their id in the transcript).
    return this.ctx.chat.messages.some((m) => m.id || m.state === 'stopped' || m.state === 'interrupted')
      ? [this.feature.ensure(), ...(this.control?.needs() ?? [])]
      : [];
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
