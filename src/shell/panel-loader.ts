import type { CSSResult } from '@lit/reactive-element/css-tag.js';
import type { Chunk } from '../lazy.js';
import type { HostElement, PropertyValues } from './host.js';
import { warnOnce } from '../warn.js';
import { LoadFailure } from './load-failure.js';
import type { PanelApi, ShellView } from './panel-api.js';
import type { LauncherStrings } from './strings.js';

/**
 * A stylesheet that arrived with a lazy chunk, after the element's own. Constructable
 * stylesheets are in the browser floor (README), and adopted sheets need no `style-src`.
 */
export function adoptStyles(root: ShadowRoot, sheets: CSSResult | readonly CSSResult[]): void {
  const adopted = [sheets]
    .flat()
    .map((sheet) => sheet.styleSheet)
    .filter((sheet) => sheet && !root.adoptedStyleSheets.includes(sheet));
  if (adopted.length) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...(adopted as CSSStyleSheet[])];
}

export interface PanelModule<H> {
  Panel: new (host: H, view: ShellView) => PanelApi<H>;
  styles: readonly CSSResult[];
}

/**
 * The panel as the shell holds it: fetched once, created with the element as its host, its
 * stylesheets adopted; until it is here, a failure shows as a notice where the panel would
 * be (docs/architecture.md "Shell and panel"). After a failure the shell asks again only
 * when the reader does (Retry, or opening the launcher), and then at once.
 */
export class PanelLoader<H extends HostElement> {
  panel: PanelApi<H> | null = null;
  failed = false;
  /** The panel has not rendered yet: its first update sees every property as changed. */
  fresh = true;
  private __loading: Promise<PanelApi<H> | null> | null = null;
  private __failure: LoadFailure | null = null;
  private __text: LauncherStrings | null = null;

  constructor(
    private readonly __host: H,
    private readonly __view: ShellView,
    private readonly __load: Chunk<PanelModule<H>>,
  ) {}

  /**
   * The panel, fetched if it is not here yet; null if its chunk cannot be fetched. Not
   * while the browser is offline: a browser keeps a failed import for the page's life, and
   * the panel's URL is the one every feature's chunk imports (src/lazy.ts); the notice
   * shows instead, and going online (or Retry) asks.
   */
  ensure(): Promise<PanelApi<H> | null> {
    if (this.panel) return Promise.resolve(this.panel);
    const host = this.__host;
    const offline = navigator.onLine === false;
    if (offline) addEventListener('online', () => host.isConnected && this.ensure(), { once: true });
    // Asked for after a failure: the reader asked (see `failed`), so without the retry pause.
    return (this.__loading ??= (offline ? Promise.reject(new Error('offline')) : this.__load.failed ? this.__load.retry() : this.__load())
      // The panel's first render runs a task after the one that ran its module (the import's
      // callbacks would run in that task): each stays short where together they were a long task.
      .then((module) => new Promise<PanelModule<H>>((next) => setTimeout(next, 0, module)))
      .then(
        (module) => {
          adoptStyles(host.renderRoot, module.styles);
          this.failed = false;
          return (this.panel = new module.Panel(host, this.__view));
        },
        (error: unknown) => {
          this.failed = true;
          warnOnce('the chat panel could not be loaded; the launcher offers Retry.', error);
          return null;
        },
      )
      .finally(() => {
        this.__loading = null;
        host.requestUpdate();
      }));
  }

  /** For calls made before the panel is here: the panel, once it is and has rendered. */
  async whenReady(): Promise<PanelApi<H> | null> {
    const host = this.__host;
    if (!host.hasUpdated) await host.updateComplete;
    // A fetch that failed is tried again by Retry or by opening, not by every call.
    if (this.failed) return null;
    const panel = await this.ensure();
    if (panel && this.fresh) await host.updateComplete;
    return panel;
  }

  /** What changed, for the panel: everything on its first render. */
  changes(changed: PropertyValues<H>): PropertyValues<H> {
    if (!this.fresh) return changed;
    const all: PropertyValues<H> = new Map();
    for (const key of (this.__host.constructor as typeof HostElement).reactive.keys()) all.set(key, undefined);
    return all;
  }

  /** The notice with Retry where the panel would be, while its chunk cannot be fetched. */
  showFailure(show: boolean, text: LauncherStrings): void {
    if (!show) {
      this.__failure?.element.remove();
      return;
    }
    this.__text = text;
    this.__failure ??= new LoadFailure(() => {
      this.failed = false;
      if (this.__text) this.__failure?.sync(this.__text, true);
      void this.ensure();
    });
    this.__failure.sync(text, false);
    if (!this.__failure.element.isConnected) this.__host.renderRoot.append(this.__failure.element);
  }
}
