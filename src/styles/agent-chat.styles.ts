import { css } from 'lit';

/**
 * Theme values are read once into private `--_*` variables, so every rule below uses one
 * name and a host overrides one public `--agent-chat-*` property. Each default is written
 * once, light and dark together (`light-dark()`); which one applies follows the host's
 * `color-scheme`: the system's for `theme="auto"`, fixed for `light` and `dark`.
 */
export const styles = css`
  :host {
    --_accent: var(--agent-chat-accent, light-dark(#4f46e5, #8b93ff));
    --_accent-text: var(--agent-chat-accent-text, light-dark(#ffffff, #0b0d12));
    --_bg: var(--agent-chat-background, light-dark(#ffffff, #15171c));
    --_surface: var(--agent-chat-surface, light-dark(#f3f4f6, #23262e));
    --_text: var(--agent-chat-text, light-dark(#111827, #eceef3));
    --_muted: var(--agent-chat-muted-text, light-dark(#5b6170, #a3a9b7));
    --_border: var(--agent-chat-border, light-dark(#d9dce3, #343844));
    --_danger: var(--agent-chat-danger, light-dark(#b42318, #ffb4ab));
    --_danger-surface: var(--agent-chat-danger-surface, light-dark(#fef3f2, #3b1d1a));
    --_radius: var(--agent-chat-radius, 14px);
    --_font: var(--agent-chat-font, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif);
    --_font-size: var(--agent-chat-font-size, 15px);
    --_space: var(--agent-chat-spacing, 12px);
    --_max-width: var(--agent-chat-max-width, 760px);
    --_launcher-size: var(--agent-chat-launcher-size, 56px);
    --_panel-width: var(--agent-chat-panel-width, 400px);
    --_panel-height: var(--agent-chat-panel-height, 640px);
    --_shadow: var(
      --agent-chat-shadow,
      0 12px 40px light-dark(rgb(15 23 42 / 0.18), rgb(0 0 0 / 0.5)),
      0 2px 8px light-dark(rgb(15 23 42 / 0.08), transparent)
    );
    --_focus: var(--agent-chat-focus-ring, light-dark(#2563eb, #93c5fd));
    --_code-bg: var(--agent-chat-code-background, light-dark(#0f172a, #0b0d12));
    --_code-text: var(--agent-chat-code-text, #e2e8f0);
    --_z: var(--agent-chat-z-index, 2147483000);

    display: block;
    box-sizing: border-box;
    height: 560px;
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.5;
    color-scheme: light dark;
  }

  :host([theme='light']) {
    color-scheme: light;
  }

  :host([theme='dark']) {
    color-scheme: dark;
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }

  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  /* ---- panel ---- */
  .panel {
    display: flex;
    flex-direction: column;
    height: 100%;
    min-height: 0;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }

  .panel[hidden] {
    display: none;
  }

  header {
    display: flex;
    align-items: center;
    gap: calc(var(--_space) / 2);
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-bottom: 1px solid var(--_border);
    flex: none;
  }

  h2 {
    flex: 1;
    margin: 0;
    font-size: 1.05em;
    font-weight: 650;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .icon-button {
    display: inline-grid;
    place-items: center;
    min-width: 36px;
    min-height: 36px;
    padding: 6px;
    border: 0;
    border-radius: 10px;
    background: transparent;
    color: var(--_muted);
  }

  .icon-button:hover {
    background: var(--_surface);
    color: var(--_text);
  }

  svg {
    width: 20px;
    height: 20px;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
    flex: none;
  }

  /* ---- log ---- */
  .log-wrap {
    position: relative;
    flex: 1;
    min-height: 0;
    display: flex;
  }

  .log {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: var(--_space);
    display: flex;
    flex-direction: column;
    gap: var(--_space);
    scroll-padding-bottom: var(--_space);
  }

  .log > * {
    width: 100%;
    max-width: var(--_max-width);
    margin-inline: auto;
  }

  /* The log spans the panel, whose overflow would clip an outer ring at the sides. */
  .log:focus-visible {
    outline-offset: -2px;
  }

  /* Messages take focus from the arrow keys (tabindex -1); the ring sits in the log's padding. */
  .message:focus-visible {
    outline-offset: 4px;
    border-radius: 6px;
  }

  .message {
    display: flex;
    flex-direction: column;
    gap: 6px;
    align-items: flex-start;
  }

  .message.user {
    align-items: flex-end;
  }

  .bubble {
    max-width: min(85%, 640px);
    padding: 10px 14px;
    border-radius: var(--_radius);
    background: var(--_surface);
    overflow-wrap: anywhere;
    min-width: 0;
  }

  .message.user .bubble {
    background: var(--_accent);
    color: var(--_accent-text);
    border-end-end-radius: 4px;
  }

  .message.agent .bubble {
    border-end-start-radius: 4px;
  }

  .message.user .bubble a {
    color: inherit;
  }

  /* The focus colour may be close to the accent: inside the user's bubble use its text colour. */
  .message.user .bubble :focus-visible {
    outline-color: var(--_accent-text);
  }

  .bubble img.attachment {
    display: block;
    max-width: 100%;
    max-height: 240px;
    border-radius: 10px;
    margin-bottom: 6px;
  }

  .meta {
    font-size: 0.8em;
    color: var(--_muted);
    padding-inline: 4px;
  }

  .message.interrupted .meta,
  .message.queued .meta {
    color: var(--_danger);
  }

  /* ---- turn controls, editor ---- */
  .meta {
    display: flex;
    align-items: center;
    gap: 4px;
    min-height: 24px;
  }

  .meta:empty {
    display: none;
  }

  .icon-button.small {
    min-width: 28px;
    min-height: 28px;
    padding: 4px;
  }

  .icon-button.small svg {
    width: 16px;
    height: 16px;
  }

  .icon-button:disabled {
    opacity: 0.4;
    cursor: default;
  }

  .message .meta .icon-button {
    opacity: 0.7;
  }

  .message:hover .meta .icon-button:not(:disabled),
  .message .meta .icon-button:focus-visible {
    opacity: 1;
  }

  .panel[dir='rtl'] .flip {
    transform: scaleX(-1);
    transform-origin: center;
  }

  /* ---- markdown ---- */
  .text > :first-child {
    margin-top: 0;
  }

  .text > :last-child {
    margin-bottom: 0;
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

  /* A long plain block comes in pieces (lex.ts plainBlocks); they read as one. */
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
    padding: 12px 14px;
    padding-top: 34px;
    overflow-x: auto;
  }

  .code-block code {
    padding: 0;
    background: none;
    color: inherit;
    white-space: pre;
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

  .table-scroll {
    overflow-x: auto;
    max-width: 100%;
  }

  .text table {
    border-collapse: collapse;
    font-size: 0.92em;
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

  /* ---- typing ---- */
  .typing {
    display: inline-flex;
    gap: 4px;
    align-items: center;
    padding: 14px 16px;
    border-radius: var(--_radius);
    background: var(--_surface);
    width: auto;
    margin-inline: 0;
  }

  .typing span {
    width: 7px;
    height: 7px;
    border-radius: 50%;
    background: var(--_muted);
    animation: blink 1.2s infinite ease-in-out both;
  }

  .typing span:nth-child(2) {
    animation-delay: 0.15s;
  }

  .typing span:nth-child(3) {
    animation-delay: 0.3s;
  }

  @keyframes blink {
    0%,
    80%,
    100% {
      opacity: 0.25;
    }
    40% {
      opacity: 1;
    }
  }

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

  .load-earlier {
    align-self: center;
    width: auto;
    color: var(--_muted);
  }

  /* ---- jump, notices ---- */
  .jump {
    position: absolute;
    inset-block-end: 10px;
    /* Physical on purpose: centred is centred in either direction. */
    left: 50%;
    transform: translateX(-50%);
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

  .notice {
    display: flex;
    gap: 10px;
    align-items: flex-start;
    margin: 0 var(--_space) calc(var(--_space) / 2);
    padding: 10px 12px;
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    border-radius: 10px;
    background: var(--_danger-surface);
    color: var(--_text);
    font-size: 0.92em;
  }

  .notice .notice-text {
    flex: 1;
    min-width: 0;
  }

  .notice strong {
    color: var(--_danger);
  }

  .notice ul {
    margin: 4px 0 0;
    padding-inline-start: 1.2em;
  }

  .notice .actions {
    display: flex;
    gap: 6px;
    flex: none;
  }

  .text-button {
    min-height: 30px;
    padding: 3px 12px;
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_bg);
  }

  .retry {
    border-color: var(--_accent);
    color: var(--_accent);
  }

  /* ---- composer ---- */
  form {
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

  /* ---- launcher ---- */
  :host([mode='launcher']) {
    position: fixed;
    inset-block-end: 20px;
    inset-inline-end: 20px;
    z-index: var(--_z);
    height: auto;
    width: auto;
  }

  .launcher {
    position: relative;
    display: grid;
    place-items: center;
    width: var(--_launcher-size);
    height: var(--_launcher-size);
    border: 0;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_accent-text);
    box-shadow: var(--_shadow);
    margin-inline-start: auto;
  }

  .launcher svg {
    width: 26px;
    height: 26px;
  }

  /*
   * The launcher sits on the host page, whose colour is unknown: a halo in the widget's own
   * background around the ring keeps the ring visible on light and dark pages alike.
   */
  .launcher:focus-visible {
    box-shadow:
      0 0 0 6px var(--_bg),
      var(--_shadow);
  }

  .unread {
    position: absolute;
    inset-block-start: 2px;
    inset-inline-end: 2px;
    width: 14px;
    height: 14px;
    border-radius: 50%;
    background: #e11d48;
    border: 2px solid var(--_bg);
  }

  :host([mode='launcher']) .panel {
    position: absolute;
    inset-block-end: calc(var(--_launcher-size) + 14px);
    inset-inline-end: 0;
    width: min(var(--_panel-width), calc(100vw - 40px));
    height: min(var(--_panel-height), calc(100vh - var(--_launcher-size) - 60px));
    box-shadow: var(--_shadow);
    animation: pop 180ms cubic-bezier(0.2, 0.8, 0.2, 1);
    transform-origin: bottom right;
  }

  @keyframes pop {
    from {
      opacity: 0;
      transform: translateY(8px) scale(0.98);
    }
  }

  @media (max-width: 480px) {
    :host([mode='launcher']) .panel {
      position: fixed;
      inset: 0;
      width: 100%;
      height: 100%;
      border-radius: 0;
      border: 0;
    }

    /* 16px or more keeps iOS from zooming into the page on focus (the editor's field too). */
    textarea {
      font-size: max(16px, 1em);
    }
  }

  /* The hand-off form's rules load with the form: channel-form.styles.ts. */

  @media (prefers-reduced-motion: reduce) {
    :host([mode='launcher']) .panel,
    .typing span {
      animation: none;
    }

    /* Nothing slides or glides: scrolling jumps (the element asks for 'auto' in script too). */
    *,
    *::before,
    *::after {
      animation-duration: 0s !important;
      transition-duration: 0s !important;
      scroll-behavior: auto !important;
    }
  }

  /*
   * Windows High Contrast and other forced colours replace backgrounds and drop shadows, so
   * everything drawn only with a background or a shadow gets a border or a system colour.
   */
  @media (forced-colors: active) {
    .bubble,
    .suggestion,
    .launcher,
    .send,
    .stop,
    .jump,
    .typing,
    .code-block {
      border: 1px solid CanvasText;
    }

    .send,
    .stop,
    .launcher,
    .text-button {
      border-color: ButtonText;
    }

    .send:disabled,
    .icon-button:disabled,
    .text-button:disabled {
      color: GrayText;
      border-color: GrayText;
    }

    :focus-visible,
    .message.user .bubble :focus-visible {
      outline: 2px solid Highlight;
    }

    /* Dots drawn as backgrounds would vanish: keep them, in system colours. */
    .unread {
      forced-color-adjust: none;
      background: Highlight;
      border-color: Canvas;
    }

    .typing span {
      forced-color-adjust: none;
      background: CanvasText;
    }
  }
`;
