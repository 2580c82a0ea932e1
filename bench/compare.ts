/**
 * The widget beside Deep Chat (#25's comparison table), run by bench/bench.ts as
 * `BENCH_ONLY=compare`: the same threads of 10, 500, 1,000 and 2,000 messages made over
 * REST on the reference server, opened in each (the widget with `thread-id`; Deep Chat's
 * page fetches the same transcript and shows it as its `history`,
 * demo/bench/deep-chat.html), then in the same page:
 *
 *  - page load: a page that opens the thread as it loads (script, mount, conversation):
 *    navigation → the frame that shows it, main-thread time (CDP, from navigation), long tasks;
 *  - restore in a loaded page: mount → rendered (the next frame), main-thread time, long tasks;
 *  - memory: JS heap after two forced GCs, DOM nodes and listeners (CDP);
 *  - keystroke: main-thread time per keystroke into the text field, each until the next frame;
 *  - a streamed turn of the same 1.5 KB reply in 24-character frames on that thread:
 *    main-thread time per token frame, and first byte → first paint (from the arrival of
 *    the chunk with the first token frame to the first animation frame that has the reply's
 *    text in the DOM: it paints in that frame).
 *
 * Each run opens a fresh browser context; widget and Deep Chat alternate.
 *
 * `BENCH_ONLY=load` (`loads`) is the page load alone, many times: its ratio moves by more
 * than the 1.5x target between sessions at three runs (BENCHMARKS.md "The load, alone");
 * and a first visit's panel, with no conversation.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import {
  type Bench,
  busy,
  createLongThread,
  deepChatKeystroke,
  heap,
  keystrokeCost,
  longReply,
  median,
  metrics,
  ms,
  openPage,
  ratio,
} from './support.js';

type Variant = 'widget' | 'deep-chat';
const VARIANTS: Variant[] = ['widget', 'deep-chat'];

/** Messages in each restored thread (turns × 2); BENCH_SIZES=10,500 measures some. */
const SIZES = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : [10, 500, 1000, 2000];
const TURN_REPLY = longReply(1_500);
const TURN_CHUNK = 24;
const TURN_FRAMES = Math.ceil(TURN_REPLY.length / TURN_CHUNK);

interface CompareRun {
  /** The page that opens the thread as it loads: navigation → on screen, main-thread time, long tasks. */
  load: { loaded: number; task: number; longTasks: number; longest: number };
  rendered: number;
  task: number;
  longTasks: number;
  longest: number;
  heap: number;
  nodes: number;
  listeners: number;
  keystroke: number;
  perToken: number;
  firstPaint: number;
  /** What the page showed, to check both rendered the thread. */
  shown: number;
}

/** Opens the thread (none: a first visit) in the page's chat; resolves with the mount's figures once a frame has passed. */
function mount(page: Page, variant: Variant, key: string, threadId: string | null) {
  return page.evaluate(
    async ({ variant, key, threadId }) => {
      type Mountable = { mountWidget(a: object): Promise<HTMLElement & { updateComplete?: Promise<unknown> }> };
      const w = window as unknown as Mountable & { __bench: Bench; el: HTMLElement };
      const t0 = performance.now();
      const thread = threadId ? { 'thread-id': threadId } : {};
      const attrs =
        variant === 'widget'
          ? { 'base-url': '/', 'publishable-key': key, ...thread, 'user-id': 'bench-user', persist: 'none' }
          : { key, threadId };
      const el = await w.mountWidget(attrs);
      w.el = el;
      await el.updateComplete;
      const t1 = await w.__bench.nextFrame();
      const long = w.__bench.longTasksSince(t0);
      const shown =
        variant === 'widget'
          ? el.shadowRoot!.querySelectorAll('[part~="message"]').length
          : el.shadowRoot!.querySelectorAll('.outer-message-container').length;
      return { rendered: t1 - t0, longTasks: long.count, longest: long.longest, shown };
    },
    { variant, key, threadId },
  );
}

/** One streamed turn: main-thread time per token frame, and first token → first frame showing the reply's text. */
async function turn(page: Page, cdp: CDPSession, variant: Variant): Promise<{ perToken: number; firstPaint: number }> {
  const before = await metrics(cdp);
  const firstPaint = await page.evaluate(async (variant) => {
    type Widget = HTMLElement & { send(t: string): void; status: string; updateComplete: Promise<unknown> };
    const w = window as unknown as {
      el: Widget;
      __bench: Bench & { firstTokenAt: number };
      runTurn(el: HTMLElement, t: string): Promise<void>;
    };
    const b = w.__bench;
    const root = w.el.shadowRoot!;
    // No named helpers in here: tsx would wrap them in a __name() the page does not have.
    const selector = variant === 'widget' ? '.message.agent [part="text"]' : '.ai-message-text';
    const count = root.querySelectorAll(selector).length;
    b.firstTokenAt = 0;
    let painted = 0;
    // Every frame until the new reply has text: the first such frame paints it.
    void (async () => {
      for (;;) {
        const now = await b.nextFrame();
        const list = root.querySelectorAll(selector);
        if (list.length > count && list[list.length - 1]!.textContent) return void (painted = now);
      }
    })();
    if (variant === 'widget') {
      const done = new Promise((r) => w.el.addEventListener('agent-chat-message', r, { once: true }));
      // As the reader sends (the page's send() is limited to one a second, #28).
      const input = root.querySelector<HTMLTextAreaElement>('[part="input"]')!;
      input.value = 'One more question';
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await w.el.updateComplete;
      root.querySelector<HTMLButtonElement>('[part="send-button"]')!.click();
      await done;
      while (w.el.status !== 'idle') await b.nextFrame();
      await w.el.updateComplete;
      await b.nextFrame();
    } else {
      await w.runTurn(w.el, 'One more question');
    }
    return painted && b.firstTokenAt ? painted - b.firstTokenAt : NaN;
  }, variant);
  return { perToken: busy(before, await metrics(cdp)).task / TURN_FRAMES, firstPaint };
}

/**
 * A page that opens the thread as it loads (the chat's script, the mount, the conversation
 * on screen): main-thread time from navigation to the frame that shows it, and its long
 * tasks. Deep Chat's bundle and the widget's script are both loaded by the page here.
 */
async function coldLoad(browser: Browser, base: string, variant: Variant, key: string, threadId: string) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const before = await metrics(cdp);
    // BENCH_TRACE=<file>: a performance trace of the widget's page load (DevTools' Performance
    // panel opens it), to see what its long tasks are made of; the last load traced is kept.
    const trace = variant === 'widget' && process.env.BENCH_TRACE;
    // The JavaScript samples (v8.cpu_profiler) say which functions a task ran, not only that it ran script.
    const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'];
    if (trace) await browser.startTracing(page, { path: trace, categories });
    try {
      await page.goto(`${base}/demo/bench/${variant === 'widget' ? 'widget' : 'deep-chat'}.html?key=${key}&thread=${threadId}`);
      await page.waitForFunction(() => (window as unknown as { loaded?: number }).loaded, undefined, { timeout: 60_000 });
    } finally {
      if (trace) await browser.stopTracing();
    }
    const r = await page.evaluate(() => {
      const w = window as unknown as { loaded: number; __bench: Bench };
      const long = w.__bench.longTasksSince(0);
      return { loaded: w.loaded, longTasks: long.count, longest: long.longest };
    });
    return { ...r, task: busy(before, await metrics(cdp)).task };
  } finally {
    await context.close();
  }
}

async function compareRun(browser: Browser, base: string, variant: Variant, key: string, threadId: string): Promise<CompareRun> {
  const { context, page, cdp } = await openPage(browser, base, variant === 'widget' ? 'widget' : 'deep-chat');
  try {
    const before = await metrics(cdp);
    const m = await mount(page, variant, key, threadId);
    const task = busy(before, await metrics(cdp)).task;
    const memory = await heap(cdp);
    const keystroke = variant === 'widget' ? await keystrokeCost(page, cdp) : await deepChatKeystroke(page, cdp);
    const t = await turn(page, cdp, variant);
    const load = await coldLoad(browser, base, variant, key, threadId);
    return { ...m, load, task, heap: memory.heap, nodes: memory.nodes, listeners: memory.listeners, keystroke, ...t };
  } finally {
    await context.close();
  }
}

/** The comparison section: `runs` runs of each size, widget and Deep Chat alternating; returns the tables' lines. */
export async function compare(browser: Browser, base: string, runs: number): Promise<string[]> {
  const results: Record<number, Record<Variant, CompareRun[]>> = {};
  for (const size of SIZES) {
    const thread = await createLongThread(base, size / 2, { text: TURN_REPLY, chunkChars: TURN_CHUNK });
    results[size] = { widget: [], 'deep-chat': [] };
    if (size === SIZES[0]) for (const v of VARIANTS) await compareRun(browser, base, v, thread.key, thread.threadId); // warm-up
    for (let i = 0; i < runs; i++)
      for (const variant of VARIANTS) {
        const r = await compareRun(browser, base, variant, thread.key, thread.threadId);
        results[size][variant].push(r);
        console.log(
          `  ${size} messages, ${variant} #${i + 1}: page load ${ms(r.load.loaded)}, task ${ms(r.load.task)}, long tasks ${r.load.longTasks} (max ${ms(r.load.longest)}); mounted: rendered ${ms(r.rendered)} (${r.shown} shown), task ${ms(r.task)}, long tasks ${r.longTasks} (max ${ms(r.longest)}), ` +
            `heap ${(r.heap / 1e6).toFixed(1)} MB, ${r.nodes} nodes, ${r.listeners} listeners; keystroke ${ms(r.keystroke)}; per token ${ms(r.perToken)}, first token → paint ${ms(r.firstPaint)}`,
        );
      }
  }
  const m = (size: number, v: Variant, f: (r: CompareRun) => number) => median(results[size]![v].map(f));
  const row = (label: string, size: number, f: (r: CompareRun) => number, fmt: (n: number) => string) =>
    `| ${label} | ${fmt(m(size, 'widget', f))} | ${fmt(m(size, 'deep-chat', f))} | ${ratio(m(size, 'widget', f), m(size, 'deep-chat', f))} |`;
  const out = [`| Beside Deep Chat 2.4 (median of ${runs}) | widget | Deep Chat | widget / Deep Chat |`, '|---|---:|---:|---:|'];
  for (const size of SIZES) {
    out.push(row(`Page load with ${size} messages: navigation → on screen`, size, (r) => r.load.loaded, ms));
    out.push(row(`… main-thread time`, size, (r) => r.load.task, ms));
    out.push(row(`… long tasks (> 50 ms)`, size, (r) => r.load.longTasks, String));
    out.push(row(`… longest task`, size, (r) => r.load.longest, ms));
    out.push(row(`Restore ${size} messages in a loaded page: mount → rendered`, size, (r) => r.rendered, ms));
    out.push(row(`… main-thread time`, size, (r) => r.task, ms));
    out.push(row(`… long tasks (> 50 ms)`, size, (r) => r.longTasks, String));
    out.push(row(`… longest task`, size, (r) => r.longest, ms));
  }
  for (const size of SIZES) out.push(row(`Per streamed token, ${size} messages`, size, (r) => r.perToken, ms));
  for (const size of SIZES) out.push(row(`Per keystroke, ${size} messages`, size, (r) => r.keystroke, ms));
  for (const size of SIZES) out.push(row(`First byte → first paint, ${size} messages`, size, (r) => r.firstPaint, ms));
  for (const size of SIZES) {
    out.push(
      row(
        `Memory, ${size} messages: heap after GC`,
        size,
        (r) => r.heap / 1e6,
        (n) => `${n.toFixed(1)} MB`,
      ),
    );
    out.push(row(`… DOM nodes`, size, (r) => r.nodes, String));
  }
  const growth = (v: Variant) =>
    ratio(
      m(SIZES.at(-1)!, v, (r) => r.perToken),
      m(SIZES[0]!, v, (r) => r.perToken),
    );
  out.push('', `Per token at ${SIZES.at(-1)} messages over ${SIZES[0]}: widget ${growth('widget')}, Deep Chat ${growth('deep-chat')}.`);
  return out;
}

/**
 * A first visit: the chat mounted in a loaded page with no conversation (the widget's
 * welcome; Deep Chat empty), main-thread time from the mount to 1 s after it, when what
 * the chat does once it is idle (the widget's idle work, its chunks) has run.
 */
async function firstVisit(browser: Browser, base: string, variant: Variant, key: string): Promise<number> {
  const { context, page, cdp } = await openPage(browser, base, variant === 'widget' ? 'widget' : 'deep-chat');
  try {
    const before = await metrics(cdp);
    await mount(page, variant, key, null);
    await page.waitForTimeout(1000);
    return busy(before, await metrics(cdp)).task;
  } finally {
    await context.close();
  }
}

/** Cold page loads in each variant for `BENCH_ONLY=load` (BENCH_LOAD_RUNS, default 15). */
const LOAD_RUNS = Math.max(1, Number(process.env.BENCH_LOAD_RUNS ?? 15));

/**
 * The page load alone (`coldLoad`), widget and Deep Chat in turns, LOAD_RUNS times each
 * after one warm-up of each, on a thread of SIZES[0] messages: medians of the main-thread
 * time and of the longest task, the slowest longest task, and how many loads had a task
 * over 50 ms. Nothing else runs in the browser meanwhile, so the ratio is the load's own.
 */
export async function loads(browser: Browser, base: string): Promise<string[]> {
  const size = SIZES[0]!;
  const thread = await createLongThread(base, size / 2, { text: TURN_REPLY, chunkChars: TURN_CHUNK });
  const results: Record<Variant, Array<Awaited<ReturnType<typeof coldLoad>>>> = { widget: [], 'deep-chat': [] };
  for (const variant of VARIANTS) await coldLoad(browser, base, variant, thread.key, thread.threadId); // warm-up
  // Which goes first changes by round: a load right after another context closed measured
  // slower, by as much as a tenth, than the next one (the browser still tearing it down).
  const inTurns = (round: number) => (round % 2 ? [...VARIANTS].reverse() : VARIANTS);
  for (let i = 0; i < LOAD_RUNS; i++)
    for (const variant of inTurns(i)) {
      const r = await coldLoad(browser, base, variant, thread.key, thread.threadId);
      results[variant].push(r);
      console.log(
        `  load ${size} messages, ${variant} #${i + 1}: on screen ${ms(r.loaded)}, task ${ms(r.task)}, longest task ${ms(r.longest)}`,
      );
    }
  const visits: Record<Variant, number[]> = { widget: [], 'deep-chat': [] };
  for (let i = 0; i < LOAD_RUNS; i++)
    for (const variant of inTurns(i)) visits[variant].push(await firstVisit(browser, base, variant, thread.key));
  const m = (v: Variant, f: (r: (typeof results)[Variant][number]) => number) => median(results[v].map(f));
  const row = (label: string, f: (r: (typeof results)[Variant][number]) => number, fmt: (n: number) => string) =>
    `| ${label} | ${fmt(m('widget', f))} | ${fmt(m('deep-chat', f))} | ${ratio(m('widget', f), m('deep-chat', f))} |`;
  const count = (v: Variant) => `${results[v].filter((r) => r.longTasks > 0).length} of ${LOAD_RUNS}`;
  const worst = (v: Variant) => ms(Math.max(...results[v].map((r) => r.longest)));
  return [
    `| Page load with ${size} messages (median of ${LOAD_RUNS}, in turns) | widget | Deep Chat | widget / Deep Chat |`,
    '|---|---:|---:|---:|',
    row('Navigation → on screen', (r) => r.loaded, ms),
    row('Main-thread time', (r) => r.task, ms),
    row('Longest task', (r) => r.longest, ms),
    `| Slowest longest task | ${worst('widget')} | ${worst('deep-chat')} | |`,
    `| Loads with a task over 50 ms | ${count('widget')} | ${count('deep-chat')} | |`,
    `| A first visit (no conversation): mount → 1 s later, main-thread time | ${ms(median(visits.widget))} | ${ms(median(visits['deep-chat']))} | ${ratio(median(visits.widget), median(visits['deep-chat']))} |`,
  ];
}
