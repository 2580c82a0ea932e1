/**
 * What the markdown renderer fetches when a text needs it (docs/architecture.md "Chunks"):
 * listed with the renderer, which checks each one's module as it draws; none of them
 * imports the renderer back. Same `chunk()` and retry rule as every other chunk
 * (src/lazy.ts).
 */
import { chunk } from '../lazy.js';

/** marked under lex.ts's budgets: a thread to load, the text field is focused, a turn starts, or text that is more than prose (src/markdown/prose.ts). */
export const lexer = chunk(() => import('./lex.js'));
/** The guard for half-typed markdown: a turn starts; a streaming or cut-off reply waits for it. */
export const tail = chunk(() => import('./tail.js'));
/** DOMPurify and its policy: `allow-html` only. */
export const htmlPolicy = chunk(() => import('../security/html-policy.js'));
/** Highlighted code: the first fenced block that names a language. */
export const highlight = chunk(() => import('../highlight/index.js'));
