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

/**
 * `load` is one `import()`; in the built script it takes a suffix for the chunk's URL
 * (scripts/vite-chunk-retry.ts), `?retry=N` after N failures: a browser keeps a failed
 * import per URL for the life of the page, whatever failed (a 404, the network, a module
 * that does not parse or throws as it runs), and only another URL loads it again.
 */
export function chunk<T>(load: (again: string) => Promise<T>): Chunk<T> {
  let pending: Promise<T> | undefined;
  let failures = 0;
  /** No automatic try before this time: the pause after a failure; Infinity while a load is under way. */
  let until = 0;
  const self = (() => (self.module ? Promise.resolve(self.module) : pending && Date.now() < until ? pending : start())) as Chunk<T> & {
    module?: T;
    failed: boolean;
  };
  const start = (): Promise<T> => {
    self.failed = false;
    until = Infinity;
    return (pending = load(failures ? `?retry=${failures}` : '').then(
      (module) => (self.module = module),
      (error: unknown) => {
        self.failed = true;
        until = Date.now() + Math.min(RETRY_MS.first * 2 ** failures++, RETRY_MS.max);
        throw error;
      },
    ));
  };
  self.failed = false;
  self.retry = () => (self.module ? Promise.resolve(self.module) : until === Infinity ? pending! : start());
  return self;
}

/** Whether `promise` settles before `deadline` (a `performance.now()` time): how long a render waits for chunks. */
export async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()), false)));
  const settled = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}
