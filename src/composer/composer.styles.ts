import { css } from '@lit/reactive-element/css-tag.js';

/** The composer: the text field and its send/stop button (attachments bring their own rules). */
export const composerStyles = css`
  /* ---- composer ---- */
  /* Its own form only: the editor and the hand-off form are forms too (a bare \`form\` gave
     the edit bubble the composer's top border). */
  form[part='composer'] {
    display: flex;
    align-items: flex-end;
    gap: 8px;
    padding: calc(var(--_space) * 0.75) var(--_space) var(--_space);
    border-top: 1px solid var(--_border);
    flex: none;
  }

  textarea {
    flex: 1;
    min-height: 44px;
    max-height: 160px;
    padding: 10px 12px;
    resize: none;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
    line-height: 1.4;
  }

  textarea::placeholder {
    color: var(--_muted);
  }

  textarea:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 0;
  }

  .send,
  .stop {
    display: inline-grid;
    place-items: center;
    width: 44px;
    height: 44px;
    flex: none;
    border: 0;
    border-radius: 12px;
    background: var(--_accent);
    color: var(--_accent-text);
  }

  .stop {
    background: var(--_text);
    color: var(--_bg);
  }

  .send:disabled {
    opacity: 0.45;
    cursor: default;
  }

  /* 16px or more keeps iOS from zooming into the page on focus (the editor's field too). */
  @media (max-width: 480px) {
    textarea {
      font-size: max(16px, 1em);
    }
  }

  @media (forced-colors: active) {
    .send,
    .stop {
      border: 1px solid ButtonText;
    }

    .send:disabled {
      color: GrayText;
      border-color: GrayText;
    }
  }
`;
