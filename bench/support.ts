/**
 * What the benchmarks (bench/bench.ts, bench/scale.ts) share: the reference
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

/** About `chars` of markdown, built from the blocks replies are made of. */
export function longReply(chars: number): string {
  const parts = [
    'A paragraph with **bold**, `code` and a [link](https://example.com/a) in it, long enough to wrap once on a phone.\n\n',
    '- an item\n- another item with *emphasis*\n- a third\n\n',
    '```ts\nconst answer = compute(42);\nconsole.log(answer);\n```\n\n',
    '| Model | Weight |\n|---|---:|\n| Trail | 240 g |\n| Road | 210 g |\n\n',
    '> a quote that goes on for a while, as quotes do\n\n',
  ];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += parts[i % parts.length];
  return text;
}

// --- scripted conversations ---------------------------------------------------------------

const WORDS =
  'the trail runner weighs less than most road shoes and keeps its grip on wet rock because the lugs are deep and widely spaced so mud sheds quickly while the midsole stays firm over long descents'.split(
    ' ',
  );

export function words(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 7 + i * 3) % WORDS.length]!);
  return out.join(' ');
}

/** The replies of a long thread, in turn: a list, a code block, a table. */
export const TURN_REPLIES = [
  { text: `Here is what I found:\n\n- ${words(8, 1)}\n- ${words(8, 2)}\n- ${words(8, 3)}\n\n${words(30, 4)}.` },
  { text: `${words(40, 5)}.\n\n\`\`\`sh\nnpm install agent-chat\n\`\`\`\n\n${words(15, 6)}.` },
  { text: `| Item | Price |\n|---|---:|\n| ${words(2, 7)} | 120 |\n| ${words(2, 8)} | 95 |\n\n${words(25, 9)}.` },
];

/**
 * A thread of `turns` turns made over REST on a new key. With `then`, the key's later
 * (streamed) turns all answer `then` (`chunkChars` a frame); else the key answers as the
 * thread did, in one frame.
 */
export async function createLongThread(base: string, turns: number, then?: { text: string; chunkChars: number }) {
  const replies = then
    ? [...Array.from({ length: turns }, (_, i) => TURN_REPLIES[i % TURN_REPLIES.length]!), { text: then.text }]
    : TURN_REPLIES;
  const key = await newKey(base, { replies, paceMs: 0, chunkChars: then?.chunkChars ?? 100_000 });
  const { access_token: token } = await api<{ access_token: string }>(base, '/management/v1/auth/token', { publishable_key: key });
  let threadId: string | undefined;
  for (let i = 0; i < turns; i++) {
    const body = { text: `Question ${i + 1}: ${words(6, i)}?`, user_id: 'bench-user', ...(threadId ? { thread_id: threadId } : {}) };
    const r = await api<{ thread_id: string }>(base, '/messaging/v1/messages', body, token);
    threadId = r.thread_id;
  }
  return { key, threadId: threadId! };
}

// --- measuring ----------------------------------------------------------------------------

/**
 * What a BENCH_TRACE trace of a turn records: the main thread's tasks with their style,
 * layout, pre-paint and paint, script, and garbage collection (V8's and Blink's).
 */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink_gc', 'v8'];

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

/** Mounts the page's widget on `key` (no storage, a fixed user, `attrs` besides) and waits until it is ready. */
export const mountWidget = (page: Page, key: string, attrs: Record<string, string> = {}) =>
  page.evaluate(
    async ([k, more]) => {
      const w = window as unknown as { mountWidget(a: object): Promise<HTMLElement>; el: HTMLElement };
      w.el = await w.mountWidget({ 'base-url': '/', 'publishable-key': k, persist: 'none', 'user-id': 'bench-user', ...more });
    },
    [key, attrs] as const,
  );

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

/** Deep Chat's text field is a contenteditable element: typed into as a reader types, each keystroke until the next frame. */
export async function deepChatKeystroke(page: Page, cdp: CDPSession, count = 20): Promise<number> {
  const before = await metrics(cdp);
  await page.evaluate(async (count) => {
    const w = window as unknown as { el: HTMLElement; __bench: Bench };
    const field = w.el.shadowRoot!.querySelector<HTMLElement>('#text-input')!;
    for (let i = 0; i < count; i++) {
      field.textContent += 'a';
      field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await w.__bench.nextFrame();
    }
    field.textContent = '';
    field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  }, count);
  return busy(before, await metrics(cdp)).task / (count + 1);
}

/**
 * About `chars` characters of TypeScript (functions of a pipeline), ending in a newline: the
 * code block the widget's highlighting is measured on, in the browser (bench/bench.ts)
 * and in Node (bench/highlight.ts).
 */
export function typescriptCode(chars: number): string {
  const lines: string[] = [];
  // `length`: of the lines so far joined by newlines (one fewer newline than lines).
  for (let i = 0, length = -1; length < chars; i++) {
    const step = [
      `/** Step ${i} of the pipeline. */`,
      `export function step${i}(input: number, label = 'step'): string {`,
      `  const value = input * ${i} + 0x${(i * 31).toString(16)};`,
      '  return `${label} ${value}`;',
      '}',
      '',
    ];
    lines.push(...step);
    length += step.reduce((n, line) => n + line.length + 1, 0);
  }
  return lines.join('\n') + '\n';
}
