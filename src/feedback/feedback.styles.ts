import { css } from '@lit/reactive-element/css-tag.js';
import { smallButtonStyles } from '../icons/small-buttons.styles.js';

/** The feedback chunk's stylesheet (thumbs, the reason form), adopted when it arrives. */
const own = css`
  .feedback {
    display: inline-flex;
    gap: 2px;
  }

  .feedback [aria-pressed='true'] {
    color: var(--_accent);
    opacity: 1;
  }

  .feedback [aria-pressed='true'] path {
    fill: currentColor;
    fill-opacity: 0.2;
  }

  /* Under the row of its reply's actions (message.ts belowControls), the width of the column. */
  .feedback-form {
    display: flex;
    flex-direction: column;
    gap: 6px;
    margin-top: 4px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    color: var(--_text);
    font-size: 0.92em;
  }

  .feedback-reasons,
  .feedback-row {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    align-items: center;
  }

  .feedback-reasons button {
    min-height: 32px;
    padding: 4px 12px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: transparent;
    color: var(--_text);
    font: inherit;
    font-size: 0.92em;
  }

  .feedback-reasons button[aria-pressed='true'] {
    border-color: var(--_accent);
    color: var(--_accent);
    font-weight: 600;
  }

  .feedback-text {
    flex: 1;
    min-width: 10em;
    padding: 6px 8px;
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
  }

  @media (forced-colors: active) {
    .feedback [aria-pressed='true'],
    .feedback-reasons button[aria-pressed='true'] {
      outline: 2px solid Highlight;
    }
  }
`;

/** With the small icon buttons it draws (src/icons/small-buttons.styles.ts). */
export const styles = [smallButtonStyles, own];
