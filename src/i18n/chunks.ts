/**
 * The language tables other than English and the checker of a host's language pack: each
 * a chunk beside the script, fetched when a widget shows that language (English ships with
 * the panel; the launcher's few English texts with the shell). Listed here, in the core,
 * because the shell asks for them before the panel is here; none of them imports i18n back.
 * Same `chunk()` and retry rule as every other chunk (src/lazy.ts).
 */
import { chunk } from '../lazy.js';

/** A language's table, fetched when a widget shows that language. */
export const languages = {
  de: chunk(() => import('./locales/de.js')),
  fr: chunk(() => import('./locales/fr.js')),
  es: chunk(() => import('./locales/es.js')),
  ja: chunk(() => import('./locales/ja.js')),
  ar: chunk(() => import('./locales/ar.js')),
};

/** Checks and compiles a host's language pack (`AgentChat.registerLocale`): only pages that register one fetch it. */
export const localePack = chunk(() => import('./pack.js'));
