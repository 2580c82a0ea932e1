import { en, type Strings } from './strings.js';
import { table } from './locales.js';
import { warnOnce } from '../warn.js';

export type { Strings } from './strings.js';
export { en } from './strings.js';
export { hasStrings, isRtl, loadStrings, normalizeLang, SUPPORTED_LANGUAGES } from './locales.js';

/**
 * English as far as it is here: the panel's (`en`), then each feature's as its chunk
 * arrives (strings.ts `FeatureKey`). A feature reads its texts only once it is here.
 */
const english = { ...en } as Strings;
let added = 0;

/** A feature's chunk arrived with its English texts (src/<feature>/strings.ts). */
export function addEnglish(strings: Partial<Strings>): void {
  Object.assign(english, strings);
  added++;
}

/** Changes whenever English texts were added: a resolved table from before misses them. */
export const englishVersion = (): number => added;

/**
 * Strings for `lang` (a registered pack for the tag or its language, else `de-AT` uses the
 * `de` table; unknown languages and a pack's missing keys fall back to English),
 * with the host's `overrides` on top. Override values that are not the right type are
 * ignored, so a stray `null` from a JSON config cannot blank the UI, and a text function
 * that throws falls back to the built-in one.
 */
export function resolveStrings(lang: string | undefined, overrides?: Partial<Strings>): Strings {
  // A pack may lack keys: English shows there, a lazy feature's as its chunk arrives.
  const found = table(lang);
  const base = found ? { ...english, ...found } : english;
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
