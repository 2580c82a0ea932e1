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
