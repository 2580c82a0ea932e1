/**
 * Product cards, a lazy chunk fetched with the first turn or the first reply that has cards:
 * the card views and templates (cards.ts), the error boundary for a host `cardRenderer`
 * (isolate.ts), and a reply's row as the panel shows it (reply.ts).
 */
export * from './cards.js';
export { renderReplyCards } from './reply.js';
export { strings } from './strings.js';
