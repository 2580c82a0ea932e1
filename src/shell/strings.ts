import { type LauncherStrings, enLauncher } from '../i18n/en-launcher.js';
import { table } from '../i18n/locales.js';

export type { LauncherStrings };

/**
 * The shell's texts in `lang` (its table or pack once loaded, English where it has none), with the host's
 * `strings` (already checked to be an object) where they are text. The panel resolves the
 * whole table itself (src/i18n/index.ts).
 */
export function launcherStrings(lang: string, overrides: Record<string, unknown> | undefined): LauncherStrings {
  const base = table(lang);
  const out = { ...enLauncher };
  for (const key of Object.keys(enLauncher) as Array<keyof LauncherStrings>) {
    const value = overrides && Object.hasOwn(overrides, key) ? overrides[key] : undefined;
    out[key] = typeof value === 'string' ? value : (base?.[key] ?? enLauncher[key]);
  }
  // A host that renamed the launcher keeps its name while a reply is unread.
  if (overrides && typeof overrides['openChat'] === 'string' && typeof overrides['openChatUnread'] !== 'string') {
    out.openChatUnread = `${out.openChat} (${out.unread})`;
  }
  return out;
}
