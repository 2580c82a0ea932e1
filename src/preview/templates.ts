/**
 * The preview's controls: beside a reply's turn controls (its version's label, the version
 * menu, Trace), and in the header (the thread's title and its rename form, or why the
 * preview is off). The reply's controls say what they do in `data-act` (the panel's one
 * click listener serves them: a reply adds no listener); every text is bound as text.
 */
import { html, nothing } from 'lit-html';
import { live } from '../live.js';
import type { AgentVersion } from '../client/management.js';
import type { Strings } from '../i18n/strings.js';

export interface ReplyControlsView {
  /** The version tag of the thread this turn's version is from, beside its navigator. */
  tag: string | undefined;
  versions: readonly AgentVersion[];
  menuOpen: boolean;
  /** A turn runs: no rerun now. */
  busy: boolean;
  onMenuKey(event: KeyboardEvent): void;
  onMenuFocusOut(event: FocusEvent): void;
}

/** `‹ 2 / 2 › v1.1-preview`, then the version menu's button (and its versions, when open), then Trace. */
export function renderReplyControls(t: Strings, v: ReplyControlsView) {
  return html`${v.tag ? html`<span part="version-label" class="version-label">${v.tag}</span>` : nothing}${
    v.versions.length ? renderVersions(t, v) : nothing
  }<button part="trace-button" class="icon-button small" type="button" aria-label=${t.trace} title=${t.trace} aria-haspopup="dialog"
    data-act="trace"
    ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 12h4l3-7 4 14 3-7h4" /></svg
  ></button>`;
}

/** The versions of the agent a rerun may run on: a button that shows them (a disclosure), each a rerun pinned to it. */
function renderVersions(t: Strings, v: ReplyControlsView) {
  const menu = v.menuOpen
    ? html`<div part="version-menu" class="version-menu" role="group" aria-label=${t.rerunVersion} @keydown=${v.onMenuKey} @focusout=${v.onMenuFocusOut}>
        ${v.versions.map(
          (version) =>
            html`<button type="button" class="text-button" ?disabled=${v.busy} data-act="rerun-version" data-version=${version.id}>
              ${version.live ? t.versionLive(version.tag) : version.tag}
            </button>`,
        )}
      </div>`
    : nothing;
  return html`<button part="version-button" class="icon-button small" type="button" aria-label=${t.rerunVersion} title=${t.rerunVersion}
      aria-expanded=${v.menuOpen ? 'true' : 'false'} ?disabled=${v.busy} data-act="versions"
      ><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 3l9 5-9 5-9-5 9-5zM3 13l9 5 9-5M3 17l9 5 9-5" /></svg></button
    >${menu}`;
}

export interface TitleView {
  title: string | null;
  /** The rename field's text, as typed. */
  text: string;
  rename: { saving: boolean; error: string | null } | null;
  onEdit(): void;
  onInput(text: string): void;
  onSave(): void;
  onCancel(): void;
}

/** The thread's title beside the heading, with Rename; renaming, a field (Enter saves, Escape cancels) and what went wrong. */
export function renderTitle(t: Strings, v: TitleView) {
  if (!v.rename) {
    return html`<div part="thread-title" class="thread-title">
      <span class="thread-title-text" title=${v.title ?? nothing}>${v.title ?? t.untitledThread}</span>
      <button part="rename-button" class="icon-button small" type="button" aria-label=${t.renameThread} title=${t.renameThread} @click=${v.onEdit}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" /></svg>
      </button>
    </div>`;
  }
  const { saving, error } = v.rename;
  const save = (event: Event) => {
    event.preventDefault();
    v.onSave();
  };
  return html`<form part="thread-title" class="thread-title rename" @submit=${save}>
    <input
      part="rename-input"
      class="rename-input"
      aria-label=${t.threadTitle}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${error ? 'rename-error' : nothing}
      .value=${live(v.text)}
      ?readonly=${saving}
      @input=${(e: Event) => v.onInput((e.target as HTMLInputElement).value)}
      @keydown=${(e: KeyboardEvent) => {
        // Escape cancels the rename only; it must not close the launcher too.
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        v.onCancel();
      }}
    />
    <button class="text-button" type="submit" ?disabled=${saving}>${t.saveTitle}</button>
    <button class="text-button" type="button" @click=${v.onCancel}>${t.cancelRename}</button>
    ${error ? html`<p id="rename-error" class="preview-line rename-error" role="alert">${error}</p>` : nothing}
  </form>`;
}

/** Why the preview is off: a developer reads it under the header. */
export function renderNote(text: string) {
  return html`<p part="preview-note" class="preview-line preview-note">${text}</p>`;
}
