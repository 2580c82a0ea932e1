/** Dictation (attribute `voice`): a lazy chunk the composer fetches where speech recognition exists. */
export { Dictation } from './dictation.js';
export { styles } from './voice.styles.js';
export { strings } from './strings.js';
