/** The disclaimer (attribute `disclaimer`), a lazy chunk: feature.ts fetches it while the attribute is set. */
export { Disclaimer } from './disclaimer.js';
export { styles } from './disclaimer.styles.js';
export { strings } from './strings.js';
