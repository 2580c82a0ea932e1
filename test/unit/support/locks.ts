/**
 * A Web Locks stand-in for Node (which has BroadcastChannel but no `navigator.locks`):
 * exclusive locks granted in request order, `ifAvailable`, and `signal` to give up a
 * request still waiting, as the specification has them. One instance is one browser
 * profile: every "tab" of a test shares it.
 */
type Callback = (lock: { name: string } | null) => unknown;

interface Waiting {
  callback: Callback;
  granted: (value: unknown) => void;
  failed: (reason: unknown) => void;
}

export class FakeLocks {
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, Waiting[]>();

  request(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal } | Callback, maybe?: Callback): Promise<unknown> {
    const callback = (typeof options === 'function' ? options : maybe)!;
    const { ifAvailable = false, signal } = typeof options === 'function' ? {} : options;
    return new Promise((granted, failed) => {
      if (signal?.aborted) return failed(signal.reason);
      const waiting: Waiting = { callback, granted, failed };
      if (!this.held.has(name)) return this.grant(name, waiting);
      if (ifAvailable) return void Promise.resolve(callback(null)).then(granted, failed);
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, [...queue, waiting]);
      signal?.addEventListener('abort', () => {
        const rest = this.queues.get(name) ?? [];
        if (!rest.includes(waiting)) return;
        this.queues.set(
          name,
          rest.filter((w) => w !== waiting),
        );
        failed(signal.reason);
      });
    });
  }

  /** Whether `name` is held now. */
  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  private grant(name: string, waiting: Waiting): void {
    this.held.add(name);
    let result: unknown;
    try {
      result = waiting.callback({ name });
    } catch (error) {
      result = Promise.reject(error);
    }
    Promise.resolve(result)
      .then(waiting.granted, waiting.failed)
      .finally(() => {
        this.held.delete(name);
        const [next, ...rest] = this.queues.get(name) ?? [];
        this.queues.set(name, rest);
        if (next) this.grant(name, next);
      });
  }
}

/** Installs `locks` as `navigator.locks` (vitest's stubGlobal; `vi.unstubAllGlobals()` removes it). */
export function installLocks(stub: (name: string, value: unknown) => void, locks = new FakeLocks()): FakeLocks {
  stub('navigator', { onLine: true, locks });
  return locks;
}
