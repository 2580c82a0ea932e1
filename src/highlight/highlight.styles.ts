import { css } from '@lit/reactive-element/css-tag.js';

/**
 * Colours of highlighted code (highlight.js's class names), adopted with the highlight
 * chunk. Six `--agent-chat-code-*` properties theme it; the defaults follow GitHub's light
 * and dark palettes and keep 4.5:1 against the default code backgrounds.
 */
export const styles = css`
  .hljs {
    --_hl-keyword: var(--agent-chat-code-keyword, light-dark(#cf222e, #ff7b72));
    --_hl-string: var(--agent-chat-code-string, light-dark(#0a3069, #a5d6ff));
    --_hl-comment: var(--agent-chat-code-comment, light-dark(#57606a, #8b949e));
    --_hl-number: var(--agent-chat-code-number, light-dark(#0550ae, #79c0ff));
    --_hl-function: var(--agent-chat-code-function, light-dark(#8250df, #d2a8ff));
    --_hl-type: var(--agent-chat-code-type, light-dark(#953800, #ffa657));
  }

  /* A block per piece (highlight.ts): a frame that changes the piece being written lays out
     that piece, not the whole block (its thousands of spans, every frame). Copying a
     selection still gives the code's own line breaks, and nothing more. */
  .hljs,
  .hljs > span,
  .plain-code,
  .plain-code > span {
    display: block;
  }

  .hljs-keyword,
  .hljs-selector-tag,
  .hljs-doctag,
  .hljs-template-tag,
  .hljs-meta .hljs-keyword,
  .hljs-deletion {
    color: var(--_hl-keyword);
  }

  .hljs-string,
  .hljs-regexp,
  .hljs-meta .hljs-string,
  .hljs-addition,
  .hljs-symbol {
    color: var(--_hl-string);
  }

  .hljs-comment,
  .hljs-quote,
  .hljs-code {
    color: var(--_hl-comment);
    font-style: italic;
  }

  .hljs-number,
  .hljs-literal,
  .hljs-attr,
  .hljs-attribute,
  .hljs-variable,
  .hljs-template-variable,
  .hljs-selector-attr,
  .hljs-selector-class,
  .hljs-selector-id,
  .hljs-operator {
    color: var(--_hl-number);
  }

  .hljs-title,
  .hljs-title.function_,
  .hljs-section,
  .hljs-name {
    color: var(--_hl-function);
  }

  .hljs-type,
  .hljs-built_in,
  .hljs-title.class_,
  .hljs-params,
  .hljs-meta,
  .hljs-tag,
  .hljs-selector-pseudo {
    color: var(--_hl-type);
  }

  .hljs-addition,
  .hljs-deletion {
    display: inline-block;
    width: 100%;
  }

  .hljs-strong {
    font-weight: 700;
  }

  .hljs-emphasis {
    font-style: italic;
  }

  @media (forced-colors: active) {
    .hljs * {
      color: CanvasText;
    }
  }
`;
