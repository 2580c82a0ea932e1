/**
 * The inline editor of a user message. Saving re-asks the edited text as a new branch of
 * the conversation (the element runs the rerun); Escape cancels, Enter saves, Shift+Enter
 * adds a line.
 */
import { html } from 'lit-html';
import { live } from '../live.js';
import type { Strings } from '../i18n/strings.js';

export interface EditorOptions {
  text: string;
  onInput(text: string): void;
  onSave(): void;
  onCancel(): void;
}

export function renderEditor(t: Strings, o: EditorOptions) {
  const save = (event: Event) => {
    event.preventDefault();
    o.onSave();
  };
  return html`<form class="edit-form" @submit=${save}>
    <textarea
      class="edit-input"
      aria-label=${t.edit}
      .value=${live(o.text)}
      @input=${(e: Event) => o.onInput((e.target as HTMLTextAreaElement).value)}
      @keydown=${(e: KeyboardEvent) => {
        // Escape cancels the edit only; it must not close the launcher too.
        if (e.key === 'Escape') {
          e.stopPropagation();
          o.onCancel();
        } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
          save(e);
        }
      }}
    ></textarea>
    <div class="edit-actions">
      <button type="button" class="text-button" @click=${o.onCancel}>${t.cancel}</button>
      <button type="submit" class="text-button primary" ?disabled=${!o.text.trim()}>${t.save}</button>
    </div>
  </form>`;
}
