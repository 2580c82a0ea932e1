import type { Chunk } from '../lazy.js';

/**
 * The conversation's lazy code: the turns, the resume of a turn an earlier page started, and
 * the streaming transports. Chunks the panel hands in (src/chunks.ts), so the conversation
 * imports no chunk list and runs in Node with the modules themselves (test/unit/).
 */
export interface ConversationCode {
  readonly turns: Chunk<typeof import('./turns.js')>;
  readonly recovery: Chunk<typeof import('../continuity/recover.js')>;
  readonly stream: Chunk<typeof import('../client/stream.js')>;
  readonly websocket: Chunk<typeof import('../client/websocket.js')>;
}
