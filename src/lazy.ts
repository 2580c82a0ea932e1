/**
 * Promise helpers for what loads later, DOM-free (the client uses them too): a chunk
 * fetched once, and how long to wait for one.
 */

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

/** Whether `promise` settles before `deadline` (a `performance.now()` time): how long a render waits for chunks. */
export async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()), false)));
  const settled = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}
