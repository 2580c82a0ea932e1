import { css } from '@lit/reactive-element/css-tag.js';

/**
 * The WhatsApp/SMS hand-off form. Loaded with the form (a lazy chunk) and adopted by the
 * widget's shadow root after its main stylesheet, which it relies on for the theme's
 * `--_*` variables and the `.text-button` look.
 */
export const styles = css`
  /* Also a <form>: undo the composer's form rules. */
  .channel-form {
    display: flex;
    flex-direction: column;
    align-items: stretch;
    gap: 6px;
    /*
     * As high as its content, taken from the log (which keeps its minimum): a short panel
     * (a phone on its side, 200% zoom) scrolls the form, whose actions stay in sight.
     */
    flex: 0 1 auto;
    min-height: 0;
    overflow-y: auto;
    /* What scrolls into view clears the sticky actions. */
    scroll-padding-bottom: calc(44px + var(--_space));
    padding: var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    font-size: 0.92em;
  }

  .channel-form p {
    margin: 0;
  }

  .channel-title {
    margin: 0;
    font-size: 1.05em;
    font-weight: 650;
  }

  .channel-choice {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 16px;
    margin: 0;
    padding: 0;
    border: 0;
  }

  .channel-choice legend {
    padding: 0;
    margin-bottom: 2px;
    color: var(--_muted);
  }

  .channel-choice label {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 32px;
    cursor: pointer;
  }

  .channel-choice input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: var(--_accent);
  }

  .channel-label {
    font-weight: 600;
  }

  .channel-phone {
    min-height: 44px;
    padding: 8px 12px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
    /* Numbers read left to right in every language; align with the surrounding text. */
    text-align: start;
  }

  .panel[dir='rtl'] .channel-phone {
    text-align: end;
  }

  .channel-phone[aria-invalid='true'] {
    border-color: var(--_danger);
    box-shadow: 0 0 0 1px var(--_danger);
  }

  .channel-hint,
  .channel-consent {
    color: var(--_muted);
    font-size: 0.92em;
  }

  .channel-error {
    color: var(--_danger);
  }

  div.channel-error {
    padding: 8px 10px;
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    border-radius: 10px;
    background: var(--_danger-surface);
    color: var(--_text);
  }

  div.channel-error strong {
    color: var(--_danger);
  }

  div.channel-error ul {
    margin: 4px 0 0;
    padding-inline-start: 1.2em;
  }

  .channel-actions {
    display: flex;
    justify-content: flex-end;
    gap: 8px;
    margin-top: 4px;
    position: sticky;
    bottom: calc(-1 * var(--_space));
    padding-block: 4px var(--_space);
    margin-bottom: calc(-1 * var(--_space));
    background: var(--_surface);
  }

  .channel-actions .text-button {
    min-height: 36px;
  }

  .channel-actions .primary {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_accent-text);
    font-weight: 600;
  }

  .channel-actions .primary:disabled {
    opacity: 0.6;
    cursor: default;
  }

  .channel-done {
    font-weight: 600;
  }

  @media (max-width: 480px) {
    .channel-phone {
      /* 16px or more keeps iOS from zooming into the page on focus. */
      font-size: max(16px, 1em);
    }
  }

  @media (forced-colors: active) {
    .channel-phone,
    .channel-actions .primary {
      border: 1px solid CanvasText;
    }
  }
`;
