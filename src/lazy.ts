import type { CSSResult } from 'lit';

/**
 * A lazy feature chunk (`() => import('./feature.js')`), fetched on first use and shared
 * by every widget on the page. A failed fetch is not kept, so a later call tries again
 * (where the browser refetches a module that failed; some keep the failure).
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}

/**
 * A stylesheet that arrived with a lazy chunk, after the element's own. Constructable
 * stylesheets are in the browser floor (README), and adopted sheets need no `style-src`.
 */
export function adoptStyles(root: ShadowRoot, sheet: CSSResult): void {
  const adopted = sheet.styleSheet;
  if (adopted && !root.adoptedStyleSheets.includes(adopted)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, adopted];
}

/**
 * One widget's use of a lazy feature: its module once loaded (its stylesheet adopted by
 * the widget's shadow root), or `failed` after a fetch that did not work, until `retry()`,
 * so a failed chunk is not refetched on every render.
 */
export class Feature<T extends { styles: CSSResult }> {
  module: T | null = null;
  failed = false;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly root: () => ShadowRoot,
  ) {}

  async ensure(): Promise<T | null> {
    if (!this.module && !this.failed) {
      try {
        const module = await this.load();
        adoptStyles(this.root(), module.styles);
        this.module = module;
      } catch {
        this.failed = true;
      }
    }
    return this.module;
  }

  retry(): Promise<T | null> {
    this.failed = false;
    return this.ensure();
  }
}
