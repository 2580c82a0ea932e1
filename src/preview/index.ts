/**
 * The builder's preview (attribute `preview`), a lazy chunk: a reply's trace, reruns pinned
 * to a version of the agent, the thread's title with rename (preview.ts). Pages without
 * `preview` never fetch it; feature.ts does once it is set.
 */
export { Preview } from './preview.js';
export { styles } from './preview.styles.js';
export { strings } from './strings.js';
