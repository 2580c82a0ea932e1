import { css } from '@lit/reactive-element/css-tag.js';

/** "Show earlier" and "jump to latest" (src/log/log.ts), which show once the reading moves' chunk is here. */
export const readingStyles = css`
  .load-earlier {
    align-self: center;
    width: auto;
    color: var(--_muted);
  }

  /* Under the log, in a strip of its own: it never covers a chip, a line of code or a card. */
  .jump {
    flex: none;
    align-self: center;
    margin-block: 6px;
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 32px;
    padding: 4px 14px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_bg);
    box-shadow: var(--_shadow);
    font-size: 0.88em;
  }

  @media (forced-colors: active) {
    .jump {
      border: 1px solid CanvasText;
    }
  }
`;
