/** Highlighted code: a lazy chunk, with each language's grammar a chunk of its own. */
export { highlight, styles } from './highlight.js';
