/** Prompt recall (ArrowUp in an empty text field), a lazy chunk fetched when the text field takes focus. */
export { recall } from './recall.js';
