/** The browser says it is offline (Node, in the unit layer, has no navigator: online). */
export const offline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Waits for the browser to come back online, once: offline and network failures retry by
 * themselves then. One listener at a time, removed when the wait ends or is called off.
 */
export class OnlineWaiter {
  private __remove: (() => void) | null = null;

  constructor(private readonly __onOnline: () => void) {}

  wait(): void {
    if (this.__remove || typeof window === 'undefined') return;
    const listener = () => {
      this.stop();
      this.__onOnline();
    };
    window.addEventListener('online', listener);
    this.__remove = () => window.removeEventListener('online', listener);
  }

  stop(): void {
    this.__remove?.();
    this.__remove = null;
  }
}
