import { css } from '@lit/reactive-element/css-tag.js';

/** What the markdown renderer produces inside a bubble (`.text`): blocks, code with its copy button, tables. */
export const markdownStyles = css`
  /* ---- markdown ---- */
  .text > :first-child {
    margin-top: 0;
  }

  .text > :last-child {
    margin-bottom: 0;
  }

  /*
   * The boxes of a long reply's blocks (directive.ts GROUP_BITS): one out of view is neither
   * laid out nor painted. Its containment (stated for browsers without content-visibility)
   * keeps its blocks' margins inside, where they leave room for a focus ring; its negative
   * margins take the space they would have shared with the block before or after (two
   * boxes' margins meet as one). At the sides, the padding (the bubble's, given back by the
   * margin) keeps a list's markers and focus rings unclipped.
   */
  .text .g {
    content-visibility: auto;
    contain: content;
    contain-intrinsic-size: auto 50em;
    margin: -0.6em -14px;
    padding: 0 14px;
  }

  /* Its blocks draw nothing (link definitions, a line the tail guard holds back). */
  .text .g:empty {
    display: none;
  }

  .text p,
  .text ul,
  .text ol,
  .text blockquote,
  .text .code-block,
  .text .table-scroll,
  .text h1,
  .text h2,
  .text h3,
  .text h4,
  .text h5,
  .text h6 {
    margin: 0.6em 0;
  }

  .text h1,
  .text h2,
  .text h3,
  .text h4 {
    font-size: 1.05em;
    line-height: 1.3;
    white-space: normal;
  }

  .text ul,
  .text ol {
    padding-inline-start: 1.4em;
  }

  /* Isolated, so a bidi override in the text around a link cannot reorder what it shows. */
  .text a {
    color: var(--_accent);
    text-underline-offset: 2px;
    unicode-bidi: isolate;
  }

  /* The real host after link text that names another one (markdown.ts guardLinkText). */
  .text .link-host {
    color: var(--_muted);
  }

  /* A block over a limit of the markdown lexer, shown as its source (SECURITY.md "Limits"). */
  .text .plain,
  .text.plain {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  /* A long plain block comes in pieces (tokens.ts plainBlocks); they read as one. */
  .text .plain.continued {
    margin-top: 0;
  }

  .text .plain:has(+ .continued) {
    margin-bottom: 0;
  }

  .text blockquote {
    margin-inline: 0;
    padding-inline-start: 0.8em;
    border-inline-start: 3px solid var(--_border);
    color: var(--_muted);
  }

  .text code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
    padding: 0.1em 0.35em;
    border-radius: 5px;
    background: color-mix(in srgb, var(--_text) 10%, transparent);
  }

  .text img {
    max-width: 100%;
    height: auto;
  }

  .text hr {
    border: 0;
    border-top: 1px solid var(--_border);
  }

  .code-block {
    position: relative;
    border-radius: 10px;
    background: var(--_code-bg);
    color: var(--_code-text);
    max-width: 100%;
  }

  .code-block pre {
    margin: 0;
    padding: 34px 14px 12px;
    overflow-x: auto;
  }

  /* Its colour and white-space come from the block and the <pre>. */
  .code-block code {
    padding: 0;
    background: none;
  }

  .code-block .copy {
    position: absolute;
    inset-block-start: 4px;
    inset-inline-end: 4px;
    min-height: 26px;
    padding: 2px 10px;
    border: 1px solid color-mix(in srgb, var(--_code-text) 30%, transparent);
    border-radius: 7px;
    background: transparent;
    color: var(--_code-text);
    font-size: 0.8em;
  }

  /* The fence's language, across from the copy button. */
  .code-block .code-language {
    position: absolute;
    inset-block-start: 8px;
    inset-inline-start: 14px;
    color: color-mix(in srgb, var(--_code-text) 72%, var(--_code-bg));
    font-size: 0.75em;
  }

  .table-scroll {
    overflow-x: auto;
    max-width: 100%;
  }

  /* Words stay whole in tables (the bubble's overflow-wrap: anywhere broke headers mid-word);
     a wide table scrolls in its .table-scroll instead. */
  .text table {
    border-collapse: collapse;
    font-size: 0.92em;
    overflow-wrap: normal;
  }

  .text th,
  .text td {
    padding: 6px 10px;
    border: 1px solid var(--_border);
    text-align: start;
    vertical-align: top;
  }

  .text th {
    background: color-mix(in srgb, var(--_text) 6%, transparent);
  }

  @media (forced-colors: active) {
    .code-block {
      border: 1px solid CanvasText;
    }
  }
`;
