import { css } from '@lit/reactive-element/css-tag.js';

/**
 * The shell's styles: what an unopened launcher needs (the host, the button, its unread dot,
 * the notice shown when the panel cannot load) and the theme, which every feature reads.
 *
 * Theme values are read once into private `--_*` variables, so every rule below uses one
 * name and a host overrides one public `--agent-chat-*` property. Each default is written
 * once, light and dark together (`light-dark()`); which one applies follows the host's
 * `color-scheme`: the system's for `theme="auto"`, fixed for `light` and `dark`.
 */
export const shellStyles = css`
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
    --_code-bg: var(--agent-chat-code-background, light-dark(#f6f8fa, #0b0d12));
    --_code-text: var(--agent-chat-code-text, light-dark(#1f2328, #e2e8f0));
    --_z: var(--agent-chat-z-index, 2147483000);

    display: block;
    box-sizing: border-box;
    height: 560px;
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.5;
    color-scheme: light dark;
    /* Inherited text properties of the host page's containers stop here: only the
       --agent-chat-* properties and the parts change how the chat looks. */
    font-style: normal;
    font-variant: normal;
    font-weight: 400;
    font-stretch: normal;
    letter-spacing: normal;
    word-spacing: normal;
    text-align: start;
    text-indent: 0;
    text-transform: none;
    text-shadow: none;
    white-space: normal;
    word-break: normal;
    overflow-wrap: normal;
    hyphens: manual;
    cursor: auto;
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

  /* ---- notices (the shell shows one when the panel cannot load) ---- */

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

  .launcher [hidden] {
    display: none;
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

  @media (prefers-reduced-motion: reduce) {
    /* Nothing slides or glides: scrolling jumps (the panel asks for 'auto' in script too). */
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
   * Each feature's stylesheet adds its own parts.
   */
  @media (forced-colors: active) {
    .launcher,
    .text-button {
      border: 1px solid ButtonText;
    }

    .text-button:disabled {
      color: GrayText;
      border-color: GrayText;
    }

    :focus-visible {
      outline: 2px solid Highlight;
    }

    /* Dots drawn as backgrounds would vanish: keep them, in system colours. */
    .unread {
      forced-color-adjust: none;
      background: Highlight;
      border-color: Canvas;
    }
  }
`;
