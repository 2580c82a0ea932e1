import { css } from '@lit/reactive-element/css-tag.js';

/** The disclaimer above the messages until it is accepted, adopted with its chunk. */
export const styles = css`
  .disclaimer {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: calc(var(--_space) / 2);
    margin: calc(var(--_space) / 2) var(--_space) 0;
    padding: calc(var(--_space) * 0.75) var(--_space);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    max-height: 40%;
    overflow-y: auto;
  }

  .disclaimer > .text > :first-child {
    margin-top: 0;
  }

  .disclaimer > .text > :last-child {
    margin-bottom: 0;
  }

  .disclaimer-accept {
    border-color: var(--_accent);
    color: var(--_accent);
    font-weight: 600;
  }
`;
