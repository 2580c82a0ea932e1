import { css } from '@lit/reactive-element/css-tag.js';

/** The read-aloud button while it reads, adopted with its chunk. */
export const styles = css`
  .read-aloud[aria-pressed='true'] {
    color: var(--_accent);
    opacity: 1;
  }
`;
