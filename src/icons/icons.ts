import { svg } from 'lit-html';
import { CLOSE_PATH } from './paths.js';

/** Stroke icons drawn with currentColor, so they follow the theme and forced colours. */
export const icon = (paths: ReturnType<typeof svg>) => svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`;

export const icons = {
  close: icon(svg`<path d=${CLOSE_PATH} />`),
  plus: icon(svg`<path d="M12 5v14M5 12h14"/>`),
  // Points along the reading direction: mirrored in right-to-left layouts.
  send: icon(svg`<path class="flip" d="M5 12h13M12 5l7 7-7 7"/>`),
  stop: icon(svg`<rect x="7" y="7" width="10" height="10" rx="1.5"/>`),
  arrowDown: icon(svg`<path d="M12 5v14M6 13l6 6 6-6"/>`),
  history: icon(svg`<path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3"/>`),
  trash: icon(svg`<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"/>`),
};
