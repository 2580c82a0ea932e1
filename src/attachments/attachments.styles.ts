import { css } from '@lit/reactive-element/css-tag.js';

/** The image attachment's stylesheet (composer preview, errors, drop hint), adopted when its chunk arrives. */
export const styles = css`
  /* The preview, its error and the drop hint take a row of their own above the text field. */
  form[part='composer'] {
    flex-wrap: wrap;
  }

  form[part='composer'].dropping {
    outline: 2px dashed var(--_accent);
    outline-offset: -6px;
    background: color-mix(in srgb, var(--_accent) 8%, var(--_bg));
  }

  .attach {
    display: inline-grid;
    place-items: center;
    width: 44px;
    height: 44px;
    flex: none;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_bg);
    color: var(--_muted);
  }

  .attach:hover:not(:disabled) {
    color: var(--_text);
    background: var(--_surface);
  }

  .attach:disabled {
    opacity: 0.45;
    cursor: default;
  }

  .attachment-preview,
  .attachment-error,
  .drop-hint {
    flex: 1 0 100%;
    min-width: 0;
  }

  .attachment-preview {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 6px;
    padding-inline-start: 6px;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_surface);
  }

  .attachment-preview img {
    width: 48px;
    height: 48px;
    flex: none;
    object-fit: cover;
    border-radius: 8px;
    background: var(--_bg);
  }

  .attachment-preview.uploading img {
    opacity: 0.6;
  }

  .attachment-name {
    flex: 1;
    min-width: 0;
    overflow-wrap: anywhere;
    font-size: 0.9em;
  }

  .attachment-status {
    display: block;
    color: var(--_muted);
  }

  .attachment-status:empty {
    display: none;
  }

  .attachment-error {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 4px;
    padding-inline-start: 10px;
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    border-radius: 10px;
    background: var(--_danger-surface);
    color: var(--_danger);
    font-size: 0.9em;
  }

  .attachment-error > span {
    flex: 1;
    min-width: 0;
  }

  .drop-hint {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    min-height: 36px;
    color: var(--_accent);
    font-weight: 600;
  }

  @media (forced-colors: active) {
    .attach,
    .attachment-preview {
      border: 1px solid CanvasText;
    }
  }
`;
