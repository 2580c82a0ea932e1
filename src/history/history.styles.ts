import { css } from '@lit/reactive-element/css-tag.js';
import { smallButtonStyles } from '../icons/small-buttons.styles.js';

/** The history panel's stylesheet, adopted when the panel's chunk arrives (its first opening). */
const own = css`
  .history {
    position: absolute;
    inset: 0;
    z-index: 2;
    display: flex;
    flex-direction: column;
    background: var(--_bg);
    overflow: hidden;
  }

  .history-head {
    display: flex;
    align-items: center;
    padding: 8px var(--_space);
    border-bottom: 1px solid var(--_border);
  }

  .history-head h3 {
    flex: 1;
    margin: 0;
    font-size: 1em;
  }

  .history-list {
    flex: 1;
    overflow-y: auto;
    margin: 0;
    padding: 6px;
    list-style: none;
  }

  .history-list li {
    display: flex;
    align-items: center;
    gap: 4px;
  }

  .history-open {
    flex: 1;
    min-width: 0;
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 2px;
    min-height: 44px;
    padding: 6px 10px;
    border: 0;
    border-radius: 10px;
    background: transparent;
    text-align: start;
  }

  .history-open:hover,
  .history-open[aria-current='true'] {
    background: var(--_surface);
  }

  /* Wraps rather than truncates: at 200% zoom an ellipsis would hide most of the title. */
  .history-title {
    max-width: 100%;
    overflow-wrap: anywhere;
    font-weight: 550;
  }

  .history-date {
    font-size: 0.82em;
    color: var(--_muted);
  }

  .history-empty {
    margin: var(--_space);
    color: var(--_muted);
  }

  @media (forced-colors: active) {
    .history-open[aria-current='true'] {
      outline: 1px solid CanvasText;
    }
  }
`;

/** With the small icon buttons it draws (src/icons/small-buttons.styles.ts). */
export const styles = [smallButtonStyles, own];
