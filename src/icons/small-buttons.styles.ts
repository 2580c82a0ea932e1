import { css } from '@lit/reactive-element/css-tag.js';

/**
 * The small icon buttons (`.icon-button.small`: a reply's copy, read-aloud, feedback, turn
 * and preview controls in its meta line; the history list's). Only the features' chunks
 * draw them, so each adopts this with its own stylesheet (src/panel/feature.ts adopts a
 * sheet once per widget) and the panel's chunk carries none of it.
 */
export const smallButtonStyles = css`
  .icon-button.small {
    min-width: 28px;
    min-height: 28px;
    padding: 4px;
  }

  .icon-button.small svg {
    width: 16px;
    height: 16px;
  }

  /* In a message's meta line: quiet until the message is hovered or the button focused. */
  .message .meta .icon-button {
    opacity: 0.7;
  }

  .message:hover .meta .icon-button:not(:disabled),
  .message .meta .icon-button:focus-visible {
    opacity: 1;
  }
`;
