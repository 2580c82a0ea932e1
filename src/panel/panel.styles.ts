import { css } from '@lit/reactive-element/css-tag.js';

/** The panel frame: the surface, its header and the icon buttons every feature uses. */
export const panelStyles = css`
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

  .header {
    display: flex;
    align-items: center;
    gap: calc(var(--_space) / 2);
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-bottom: 1px solid var(--_border);
    flex: none;
  }

  /* The host's note under the composer; its own styles win over these. */
  ::slotted([slot='footer']) {
    display: block;
    padding: 0 var(--_space) calc(var(--_space) / 2);
    color: var(--_muted);
    font-size: 0.8em;
    text-align: center;
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

  .icon-button:disabled {
    opacity: 0.4;
    cursor: default;
  }

  .panel[dir='rtl'] .flip {
    transform: scaleX(-1);
    transform-origin: center;
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

  @media (prefers-reduced-motion: reduce) {
    :host([mode='launcher']) .panel {
      animation: none;
    }
  }

  @media (forced-colors: active) {
    .icon-button:disabled {
      color: GrayText;
    }
  }
`;
