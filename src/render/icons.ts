import { svg } from 'lit';

/** Stroke icons drawn with currentColor, so they follow the theme and forced colours. */
const icon = (paths: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`;

export const icons = {
  chat: icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/>`),
  close: icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`),
  plus: icon(svg`<path d="M12 5v14M5 12h14"/>`),
  send: icon(svg`<path d="M5 12h13M12 5l7 7-7 7"/>`),
  stop: icon(svg`<rect x="7" y="7" width="10" height="10" rx="1.5"/>`),
  arrowDown: icon(svg`<path d="M12 5v14M6 13l6 6 6-6"/>`),
};
