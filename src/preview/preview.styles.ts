import { css } from '@lit/reactive-element/css-tag.js';
import { smallButtonStyles } from '../icons/small-buttons.styles.js';

/** The preview chunk's stylesheet (header title, version menu and label, the trace dialog), adopted when it arrives. */
const own = css`
  /* The title sits beside the heading; the heading gives up the room it takes otherwise. */
  .header:has(.thread-title) h2 {
    flex: 0 1 auto;
  }

  .thread-title {
    display: flex;
    flex: 1 1 auto;
    align-items: center;
    gap: 4px;
    min-width: 0;
    color: var(--_muted);
    font-size: 0.9em;
  }

  .thread-title-text {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  /* Renaming: the field and its buttons take the header's row; what went wrong, the line under it. */
  .thread-title.rename {
    display: contents;
  }

  .rename-input {
    flex: 1 1 6em;
    min-width: 0;
    padding: 4px 8px;
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
  }

  .header:has(.preview-line) {
    flex-wrap: wrap;
  }

  .preview-line {
    flex-basis: 100%;
    order: 1;
    margin: 0;
    font-size: 0.8em;
    color: var(--_muted);
  }

  .rename-error,
  .trace-error {
    color: var(--_danger);
  }

  .version-label {
    padding: 1px 6px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }

  .version-menu {
    display: inline-flex;
    flex-wrap: wrap;
    gap: 4px;
  }

  .version-menu .text-button {
    min-height: 26px;
    padding: 1px 8px;
    color: var(--_text);
    font-size: inherit;
  }

  /* The meta row wraps when the menu is open in a narrow widget. */
  .meta:has(.version-menu) {
    flex-wrap: wrap;
  }

  dialog.trace {
    width: min(720px, calc(100vw - 32px));
    max-height: min(85vh, 900px);
    padding: 0 var(--_space) var(--_space);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
    box-shadow: var(--_shadow);
  }

  dialog.trace::backdrop {
    background: rgb(0 0 0 / 0.35);
  }

  .trace-head {
    position: sticky;
    top: 0;
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding-block: calc(var(--_space) / 2);
    background: var(--_bg);
  }

  .trace-head h3 {
    margin: 0;
    font-size: 1.05em;
  }

  .trace-summary {
    margin: 0 0 8px;
    color: var(--_muted);
    font-size: 0.9em;
  }

  .trace-steps {
    display: grid;
    gap: 8px;
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .trace-step {
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
  }

  .trace-step-head {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 6px;
    margin: 0;
  }

  .trace-step-type {
    padding: 0 6px;
    border-radius: 6px;
    background: var(--_surface);
    font-size: 0.85em;
    font-weight: 600;
  }

  .trace-step-name {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    overflow-wrap: anywhere;
  }

  .trace-step-time {
    margin-inline-start: auto;
    color: var(--_muted);
    font-size: 0.85em;
    font-variant-numeric: tabular-nums;
  }

  .trace-facts {
    display: flex;
    flex-wrap: wrap;
    gap: 2px 12px;
    margin: 6px 0 0;
    font-size: 0.9em;
  }

  .trace-facts div {
    display: flex;
    gap: 4px;
    min-width: 0;
  }

  .trace-facts dt {
    color: var(--_muted);
  }

  .trace-facts dd {
    margin: 0;
    overflow-wrap: anywhere;
  }

  .trace-json {
    margin-top: 6px;
    font-size: 0.85em;
  }

  .trace-json summary {
    color: var(--_muted);
    cursor: pointer;
  }

  .trace-json pre {
    max-height: 320px;
    margin: 4px 0 0;
    padding: 8px;
    overflow: auto;
    border-radius: 8px;
    background: var(--_code-bg);
    color: var(--_code-text);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

/** With the small icon buttons it draws (src/icons/small-buttons.styles.ts). */
export const styles = [smallButtonStyles, own];
