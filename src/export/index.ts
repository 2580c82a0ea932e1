/** Save the conversation (`exportTranscript(format)`, part `export-button`), a lazy chunk: feature.ts fetches it with the first message. */
export { Exporter } from './export.js';
export { strings } from './strings.js';
