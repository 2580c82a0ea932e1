/**
 * How the widget loads what it does not need at once, DOM-free (the client uses it too):
 * `chunk()` wraps one `import()` of the chunk lists (src/chunks.ts and the two beside it),
 * and `settlesBy` is how long a render waits for one.
 */

/** After a failed load, how long the next need waits before asking again; doubled per failure. */
export const RETRY_MS = { first: 1_000, max: 30_000 } as const;

/**
 * A lazy chunk: fetched on its first need and shared by every widget of the page. One
 * rule for every chunk when a load fails (offline, a 404, a module that does not run):
 * the failure is not kept, so the next need tries again, but no sooner than a pause that
 * doubles with each failure, so a need that recurs (a render, a token) cannot hammer the
 * network. A need inside the pause gets the failure at once; `retry()`, a reader's Retry,
 * asks again at once.
 */
export interface Chunk<T> {
  (): Promise<T>;
  /** The module, once it has arrived. */
  readonly module: T | undefined;
  /** The last load failed (and none is under way): what needs it may say so. */
  readonly failed: boolean;
  /** Asks again now, whatever the pause (a reader pressed Retry). */
  retry(): Promise<T>;
}

export function chunk<T>(load: () => Promise<T>, now: () => number = () => Date.now()): Chunk<T> {
  let pending: Promise<T> | undefined;
  let module: T | undefined;
  let loading = false;
  let failures = 0;
  let until = 0;

  const start = (): Promise<T> => {
    loading = true;
    return (pending = load().then(
      (loaded) => {
        loading = false;
        failures = 0;
        return (module = loaded);
      },
      (error: unknown) => {
        loading = false;
        failures += 1;
        until = now() + Math.min(RETRY_MS.first * 2 ** (failures - 1), RETRY_MS.max);
        throw error;
      },
    ));
  };

  const get = (() => {
    if (module !== undefined) return Promise.resolve(module);
    if (pending && (loading || now() < until)) return pending;
    return start();
  }) as Chunk<T>;
  Object.defineProperties(get, {
    module: { get: () => module },
    failed: { get: () => failures > 0 && !loading && module === undefined },
  });
  get.retry = () => (module !== undefined ? Promise.resolve(module) : loading ? pending! : start());
  return get;
}

/** Whether `promise` settles before `deadline` (a `performance.now()` time): how long a render waits for chunks. */
export async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()), false)));
  const settled = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}
