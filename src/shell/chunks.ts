/**
 * What the shell fetches, so every page view carries this list (the rest of the widget's
 * chunks are listed in src/chunks.ts, shipped with the panel): the panel itself, and the
 * UI language tables (English ships with the panel; the launcher's few English texts with
 * the shell). Same `chunk()` and retry rule as every other chunk (src/lazy.ts).
 */
import { chunk } from '../lazy.js';

/** The conversation UI (docs/architecture.md "Shell and panel"): at once inline, on intent for a launcher. */
export const panel = chunk(() => import('../panel/index.js'));

/** A language's table, fetched when a widget shows that language. */
export const languages = {
  de: chunk(() => import('../i18n/locales/de.js')),
  fr: chunk(() => import('../i18n/locales/fr.js')),
  es: chunk(() => import('../i18n/locales/es.js')),
  ja: chunk(() => import('../i18n/locales/ja.js')),
  ar: chunk(() => import('../i18n/locales/ar.js')),
};

/** Checks and compiles a host's language pack (`AgentChat.registerLocale`): only pages that register one fetch it. */
export const localePack = chunk(() => import('../i18n/pack.js'));
