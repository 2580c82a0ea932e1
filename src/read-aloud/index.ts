/** Read a reply aloud (attribute `read-aloud`), a lazy chunk: feature.ts fetches it where speech synthesis exists. */
export { ReadAloud } from './read-aloud.js';
export { styles } from './read-aloud.styles.js';
export { strings } from './strings.js';
