/**
 * The history panel, a lazy chunk (feature.ts fetches it when the list is first opened): the
 * list of earlier conversations, with its stylesheet.
 */
export { relativeTime, renderHistory, renderHistoryPanel, styles, type HistoryOptions } from './history.js';
export { strings } from './strings.js';
