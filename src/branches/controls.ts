/**
 * The controls under a finished turn (regenerate a reply, edit a message, move between the
 * versions of a turn), part of the branches chunk: fetched with the first message sent.
 * They say what they do in `data-act` (the panel's one click listener serves them: a turn
 * adds no listener), and each button's icon is written into its template (a nested icon
 * template is two more nodes per button, on every message).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import type { Strings } from '../i18n/strings.js';
import type { BranchPosition } from '../state/branch-index.js';

type Labels = Pick<Strings, 'regenerate' | 'edit' | 'previousVersion' | 'nextVersion' | 'versionPosition'>;

/** "‹ 2 / 3 ›": moves between the alternatives of one turn (`data-act="version"`, to `data-thread`). */
export function renderBranchNav(position: BranchPosition | null, strings: Labels) {
  if (!position) return nothing;
  const { threads, index } = position;
  const previous = threads[index - 1];
  const next = threads[index + 1];
  return html`<div part="branch-nav" class="branch-nav" role="group" aria-label=${strings.versionPosition(index + 1, threads.length)}
    ><button type="button" class="icon-button small" aria-label=${strings.previousVersion} title=${strings.previousVersion}
      ?disabled=${!previous} data-act="version" data-thread=${previous ?? ''}
      ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path class="flip" d="M15 6l-6 6 6 6" /></svg></button
    ><span aria-hidden="true">${index + 1} / ${threads.length}</span
    ><button type="button" class="icon-button small" aria-label=${strings.nextVersion} title=${strings.nextVersion}
      ?disabled=${!next} data-act="version" data-thread=${next ?? ''}
      ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path class="flip" d="M9 6l6 6-6 6" /></svg></button
  ></div>`;
}

/** Regenerate a reply (`data-act="regenerate"`). */
export function renderRegenerate(strings: Labels, disabled: boolean): TemplateResult {
  return html`<button part="regenerate-button" class="icon-button small" type="button" aria-label=${strings.regenerate}
    title=${strings.regenerate} ?disabled=${disabled} data-act="regenerate"
    ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" /></svg
  ></button>`;
}

/** Edit a question (`data-act="edit"`). */
export function renderEditButton(strings: Labels, disabled: boolean): TemplateResult {
  return html`<button part="edit-button" class="icon-button small" type="button" aria-label=${strings.edit} title=${strings.edit}
    ?disabled=${disabled} data-act="edit"
    ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" /></svg
  ></button>`;
}
