import { css } from '@lit/reactive-element/css-tag.js';

/**
 * The built-in card row's stylesheet: adopted by the widget's shadow root when the cards
 * chunk arrives (the first reply with cards). It reads the theme's private `--_*`
 * variables that the element's stylesheet sets on `:host`.
 */
export const styles = css`
  /* The row and its previous/next buttons, over its ends while it scrolls (a pointer's way
     through it; keys use the arrows). */
  .cards-row {
    position: relative;
  }

  .card-nav {
    position: absolute;
    z-index: 1;
    inset-block-start: calc(50% - 22px);
    border: 1px solid var(--_border);
    border-radius: 50%;
    background: var(--_bg);
    color: var(--_text);
    box-shadow: 0 1px 4px rgb(0 0 0 / 0.15);
  }

  .card-nav.prev {
    inset-inline-start: 2px;
  }

  .card-nav.next {
    inset-inline-end: 2px;
  }

  .card-nav[hidden] {
    display: none;
  }

  .card-nav:disabled {
    visibility: hidden;
  }

  .card-nav.prev svg,
  .cards-row[dir='rtl'] .card-nav.next svg {
    transform: scaleX(-1);
  }

  .cards-row[dir='rtl'] .card-nav.prev svg {
    transform: none;
  }

  .cards {
    display: flex;
    gap: 10px;
    overflow-x: auto;
    scroll-snap-type: x proximity;
    scroll-behavior: smooth;
    /* Room for a card's focus ring, drawn outside it. */
    padding: 5px 5px 8px;
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

  /* isolate()'s container around a host-rendered card: the card is the row's item. */
  .card-slot {
    display: contents;
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

  /* The whole card shows its link's focus: outside it, a gap away, so it reads apart from the
     recommended card's ring (drawn inside it) and the card's overflow does not clip it. */
  .card:has(.card-title a:focus-visible) {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
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

  /* With cardActions: options are toggles, actions are buttons. Above the link's overlay
     (the title link covers the card), so a press is theirs. */
  .card-variant li.choice {
    padding: 0;
    border: 0;
  }

  .card-variant button,
  .card-action {
    position: relative;
    z-index: 1;
    font: inherit;
  }

  .card-variant button {
    min-height: 26px;
    padding: 0 9px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: transparent;
    color: inherit;
  }

  .card-variant button[aria-pressed='true'] {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 12%, transparent);
    color: var(--_accent);
    font-weight: 650;
  }

  .card-variant button:disabled {
    color: var(--_muted);
    text-decoration: line-through;
    border-style: dashed;
  }

  .card-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-top: auto;
  }

  .card-action {
    min-height: 32px;
    padding: 4px 12px;
    border: 1px solid var(--_accent);
    border-radius: 8px;
    background: transparent;
    color: var(--_accent);
    font-weight: 650;
  }

  .card-action:first-child {
    background: var(--_accent);
    color: var(--_accent-text);
  }

  @media (forced-colors: active) {
    .card-variant button[aria-pressed='true'] {
      outline: 2px solid Highlight;
    }

    .card,
    .card-badge,
    .card-badge-custom {
      border: 1px solid CanvasText;
    }

    [part~='card-recommended'] {
      border: 3px double CanvasText;
    }

    .card:has(.card-title a:focus-visible) {
      outline: 2px solid Highlight;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .cards {
      scroll-behavior: auto;
    }
  }
`;
