import { type ThreadStorage, createStorage, scopeOf } from '../state/storage.js';
import type { ChatConfig } from '../state/types.js';
import { keepOpen, wasOpen } from './tab-view.js';

/**
 * What the shell reads and keeps of the conversation before the panel is here
 * (docs/architecture.md "Shell and panel"): whether a reply is unread (the dot survives a
 * reload), whether a turn was running when the page went (the panel loads at once), and the
 * stored thread id; and, per tab (src/shell/tab-view.ts), whether the launcher's panel was
 * open on the page before. Kept per conversation scope, like everything the panel stores.
 */
export class ShellStore {
  unread = false;
  /** A turn was running or a reply is unread: the panel loads at once. */
  wake = false;
  /** The launcher's panel was open when this tab left the site's page before. */
  wasOpen = false;
  private __storage: ThreadStorage | null = null;
  private __scope: string | undefined;
  private __config: ChatConfig | null = null;

  /**
   * The configuration changed. Another conversation (service, credential or persistence)
   * is read afresh; other settings keep what was read, and the in-memory flag of
   * `persist="none"`. Returns whether the scope changed.
   */
  open(config: ChatConfig | null): boolean {
    const key = config && scopeOf(config);
    const scope = config ? `${config.persist}\n${key}` : '';
    if (scope === this.__scope) return false;
    this.__scope = scope;
    this.__storage = config && key ? createStorage(config.persist, key) : null;
    this.__config = config && key ? config : null;
    this.wasOpen = !!this.__config && wasOpen(this.__config.persist, key!);
    const saved = this.__storage?.read() ?? {};
    this.unread = saved.unread === true;
    this.wake = saved.pending === true || !!saved.turn || this.unread;
    return true;
  }

  setUnread(unread: boolean): void {
    this.unread = unread;
    if (unread) this.__storage?.write({ unread: true });
    else this.__storage?.clear(['unread']);
  }

  /** The launcher's panel opened or closed: the next page of this tab shows it so. */
  setOpen(open: boolean): void {
    if (this.__config) keepOpen(this.__config.persist, scopeOf(this.__config), open);
  }

  get threadId(): string | undefined {
    const id = this.__storage?.read().threadId;
    return typeof id === 'string' ? id : undefined;
  }
}
