import { PREFIX, backend, type PersistMode } from '../state/storage.js';

/**
 * Where one tab keeps what follows the visitor from one page of the site to the next, per
 * conversation scope (sessionStorage: this tab only; nothing with `persist="none"`): here,
 * whether the launcher's panel was open; the log keeps where the reader was beside it
 * (src/log/reading.ts).
 */
export const tabStorage = (persist: PersistMode) => backend(persist === 'none' ? 'none' : 'session');

export const tabKey = (scope: string, what: 'open' | 'place') => `${PREFIX}${scope}:${what}`;

/** The launcher's panel was open when this tab left the site's page before. */
export const wasOpen = (persist: PersistMode, scope: string): boolean => tabStorage(persist)?.getItem(tabKey(scope, 'open')) === '1';

export function keepOpen(persist: PersistMode, scope: string, open: boolean): void {
  try {
    if (open) tabStorage(persist)?.setItem(tabKey(scope, 'open'), '1');
    else tabStorage(persist)?.removeItem(tabKey(scope, 'open'));
  } catch {
    // Quota or privacy mode: the next page starts closed, as a first visit does.
  }
}
