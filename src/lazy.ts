import type { CSSResult } from '@lit/reactive-element';

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
export function adoptStyles(root: ShadowRoot, sheets: CSSResult | readonly CSSResult[]): void {
  const adopted = [sheets].flat().map((sheet) => sheet.styleSheet).filter((sheet) => sheet && !root.adoptedStyleSheets.includes(sheet));
  if (adopted.length) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...(adopted as CSSStyleSheet[])];
}

/** Whether `promise` settles before `deadline` (a `performance.now()` time): how long a render waits for chunks. */
export async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()), false)));
  const settled = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}
