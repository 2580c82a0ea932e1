import type { Strings } from './strings.js';

/**
 * English ships with the panel (strings.ts; the launcher's few texts with the shell:
 * launcher.ts); the other tables are chunks beside the script, fetched relative to it when
 * a widget needs them, so a page pays for the one language it shows.
 */
const LOADERS: Record<string, () => Promise<{ default: Strings }>> = {
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
  ja: () => import('./locales/ja.js'),
  ar: () => import('./locales/ar.js'),
};

const TABLES: Record<string, Strings> = {};
/** Tables that could not be fetched: English stands in for this page (not retried on every update). */
const FAILED = new Set<string>();

// Own keys only: `lang="constructor"` must not find Object.prototype's members.
export const table = (key: string): Strings | undefined => (Object.hasOwn(TABLES, key) ? TABLES[key] : undefined);
const loader = (key: string) => (Object.hasOwn(LOADERS, key) ? LOADERS[key] : undefined);

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

/** True for languages written right to left (Arabic, Hebrew, Persian, Urdu…). */
export function isRtl(lang: string | undefined): boolean {
  return RTL.has(primary(lang));
}

/** Languages that ship with a complete table. */
export const SUPPORTED_LANGUAGES = ['en', ...Object.keys(LOADERS)];

/** False while `lang` has a table that is not loaded yet (`resolveStrings` would fall back). */
export function hasStrings(lang: string | undefined): boolean {
  const key = primary(lang);
  return !!table(key) || FAILED.has(key) || !loader(key);
}

/**
 * Loads the table for `lang`; resolves at once for English and for languages without a
 * table. A failed load (offline, blocked chunk) leaves English in place for this page, so
 * it is not retried on every update, and resolves to false.
 */
export async function loadStrings(lang: string | undefined): Promise<boolean> {
  const key = primary(lang);
  const load = loader(key);
  if (!load || table(key)) return true;
  if (FAILED.has(key)) return false;
  try {
    TABLES[key] = (await load()).default;
    return true;
  } catch {
    FAILED.add(key);
    return false;
  }
}
