/**
 * What the widget's logic reads from a browser, for Node (vitest `setupFiles`): window
 * events (`pagehide`, `storage`, `online`), storage, animation frames. Each is the smallest
 * faithful stand-in: an EventTarget, a Map-backed Storage. Tests that need Web Locks or
 * navigator state install them themselves (fakes.ts).
 */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

const windowEvents = new EventTarget();
const g = globalThis as Record<string, unknown>;
g.addEventListener ??= windowEvents.addEventListener.bind(windowEvents);
g.removeEventListener ??= windowEvents.removeEventListener.bind(windowEvents);
g.dispatchEvent ??= windowEvents.dispatchEvent.bind(windowEvents);
g.window ??= globalThis;
g.localStorage ??= new MemoryStorage();
g.sessionStorage ??= new MemoryStorage();
g.requestAnimationFrame ??= (callback: FrameRequestCallback) => setTimeout(() => callback(performance.now()), 16) as unknown as number;
g.cancelAnimationFrame ??= (id: number) => clearTimeout(id);

export { MemoryStorage };
