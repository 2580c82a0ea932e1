/**
 * Every chunk the widget fetches once its panel is here: the one list, and with
 * `chunk()` (src/lazy.ts) the one way and the one retry rule for loading them
 * (docs/architecture.md "Chunks"). `import()` is written only in the chunk lists: this
 * one, src/shell/chunks.ts (what the shell fetches: the panel and the language tables)
 * and src/highlight/chunks.ts (the grammars). A list ships in the chunk that holds it, and
 * the shell's bytes are paid on every page view, so each list sits where its chunks are
 * fetched from (`npm run lint` holds it).
 *
 * A UI feature's chunk is its folder's `index.ts`; the panel's side of it is the folder's
 * `slot.ts`, which fetches it (through src/panel/feature.ts) when the feature is needed.
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

// --- UI features (src/<feature>/index.ts; src/<feature>/slot.ts fetches it) --------------

export const cards = chunk(() => import('./cards/index.js'));
/** Moving the log's window and the arrow keys between messages: a conversation outgrows the first window, or the log takes focus. */
export const reading = chunk(() => import('./log/reading.js'));
export const turnControls = chunk(() => import('./branches/index.js'));
export const copy = chunk(() => import('./copy/index.js'));
export const feedback = chunk(() => import('./feedback/index.js'));
export const history = chunk(() => import('./history/index.js'));
export const handoff = chunk(() => import('./handoff/index.js'));
export const attachments = chunk(() => import('./attachments/index.js'));
export const voice = chunk(() => import('./voice/index.js'));
export const fullScreen = chunk(() => import('./full-screen/index.js'));
export const readAloud = chunk(() => import('./read-aloud/index.js'));
/** The disclaimer: `disclaimer` is set. */
export const disclaimer = chunk(() => import('./disclaimer/index.js'));
/** Prompt recall (ArrowUp in an empty text field): the text field takes focus. */
export const recall = chunk(() => import('./recall/index.js'));
/** Saving the conversation: its first message (the header's button), or `exportTranscript()`. */
export const transcript = chunk(() => import('./export/index.js'));
/** The builder's preview (a reply's trace, version-pinned reruns, the thread's title): `preview` is set. */
export const preview = chunk(() => import('./preview/index.js'));
