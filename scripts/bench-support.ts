/**
 * What the benchmarks (scripts/bench.ts, scripts/bench-scale.ts) share: the reference
 * server's fault keys, pages of demo/bench/ in a fresh browser context, CDP's main-thread
 * and heap figures, medians and the units they print.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

export async function api<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const newKey = async (base: string, plan: object) =>
  (await api<{ publishable_key: string }>(base, '/__demo/keys', plan)).publishable_key;

// --- measuring ----------------------------------------------------------------------------

export type Metrics = Record<string, number>;

export async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** `window.__bench` of the bench pages (demo/bench/harness.js). */
export interface Bench {
  longTasks: Array<{ start: number; duration: number }>;
  /** Long animation frames (Chromium), with the callbacks they ran. */
  slowFrames: Array<{ start: number; duration: number; scripts: string[] }>;
  longTasksSince(since: number): { count: number; longest: number };
  messageFrameAt: number;
  nextFrame(): Promise<number>;
}

/** Main-thread time between two CDP samples, in ms (CDP reports seconds). */
export type Busy = ReturnType<typeof busy>;
export function busy(before: Metrics, after: Metrics) {
  const d = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  return { task: d('TaskDuration'), script: d('ScriptDuration'), layout: d('LayoutDuration'), style: d('RecalcStyleDuration') };
}

export async function heap(cdp: CDPSession): Promise<{ heap: number; nodes: number; listeners: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const m = await metrics(cdp);
  return { heap: usedSize, nodes: m.Nodes ?? 0, listeners: m.JSEventListeners ?? 0 };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export interface PageSetup {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

export async function openPage(browser: Browser, base: string, name: string): Promise<PageSetup> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${name}] page error: ${error.message}`));
  await page.goto(`${base}/demo/bench/${name}.html`);
  await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

export const settle = (page: Page) =>
  page.evaluate(async () => {
    const b = (window as unknown as { __bench: Bench }).__bench;
    await b.nextFrame();
    await b.nextFrame();
    await new Promise((r) => setTimeout(r, 100));
  });

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : 'n/a');
export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;
export const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

/** The widget of a bench page (demo/bench/widget.html), as `window.el`. */
export type BenchWidget = HTMLElement & { send(t: string): void; status: string; updateComplete: Promise<unknown> };

/** Mounts the page's widget on `key` (no storage, a fixed user) and waits until it is ready. */
export const mountWidget = (page: Page, key: string) =>
  page.evaluate(async (k) => {
    const w = window as unknown as { mountWidget(a: object): Promise<HTMLElement>; el: HTMLElement };
    w.el = await w.mountWidget({ 'base-url': '/', 'publishable-key': k, persist: 'none', 'user-id': 'bench-user' });
  }, key);

/**
 * One turn, sent as the reader sends (the page's own `send()` is limited to one a second,
 * #28), until the reply is rendered and a frame has passed.
 */
export const askAsReader = (page: Page, n: number) =>
  page.evaluate(async (n) => {
    const w = window as unknown as { el: BenchWidget; __bench: Bench };
    const done = new Promise((r) => w.el.addEventListener('agent-chat-message', r, { once: true }));
    const input = w.el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="input"]')!;
    input.value = `Question ${n}`;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await w.el.updateComplete;
    w.el.shadowRoot!.querySelector<HTMLButtonElement>('[part="send-button"]')!.click();
    await done;
    while (w.el.status !== 'idle') await w.__bench.nextFrame();
    await w.el.updateComplete;
    await w.__bench.nextFrame();
  }, n);

/**
 * Main-thread time per keystroke of `count` keystrokes into the widget's text field (`window.el`),
 * each until its render and the next frame (CDP task time, the field emptied after).
 */
export async function keystrokeCost(page: Page, cdp: CDPSession, count = 20): Promise<number> {
  const before = await metrics(cdp);
  await page.evaluate(async (count) => {
    const w = window as unknown as { el: BenchWidget; __bench: Bench };
    const input = w.el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="input"]')!;
    for (let i = 0; i < count; i++) {
      input.value += 'a';
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await w.el.updateComplete;
      await w.__bench.nextFrame();
    }
    input.value = '';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await w.el.updateComplete;
  }, count);
  return busy(before, await metrics(cdp)).task / (count + 1);
}
