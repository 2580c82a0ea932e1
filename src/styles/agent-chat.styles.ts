import { css } from 'lit';

/**
 * Theme values are read once into private `--_*` variables, so every rule below uses one
 * name and a host overrides one public `--agent-chat-*` property. Dark values apply for
 * `theme="dark"`, and for `theme="auto"` when the system prefers dark.
 */
export const styles = css`
  :host {
    --_accent: var(--agent-chat-accent, #4f46e5);
    --_accent-text: var(--agent-chat-accent-text, #ffffff);
    --_bg: var(--agent-chat-background, #ffffff);
    --_surface: var(--agent-chat-surface, #f3f4f6);
    --_text: var(--agent-chat-text, #111827);
    --_muted: var(--agent-chat-muted-text, #5b6170);
    --_border: var(--agent-chat-border, #d9dce3);
    --_danger: var(--agent-chat-danger, #b42318);
    --_danger-surface: var(--agent-chat-danger-surface, #fef3f2);
    --_radius: var(--agent-chat-radius, 14px);
    --_font: var(--agent-chat-font, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif);
    --_font-size: var(--agent-chat-font-size, 15px);
    --_space: var(--agent-chat-spacing, 12px);
    --_max-width: var(--agent-chat-max-width, 760px);
    --_launcher-size: var(--agent-chat-launcher-size, 56px);
    --_panel-width: var(--agent-chat-panel-width, 400px);
    --_panel-height: var(--agent-chat-panel-height, 640px);
    --_shadow: var(--agent-chat-shadow, 0 12px 40px rgb(15 23 42 / 0.18), 0 2px 8px rgb(15 23 42 / 0.08));
    --_focus: var(--agent-chat-focus-ring, #2563eb);
    --_code-bg: var(--agent-chat-code-background, #0f172a);
    --_code-text: var(--agent-chat-code-text, #e2e8f0);
    --_z: var(--agent-chat-z-index, 2147483000);

    display: block;
    box-sizing: border-box;
    height: 560px;
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.5;
    color-scheme: light;
  }

  :host([theme='dark']) {
    --_accent: var(--agent-chat-accent, #8b93ff);
    --_accent-text: var(--agent-chat-accent-text, #0b0d12);
    --_bg: var(--agent-chat-background, #15171c);
    --_surface: var(--agent-chat-surface, #23262e);
    --_text: var(--agent-chat-text, #eceef3);
    --_muted: var(--agent-chat-muted-text, #a3a9b7);
    --_border: var(--agent-chat-border, #343844);
    --_danger: var(--agent-chat-danger, #ffb4ab);
    --_danger-surface: var(--agent-chat-danger-surface, #3b1d1a);
    --_focus: var(--agent-chat-focus-ring, #93c5fd);
    --_code-bg: var(--agent-chat-code-background, #0b0d12);
    --_shadow: var(--agent-chat-shadow, 0 12px 40px rgb(0 0 0 / 0.5));
    color-scheme: dark;
  }

  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      --_accent: var(--agent-chat-accent, #8b93ff);
      --_accent-text: var(--agent-chat-accent-text, #0b0d12);
      --_bg: var(--agent-chat-background, #15171c);
      --_surface: var(--agent-chat-surface, #23262e);
      --_text: var(--agent-chat-text, #eceef3);
      --_muted: var(--agent-chat-muted-text, #a3a9b7);
      --_border: var(--agent-chat-border, #343844);
      --_danger: var(--agent-chat-danger, #ffb4ab);
      --_danger-surface: var(--agent-chat-danger-surface, #3b1d1a);
      --_focus: var(--agent-chat-focus-ring, #93c5fd);
      --_code-bg: var(--agent-chat-code-background, #0b0d12);
      --_shadow: var(--agent-chat-shadow, 0 12px 40px rgb(0 0 0 / 0.5));
      color-scheme: dark;
    }
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

  .branch-nav {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    font-variant-numeric: tabular-nums;
  }

  .panel[dir='rtl'] .flip {
    transform: scaleX(-1);
    transform-origin: center;
  }

  /* Sized by the message, not the viewport: the widget may be narrow on a wide page. */
  .bubble.editing {
    width: min(85%, 480px);
  }

  .edit-form {
    display: flex;
    flex-direction: column;
    gap: 6px;
  }

  .edit-input {
    width: 100%;
    min-height: 64px;
    max-height: 200px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
    resize: vertical;
  }

  .edit-actions {
    display: flex;
    justify-content: flex-end;
    gap: 6px;
  }

  /* The editor sits in the user's accent-coloured bubble. */
  .edit-form .text-button {
    color: var(--_text);
  }

  .edit-form .text-button.primary {
    color: var(--_accent);
    border-color: var(--_bg);
    font-weight: 600;
  }

  /* ---- history ---- */
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

  .text a {
    color: var(--_accent);
    text-underline-offset: 2px;
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

  /* ---- cards ---- */
  .cards {
    display: flex;
    gap: 10px;
    overflow-x: auto;
    scroll-snap-type: x proximity;
    padding: 2px 2px 8px;
    margin: 0;
    max-width: 100%;
    list-style: none;
    align-items: stretch;
  }

  /* min-width: 0 so an unbroken word in a card cannot make its column as wide as the word. */
  .cards > li {
    flex: 0 0 min(236px, 78%);
    min-width: 0;
    display: flex;
    scroll-snap-align: start;
  }

  .cards-more {
    margin-block: 2px 6px;
  }

  .card {
    position: relative;
    flex: 1;
    display: flex;
    flex-direction: column;
    gap: 6px;
    padding-bottom: 12px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    overflow: hidden;
    overflow-wrap: anywhere;
    min-width: 0;
    font-size: 0.9em;
  }

  .card > :not(img):not(.card-badge) {
    margin-inline: 12px;
  }

  .card > :not(img):first-child,
  .card > .card-badge:first-child + :not(img) {
    margin-top: 12px;
  }

  [part~='card-recommended'] {
    border-color: var(--_accent);
    box-shadow: 0 0 0 1px var(--_accent);
  }

  [part~='card-image'] {
    display: block;
    width: 100%;
    aspect-ratio: 4 / 3;
    object-fit: cover;
    background: var(--_surface);
  }

  .card-title {
    margin-block: 4px 0;
    font-weight: 650;
    font-size: 1.05em;
    line-height: 1.3;
  }

  .card-title a {
    color: inherit;
    text-decoration: none;
  }

  .card-title a:hover {
    text-decoration: underline;
  }

  /* The whole card is the link's target, so the whole card shows its focus. */
  .card-title a:focus-visible {
    outline: none;
  }

  .card-title a:focus-visible::after {
    outline: 2px solid var(--_focus);
    outline-offset: -2px;
    border-radius: var(--_radius);
  }

  .card-title a::after {
    /* The whole card is the link's hit area; the text stays one accessible name. */
    content: '';
    position: absolute;
    inset: 0;
  }

  .card-price {
    margin: 0;
    font-weight: 650;
    color: var(--_accent);
  }

  .card-description {
    margin: 0;
    color: var(--_muted);
    display: -webkit-box;
    -webkit-line-clamp: 3;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }

  .card-badge,
  .card-badge-custom {
    position: absolute;
    inset-block-start: 8px;
    inset-inline-start: 8px;
    padding: 2px 9px;
    border-radius: 999px;
    background: var(--_accent);
    color: var(--_accent-text);
    font-size: 0.8em;
    font-weight: 650;
  }

  .card-badge-custom {
    inset-inline-start: auto;
    inset-inline-end: 8px;
    background: var(--_text);
    color: var(--_bg);
  }

  [part~='card-fields'] {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 2px 10px;
    margin-block: 0;
    font-size: 0.92em;
  }

  [part~='card-fields'] > div {
    display: contents;
  }

  [part~='card-fields'] dt {
    color: var(--_muted);
  }

  [part~='card-fields'] dd {
    margin: 0;
    overflow-wrap: anywhere;
  }

  [part~='card-variants'] {
    display: flex;
    flex-direction: column;
    gap: 6px;
    font-size: 0.88em;
  }

  .card-variant > span {
    color: var(--_muted);
  }

  .card-variant ul {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    margin: 2px 0 0;
    padding: 0;
    list-style: none;
  }

  .card-variant li {
    padding: 0 8px;
    border: 1px solid var(--_border);
    border-radius: 999px;
  }

  .card-variant li.unavailable {
    color: var(--_muted);
    text-decoration: line-through;
    border-style: dashed;
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

  /* ---- attachments ---- */
  /* The preview, its error and the drop hint take a row of their own above the text field. */
  form[part='composer'] {
    flex-wrap: wrap;
  }

  form[part='composer'].dropping {
    outline: 2px dashed var(--_accent);
    outline-offset: -6px;
    background: color-mix(in srgb, var(--_accent) 8%, var(--_bg));
  }

  .attach {
    display: inline-grid;
    place-items: center;
    width: 44px;
    height: 44px;
    flex: none;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_bg);
    color: var(--_muted);
  }

  .attach:hover:not(:disabled) {
    color: var(--_text);
    background: var(--_surface);
  }

  .attach:disabled {
    opacity: 0.45;
    cursor: default;
  }

  .attachment-preview,
  .attachment-error,
  .drop-hint {
    flex: 1 0 100%;
    min-width: 0;
  }

  .attachment-preview {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 6px;
    padding-inline-start: 6px;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_surface);
  }

  .attachment-preview img {
    width: 48px;
    height: 48px;
    flex: none;
    object-fit: cover;
    border-radius: 8px;
    background: var(--_bg);
  }

  .attachment-preview.uploading img {
    opacity: 0.6;
  }

  .attachment-name {
    flex: 1;
    min-width: 0;
    overflow-wrap: anywhere;
    font-size: 0.9em;
  }

  .attachment-status {
    display: block;
    color: var(--_muted);
  }

  .attachment-status:empty {
    display: none;
  }

  .attachment-error {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 4px;
    padding-inline-start: 10px;
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    border-radius: 10px;
    background: var(--_danger-surface);
    color: var(--_danger);
    font-size: 0.9em;
  }

  .attachment-error > span {
    flex: 1;
    min-width: 0;
  }

  .drop-hint {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    min-height: 36px;
    color: var(--_accent);
    font-weight: 600;
  }

  @media (forced-colors: active) {
    .attach,
    .attachment-preview {
      border: 1px solid CanvasText;
    }
  }

  /* The hand-off form's rules load with the form: channel-form.styles.ts. */

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

    textarea,
    .edit-input {
      /* 16px or more keeps iOS from zooming into the page on focus. */
      font-size: max(16px, 1em);
    }
  }

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
    .card,
    .suggestion,
    .launcher,
    .send,
    .stop,
    .jump,
    .typing,
    .code-block,
    .card-badge,
    .card-badge-custom {
      border: 1px solid CanvasText;
    }

    .send,
    .stop,
    .launcher,
    .text-button {
      border-color: ButtonText;
    }

    [part~='card-recommended'] {
      border: 3px double CanvasText;
    }

    .history-open[aria-current='true'] {
      outline: 1px solid CanvasText;
    }

    .send:disabled,
    .icon-button:disabled,
    .text-button:disabled {
      color: GrayText;
      border-color: GrayText;
    }

    :focus-visible,
    .message.user .bubble :focus-visible,
    .card-title a:focus-visible::after {
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
