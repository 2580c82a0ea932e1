import { css } from '@lit/reactive-element/css-tag.js';

/** Suggestion chips: starters before the first message, follow-ups under the latest reply. */
export const suggestionsStyles = css`
  /* ---- suggestions ---- */
  .suggestions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
  }

  .suggestion {
    min-height: 32px;
    padding: 5px 12px;
    border: 1px solid var(--_accent);
    border-radius: 999px;
    background: transparent;
    color: var(--_accent);
    font-size: 0.92em;
    text-align: start;
  }

  .suggestion:hover {
    background: color-mix(in srgb, var(--_accent) 10%, transparent);
  }

  @media (forced-colors: active) {
    .suggestion {
      border: 1px solid CanvasText;
    }
  }
`;
