import { en, type Strings } from './strings.js';
import { warnOnce } from '../warn.js';

export type { Strings } from './strings.js';
export { en } from './strings.js';

/**
 * English ships inline; the other tables are chunks beside the script, fetched relative to
 * it when a widget needs them, so a page pays for the one language it shows.
 */
const LOADERS: Record<string, () => Promise<{ default: Strings }>> = {
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
  ja: () => import('./locales/ja.js'),
  ar: () => import('./locales/ar.js'),
};

const TABLES: Record<string, Strings> = { en };

// Own keys only: `lang="constructor"` must not find Object.prototype's members.
const table = (key: string): Strings | undefined => (Object.hasOwn(TABLES, key) ? TABLES[key] : undefined);
const loader = (key: string) => (Object.hasOwn(LOADERS, key) ? LOADERS[key] : undefined);

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
 * ignored, so a stray `null` from a JSON config cannot blank the UI, and a text function
 * that throws falls back to the built-in one.
 */
export function resolveStrings(lang: string | undefined, overrides?: Partial<Strings>): Strings {
  const base = table(primary(lang)) ?? en;
  if (!overrides) return base;
  const merged: Strings = { ...base };
  for (const key of Object.keys(base) as Array<keyof Strings>) {
    const value: unknown = Object.hasOwn(overrides, key) ? overrides[key] : undefined;
    if (value === undefined || typeof value !== typeof base[key]) continue;
    // A host's text function that throws or returns no text costs that text, not the render.
    (merged as unknown as Record<string, unknown>)[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              const text: unknown = value(...args);
              if (typeof text === 'string') return text;
            } catch {
              // reported below
            }
            warnOnce(`strings.${key} did not return text; the built-in text is shown.`);
            return (base[key] as (...a: unknown[]) => string)(...args);
          }
        : value;
  }
  return merged;
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
  return !!table(key) || !loader(key);
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
  try {
    TABLES[key] = (await load()).default;
    return true;
  } catch {
    TABLES[key] = en;
    return false;
  }
}
