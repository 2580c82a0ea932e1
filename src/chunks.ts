/**
 * The chunks the panel fetches for the conversation and for its own parts, and with
 * `chunk()` (src/lazy.ts) the one way and the one retry rule for loading them
 * (docs/architecture.md "Chunks"). `import()` is written only in the chunk lists: this
 * one, src/shell/chunks.ts (the panel), src/i18n/chunks.ts (the language tables),
 * src/markdown/chunks.ts (what the renderer draws with), src/highlight/chunks.ts (the
 * grammars), and each feature's own `feature.ts` (its chunk, the folder's `index.ts`,
 * composed by the registry: src/panel/features.ts). A list ships in the chunk that holds
 * it, and the shell's bytes are paid on every page view, so each list sits where its
 * chunks are fetched from (`npm run lint` holds it).
 */
import { chunk } from './lazy.js';

// --- the conversation --------------------------------------------------------------------

/** Sending, resuming and rerunning turns, and the streaming transport: the text field is focused, or a turn starts. */
export const turns = chunk(() => import('./state/turns.js'));
/** Resuming a turn an earlier page started (docs/protocol.md "A turn survives the page"); a stopped turn's rerun. */
export const recovery = chunk(() => import('./continuity/recover.js'));
/** The SSE reader and the resume loop: the text field is focused, or a turn starts. */
export const stream = chunk(() => import('./client/stream.js'));
/** The WebSocket session: `transport="websocket"`, first turn. */
export const websocket = chunk(() => import('./client/websocket.js'));

// --- the reply as text ----------------------------------------------------------------

/** A reply as plain text (src/markdown/plain.ts), for its announcement and for reading aloud: a turn starts. */
export const plain = chunk(() => import('./markdown/plain.js'));

// --- the panel's own ------------------------------------------------------------------

/** Moving the log's window and the arrow keys between messages: a conversation outgrows the first window, or the log takes focus. */
export const reading = chunk(() => import('./log/reading.js'));
/** Prompt recall (ArrowUp in an empty text field): the text field takes focus. */
export const recall = chunk(() => import('./recall/index.js'));
