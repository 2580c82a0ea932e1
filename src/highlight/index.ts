/** Highlighted code: a lazy chunk, with each language's grammar a chunk of its own. */
export { highlight, redraw, styles } from './highlight.js';
