import { css } from '@lit/reactive-element/css-tag.js';

/** The message log: messages and bubbles, their meta line, typing, "show earlier" and "jump to latest". */
export const logStyles = css`
  /* ---- log ---- */
  .log-wrap {
    position: relative;
    flex: 1;
    min-height: 6rem;
    display: flex;
    flex-direction: column;
  }

  .log {
    flex: 1;
    overflow-y: auto;
    /*
     * Room for a scrollbar whether or not it shows: the space under a placed turn
     * (src/log/reading.ts) makes the log scroll, and a scrollbar that comes and goes would
     * change the width of every message (and make the log's ResizeObserver loop).
     */
    scrollbar-gutter: stable;
    overscroll-behavior: contain;
    padding: var(--_space);
    scroll-padding-bottom: var(--_space);
  }

  /* The content box whose size the log follows (src/log/log.ts). */
  .log-content {
    display: flex;
    flex-direction: column;
    gap: var(--_space);
  }

  .log-content > * {
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
    /* A reply takes the whole column where the column is narrow (a phone, the launcher's
       panel: up to 480px, so a table or code has the room), 85% of a wider one. */
    max-width: min(640px, max(85%, min(100%, 480px)));
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

  /* ---- typing ---- */
  .typing {
    display: inline-flex;
    gap: 4px;
    align-items: center;
    padding: 14px 16px;
    border-radius: var(--_radius);
    background: var(--_surface);
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

  /* The messages outside the window and their box (src/log/log.ts, hidden): out of the column's flow and gaps, no size. */
  .found {
    position: absolute;
    width: 0;
  }

  @media (prefers-reduced-motion: reduce) {
    .typing span {
      animation: none;
    }
  }

  @media (forced-colors: active) {
    .bubble,
    .typing {
      border: 1px solid CanvasText;
    }

    .message.user .bubble :focus-visible {
      outline: 2px solid Highlight;
    }

    .typing span {
      forced-color-adjust: none;
      background: CanvasText;
    }
  }
`;
