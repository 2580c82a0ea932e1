import { type Chunk, chunk } from '../lazy.js';
import { languages, localePack } from './chunks.js';
import type { Strings } from './strings.js';

/**
 * The language tables other than English: chunks beside the script (src/i18n/chunks.ts),
 * fetched relative to it when a widget needs them, so a page pays for the one language it
 * shows. A table that cannot be fetched leaves English in place; a later need (the next
 * update, after the retry pause of src/lazy.ts) asks again.
 */
// Own keys only: `lang="constructor"` must not find Object.prototype's members.
const shipped = (key: string) => (Object.hasOwn(languages, key) ? languages[key as keyof typeof languages] : undefined);

interface Pack {
  load: Chunk<{ default: Partial<Strings> }>;
  dir: unknown;
}

/**
 * The host's language packs (`AgentChat.registerLocale`), by lower-case tag. Each is a
 * chunk of its own, like a shipped table: the pack is checked and compiled in the
 * `localePack` chunk, and a widget showing its language waits for that as for a table.
 */
const packs = new Map<string, Pack>();

/** A pack for the tag itself (`pt-br`), else for its language (`pt`). */
const pack = (lang: string | undefined) => packs.get((lang ?? '').trim().toLowerCase()) ?? packs.get(primary(lang));

/** What holds the texts of `lang`: the host's pack for it, else the shipped table of its language. */
const loader = (lang: string | undefined) => pack(lang)?.load ?? shipped(primary(lang));

/** The texts for `lang` once they are here: a registered pack (its own keys only) or a shipped table. */
export const table = (lang: string | undefined): Partial<Strings> | undefined => loader(lang)?.module?.default;

/** Registers (or replaces) the pack for `lang`; its `dir`, when `rtl` or `ltr`, says its direction. */
export function addPack(lang: string, strings: unknown, dir: unknown): void {
  packs.set(lang.trim().toLowerCase(), {
    load: chunk(() => localePack().then((m) => ({ default: m.compilePack(lang, strings, dir) }))),
    dir,
  });
}

/** Primary subtags of languages written right to left. */
const RTL = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

export function primary(lang: string | undefined): string {
  return (lang ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The language tag itself, used for Intl formatting; `en` when none is given. */
export function normalizeLang(lang: string | undefined): string {
  const trimmed = (lang ?? '').trim();
  return trimmed || 'en';
}

/** True for languages written right to left (Arabic, Hebrew, Persian, Urdu…) and packs registered so. */
export function isRtl(lang: string | undefined): boolean {
  const dir = pack(lang)?.dir;
  return dir === 'rtl' || (dir !== 'ltr' && RTL.has(primary(lang)));
}

/** Languages that ship with a complete table. */
export const SUPPORTED_LANGUAGES = ['en', ...Object.keys(languages)];

/**
 * False while `lang` has a table that is not loaded yet (`resolveStrings` would fall back
 * to English), unless its last load failed and is pausing before the next try.
 */
export function hasStrings(lang: string | undefined): boolean {
  const load = loader(lang);
  return !load || !!load.module || load.failed;
}

/**
 * Loads the table for `lang`; resolves at once for English and for languages without a
 * table. A failed load (offline, blocked chunk) leaves English in place and resolves to
 * false.
 */
export function loadStrings(lang: string | undefined): Promise<boolean> {
  const load = loader(lang);
  return load
    ? load().then(
        () => true,
        () => false,
      )
    : Promise.resolve(true);
}
