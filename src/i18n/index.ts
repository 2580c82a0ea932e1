import { ar, de, en, es, fr, ja, type Strings } from './strings.js';

export type { Strings } from './strings.js';
export { en } from './strings.js';

const TABLES: Record<string, Strings> = { en, de, fr, es, ja, ar };

/** Primary subtags of languages written right to left. */
const RTL = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb']);

function primary(lang: string | undefined): string {
  return (lang ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The language tag itself, used for Intl formatting; `en` when none is given. */
export function normalizeLang(lang: string | undefined): string {
  const trimmed = (lang ?? '').trim();
  return trimmed || 'en';
}

/**
 * Strings for `lang` (`de-AT` uses the `de` table; unknown languages fall back to English),
 * with the host's `overrides` on top. Override values that are not the right type are
 * ignored, so a stray `null` from a JSON config cannot blank the UI.
 */
export function resolveStrings(lang: string | undefined, overrides?: Partial<Strings>): Strings {
  const table = TABLES[primary(lang)] ?? en;
  if (!overrides) return table;
  const merged: Strings = { ...table };
  for (const key of Object.keys(table) as Array<keyof Strings>) {
    const value = overrides[key];
    if (value !== undefined && typeof value === typeof table[key]) {
      (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}

/** True for languages written right to left (Arabic, Hebrew, Persian, Urdu…). */
export function isRtl(lang: string | undefined): boolean {
  return RTL.has(primary(lang));
}

/** Languages that ship with a complete table. */
export const SUPPORTED_LANGUAGES = Object.keys(TABLES);
