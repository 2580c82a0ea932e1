/**
 * What the shell fetches: the panel. Every page view carries this list (the rest of the
 * widget's chunks are listed with what fetches them: src/chunks.ts and
 * src/markdown/chunks.ts, shipped with the panel; the language tables in
 * src/i18n/chunks.ts). Same `chunk()` and retry rule as every other chunk (src/lazy.ts).
 */
import { chunk } from '../lazy.js';

/** The conversation UI (docs/architecture.md "Shell and panel"): at once inline, on intent for a launcher. */
export const panel = chunk(() => import('../panel/index.js'));
