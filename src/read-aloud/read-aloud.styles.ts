import { css } from '@lit/reactive-element/css-tag.js';
import { smallButtonStyles } from '../icons/small-buttons.styles.js';

/** The read-aloud button while it reads, adopted with its chunk. */
const own = css`
  /* As specific as the meta line's quiet buttons (small-buttons.styles.ts), which it follows. */
  .message .meta .read-aloud[aria-pressed='true'] {
    color: var(--_accent);
    opacity: 1;
  }
`;

/** With the small icon buttons it draws (src/icons/small-buttons.styles.ts). */
export const styles = [smallButtonStyles, own];
