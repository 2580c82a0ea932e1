import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chunk, RETRY_MS, settlesBy } from '../../src/lazy.js';

/** A loader that fails until told otherwise, counting its calls. */
function loader() {
  const state = { calls: 0, fail: true };
  const load = vi.fn(async () => {
    state.calls += 1;
    if (state.fail) throw new TypeError('Failed to fetch dynamically imported module');
    return { ok: true };
  });
  return { state, load };
}

describe('chunk(): one way to load, one retry rule', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('loads on first need, once, shared by every need', async () => {
    const { state, load } = loader();
    state.fail = false;
    const c = chunk(load);
    expect(c.module).toBeUndefined();
    const [a, b] = await Promise.all([c(), c()]);
    expect(a).toBe(b);
    expect(c.module).toBe(a);
    await c();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failure: a need after the pause asks again', async () => {
    const { state, load } = loader();
    const c = chunk(load);
    await expect(c()).rejects.toThrow();
    expect(c.failed).toBe(true);
    state.fail = false;
    vi.advanceTimersByTime(RETRY_MS.first);
    await expect(c()).resolves.toEqual({ ok: true });
    expect(c.failed).toBe(false);
    expect(state.calls).toBe(2);
  });

  it('asks again under another URL: a browser keeps a failed import per URL for the page', async () => {
    const { state, load } = loader();
    const c = chunk(load);
    await expect(c()).rejects.toThrow();
    await expect(c.retry()).rejects.toThrow();
    state.fail = false;
    await c.retry();
    expect(load.mock.calls.map((call) => (call as unknown[])[0])).toEqual(['', '?retry=1', '?retry=2']);
  });

  it('a need inside the pause gets the same failure at once, without a request', async () => {
    const { state, load } = loader();
    const c = chunk(load);
    const first = c();
    await expect(first).rejects.toThrow();
    vi.advanceTimersByTime(RETRY_MS.first - 1);
    expect(c()).toBe(first);
    expect(state.calls).toBe(1);
  });

  it('doubles the pause after each failure, up to its ceiling', async () => {
    const { state, load } = loader();
    const c = chunk(load);
    const pauses: number[] = [];
    for (let i = 0; i < 8; i++) {
      await expect(c()).rejects.toThrow();
      let waited = 0;
      while (state.calls === i + 1) {
        vi.advanceTimersByTime(250);
        waited += 250;
        void c().catch(() => undefined);
      }
      pauses.push(waited);
      await Promise.resolve();
    }
    expect(pauses.slice(0, 6)).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect(pauses[7]).toBe(RETRY_MS.max);
  });

  it("a reader's retry asks at once, whatever the pause", async () => {
    const { state, load } = loader();
    const c = chunk(load);
    await expect(c()).rejects.toThrow();
    state.fail = false;
    await expect(c.retry()).resolves.toEqual({ ok: true });
    expect(state.calls).toBe(2);
  });

  it('joins a load under way instead of starting another, also on retry', async () => {
    let release!: (value: { ok: boolean }) => void;
    const load = vi.fn(() => new Promise<{ ok: boolean }>((resolve) => (release = resolve)));
    const c = chunk(load);
    const a = c();
    vi.advanceTimersByTime(60_000);
    const b = c();
    const r = c.retry();
    expect(b).toBe(a);
    expect(r).toBe(a);
    expect(c.failed).toBe(false);
    release({ ok: true });
    await a;
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('once here, never asks again, even on retry', async () => {
    const load = vi.fn(async () => ({ ok: true }));
    const c = chunk(load);
    await c();
    await c.retry();
    await c();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('settlesBy: how long a render waits for a chunk', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('is true for a promise that settles before the deadline, false for one that does not', async () => {
    await expect(settlesBy(Promise.resolve(1), performance.now() + 100)).resolves.toBe(true);
    const late = settlesBy(new Promise(() => undefined), performance.now() + 100);
    vi.advanceTimersByTime(100);
    await expect(late).resolves.toBe(false);
  });
});
