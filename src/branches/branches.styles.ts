import { css } from '@lit/reactive-element/css-tag.js';
import { smallButtonStyles } from '../icons/small-buttons.styles.js';

/** The branches chunk's stylesheet (the version navigator, the inline editor), adopted when it arrives. */
const own = css`
  .branch-nav {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    font-variant-numeric: tabular-nums;
  }

  /* Sized by the message, not the viewport: the widget may be narrow on a wide page. */
  .bubble.editing {
    width: min(85%, 480px);
  }

  .edit-form {
    display: flex;
    flex-direction: column;
    gap: 6px;
  }

  .edit-input {
    width: 100%;
    min-height: 64px;
    max-height: 200px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
    resize: vertical;
  }

  .edit-actions {
    display: flex;
    justify-content: flex-end;
    gap: 6px;
  }

  /* The editor sits in the user's accent-coloured bubble. */
  .edit-form .text-button {
    color: var(--_text);
  }

  .edit-form .text-button.primary {
    color: var(--_accent);
    border-color: var(--_bg);
    font-weight: 600;
  }

  /* 16px or more keeps iOS from zooming into the page on focus. */
  @media (max-width: 480px) {
    .edit-input {
      font-size: max(16px, 1em);
    }
  }
`;

/** With the small icon buttons it draws (src/icons/small-buttons.styles.ts). */
export const styles = [smallButtonStyles, own];
