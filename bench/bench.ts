/**
 * Performance benchmarks: `npm run bench` (not part of CI; takes a few minutes).
 *
 * Builds the production bundle into a temporary directory, serves it with the bench pages
 * (demo/bench/) and the reference server (createApp()) from one plain Node HTTP server on a
 * free port, and drives headless system Chromium through playwright-core:
 *
 *  1. Streaming a ~3,000-token markdown reply (`replies` + `paceMs: 0`, one word per frame)
 *     into (a) the widget, (b) a floor page that only appends raw deltas to a <pre>,
 *     (c) a naive page that re-parses (marked) and re-renders (DOMPurify + innerHTML) the
 *     whole message on every token. Main-thread time from CDP Performance.getMetrics,
 *     long tasks (> 50 ms) from a PerformanceObserver, and the time from the arrival of the
 *     final `message` frame to the next animation frame after the DOM settled.
 *  2. Restoring a 500-message transcript (250 turns created over REST from Node).
 *  3. JS heap after forced GC across 20 launcher open/close cycles and across 50 turns.
 *  4. Hostile markdown (nesting and delimiter-dense families) at 10/20/40/80 KB, streamed:
 *     main-thread time, the longest task and the growth per doubling of the size.
 *  6. Highlighted code: a reply that is one TypeScript block (4/16/32 KB) streamed 64
 *     characters a frame, fenced `ts` (highlighted) and `text` (no grammar: plain), so the
 *     difference is what highlighting costs, per frame and at most; and 80 KB of the code
 *     the grammars of C, C++, C# and Java are slowest on (test/support/slow-code.ts), each
 *     until the page is idle again (highlighting goes on in slices after the last frame).
 *  7. Cost at scale (bench/scale.ts): a 100 KB and a 1 MB reply against a floor that
 *     scrolls once a frame (time, long tasks, heap after GC), and a 200-turn session (time
 *     per token and per keystroke at turn 1 and at turn 200); beside Deep Chat on threads of
 *     10 to 2,000 messages (bench/compare.ts, `compare`), and the page load of the
 *     first size alone, in turns BENCH_LOAD_RUNS times, and a first visit (`load`).
 *  8. Long branch chains (bench/branches.ts): one question edited 10 and 1,000 times
 *     in a row: a keystroke, a keystroke in the editor, opening the history, a send.
 *  9. Size limits (bench/limits.ts): a reply of 50 KB to 1 MB in one frame (what it
 *     costs to render, for `max-reply-length`'s default), and 8 MB replies at the default.
 *  5. An unopened launcher at 4x CPU slowdown, each run in a fresh context (nothing cached):
 *     main-thread time from navigation to 1 s after load, with and without the widget,
 *     service calls, and the first click to a focused text field, cold and after intent
 *     (a pointer over the button 200 ms before the click).
 *
 * Medians of BENCH_RUNS runs (default 5); BENCH_ONLY=<section> runs one section,
 * BENCH_DIST=<dir> measures a bundle built elsewhere instead of building this one.
 * Everything it starts it stops; a watchdog (90 minutes) ends the process if anything hangs.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { createApp } from '../server/src/app.js';
import { toNodeMiddleware } from '../server/src/http/node.js';
import { chunkText } from '../server/src/messaging/turn.js';
import { compare, loads } from './compare.js';
import { replies, session } from './scale.js';
import { branchChains } from './branches.js';
import { limits } from './limits.js';
import {
  askAsReader,
  type Bench,
  type Busy,
  busy,
  createLongThread,
  heap,
  keystrokeCost,
  mb,
  median,
  metrics,
  mountWidget,
  ms,
  newKey,
  openPage,
  ratio,
  settle,
  TURN_REPLIES,
  typescriptCode,
  words,
  TRACE_CATEGORIES,
} from './support.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { SLOW_CODE, slowCode } from '../test/support/slow-code.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
/**
 * BENCH_ONLY=stream|restore|memory|hostile|launcher|code|reply|session|compare|load|branches|limits runs one section, or
 * several separated by commas (`reply,session,compare` is the scale section of BENCHMARKS.md).
 */
const ONLY = process.env.BENCH_ONLY?.split(',');
type Section =
  'stream' | 'restore' | 'memory' | 'hostile' | 'launcher' | 'code' | 'reply' | 'session' | 'compare' | 'load' | 'branches' | 'limits';
const want = (section: Section) => !ONLY || ONLY.includes(section);
/** Everything ends by then (BENCH_WATCHDOG_MIN): the whole bench with Deep Chat's 200-turn session runs past 45 minutes on a busy machine. */
const WATCHDOG_MS = Number(process.env.BENCH_WATCHDOG_MIN ?? 90) * 60_000;
const ROOT = resolve(import.meta.dirname, '..');

// --- the reply ----------------------------------------------------------------------------

/** Markdown with paragraphs, lists, code and a table per section, ~`tokens` word frames long. */
function buildReply(tokens: number): string {
  const sections: string[] = [];
  let s = 0;
  const count = (text: string) => chunkText(text).length;
  while (count(sections.join('\n\n')) < tokens) {
    s++;
    sections.push(
      [
        `## Section ${s}: ${words(4, s)}`,
        `${words(45, s)}, with **${words(3, s + 1)}** and *${words(2, s + 2)}* and \`code_${s}\`. ${words(30, s + 3)}.`,
        [1, 2, 3, 4, 5].map((i) => `- ${words(8, s + i)}`).join('\n'),
        [1, 2, 3].map((i) => `${i}. ${words(10, s + i * 2)} [link](https://example.com/${s}/${i})`).join('\n'),
        '```ts\n' + [1, 2, 3, 4, 5, 6].map((i) => `const value${i} = compute(${i}, "${words(2, s + i)}");`).join('\n') + '\n```',
        '| Model | Weight | Drop | Price |\n|---|---:|---:|---:|\n' +
          [1, 2, 3, 4].map((i) => `| ${words(2, s + i)} | ${200 + i * 10} g | ${i + 4} mm | ${90 + i * 15} |`).join('\n'),
        `> ${words(20, s + 5)}.`,
      ].join('\n\n'),
    );
  }
  return sections.join('\n\n');
}

const REPLY = buildReply(3000);
const REPLY_TOKENS = chunkText(REPLY).length;
const REPLY_TABLES = (REPLY.match(/\|---\|/g) ?? []).length;

// --- server -------------------------------------------------------------------------------

const STATIC: Record<string, string> = {
  '/node_modules/marked/lib/marked.esm.js': 'node_modules/marked/lib/marked.esm.js',
  '/node_modules/dompurify/dist/purify.es.mjs': 'node_modules/dompurify/dist/purify.es.mjs',
  '/node_modules/deep-chat/dist/deepChat.bundle.js': 'node_modules/deep-chat/dist/deepChat.bundle.js',
};
const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', mjs: 'text/javascript', map: 'application/json' };

async function startServer(distDir: string) {
  const reference = toNodeMiddleware(await createApp({ faults: true }));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    let file: string | undefined = STATIC[path];
    if (!file && /^\/demo\/bench\/[\w-]+\.(html|js)$/.test(path)) file = join(ROOT, path);
    if (!file && /^\/dist\/agent-chat[\w-]*\.js(\.map)?$/.test(path)) file = join(distDir, path.slice('/dist/'.length));
    if (file) {
      readFile(resolve(ROOT, file)).then(
        (body) => {
          res.writeHead(200, { 'content-type': TYPES[file!.split('.').pop()!] ?? 'application/octet-stream', 'cache-control': 'no-store' });
          res.end(body);
        },
        () => {
          res.writeHead(404).end();
        },
      );
      return;
    }
    reference(req, res, (error) => {
      res.writeHead(error ? 500 : 404).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return { base: `http://127.0.0.1:${port}`, close };
}

// --- 1. streaming ---------------------------------------------------------------------------

type Variant = 'widget' | 'floor' | 'naive';

interface StreamRun extends Busy {
  longTasks: number;
  longestTask: number;
  /** From the arrival of the final `message` frame to the next frame after the DOM settled. */
  finalPaint: number;
  /** From send to that frame. */
  total: number;
  check: string;
}

async function streamRun(browser: Browser, base: string, variant: Variant): Promise<StreamRun> {
  const { context, page, cdp } = await openPage(browser, base, variant);
  try {
    const key = await newKey(base, { replies: [{ text: REPLY }], paceMs: 0 });
    if (variant === 'widget') await mountWidget(page, key);
    await settle(page);
    const before = await metrics(cdp);
    const r = await page.evaluate(
      async ({ variant, key, text }) => {
        type Widget = HTMLElement & { send(t: string): void; status: string; updateComplete: Promise<unknown> };
        const w = window as unknown as { __bench: Bench; el: Widget; runTurn(k: string, t: string): Promise<void> };
        const b = w.__bench;
        const t0 = performance.now();
        let check = '';
        if (variant === 'widget') {
          const el = w.el;
          const done = new Promise((r) => el.addEventListener('agent-chat-message', r, { once: true }));
          el.send(text);
          await done;
          while (el.status !== 'idle') await b.nextFrame();
          await el.updateComplete;
        } else {
          await w.runTurn(key, text);
        }
        const t1 = await b.nextFrame();
        if (variant === 'widget') {
          const texts = w.el.shadowRoot!.querySelectorAll('[part~="message-agent"] [part~="text"]');
          const last = texts[texts.length - 1];
          check = `tables=${last?.querySelectorAll('table').length ?? 0} chars=${last?.textContent?.length ?? 0}`;
        } else if (variant === 'naive') {
          const out = document.getElementById('out')!;
          check = `tables=${out.querySelectorAll('table').length} chars=${out.textContent?.length ?? 0}`;
        } else {
          check = `chars=${document.getElementById('out')!.textContent?.length ?? 0}`;
        }
        const longTasks = b.longTasksSince(t0);
        return {
          total: t1 - t0,
          finalPaint: b.messageFrameAt ? t1 - b.messageFrameAt : NaN,
          longTasks: longTasks.count,
          longestTask: longTasks.longest,
          check,
        };
      },
      { variant, key, text: 'Tell me everything about trail shoes.' },
    );
    const after = await metrics(cdp);
    return { ...busy(before, after), ...r };
  } finally {
    await context.close();
  }
}

// --- 2. restore -----------------------------------------------------------------------------

/** The restored conversation: 2,000 messages (#25's target size). */
const RESTORE_TURNS = 1000;

interface RestoreRun extends Busy {
  rendered: number;
  transcriptFetch: number;
  longTasks: number;
  longestTask: number;
  messages: number;
  /** Reading back to the first message, 400 px per frame like a fast wheel. */
  scrollTime: number;
  scrollFrames: number;
  scrollLongTasks: number;
  scrollLongestTask: number;
  /** The longest gap between two animation frames while scrolling (jank). */
  scrollLongestFrame: number;
  scrolledMessages: number;
  /** Main-thread time while scrolling (CDP). */
  scrollBusy: Busy;
  /** Frames that rendered earlier messages or took > 40 ms: `messages before:frame ms`. */
  steps: string;
  /** Then back down to the latest, the same way. */
  downTime: number;
  downLongTasks: number;
  downLongestTask: number;
  /** The most messages rendered at once on the way, and DOM nodes once back at the latest (CDP). */
  mostRendered: number;
  nodesAfter: number;
  /** Main-thread time per keystroke at the latest before the scroll and after the round trip. */
  keystrokeBefore: number;
  keystrokeAfter: number;
}

async function restoreRun(browser: Browser, base: string, key: string, threadId: string): Promise<RestoreRun> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    await settle(page);
    const before = await metrics(cdp);
    const r = await page.evaluate(
      async ({ key, threadId }) => {
        type Widget = HTMLElement & { updateComplete: Promise<unknown> };
        const w = window as unknown as { __bench: Bench; mountWidget(a: object): Promise<Widget> };
        const t0 = performance.now();
        const el = await w.mountWidget({
          'base-url': '/',
          'publishable-key': key,
          'thread-id': threadId,
          'user-id': 'bench-user',
          persist: 'none',
        });
        (window as unknown as { el: Widget }).el = el;
        await el.updateComplete;
        const t1 = await w.__bench.nextFrame();
        const fetches = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes(`/threads/${threadId}/messages`) && e.startTime >= t0) as PerformanceResourceTiming[];
        const longTasks = w.__bench.longTasksSince(t0);
        return {
          rendered: t1 - t0,
          transcriptFetch: fetches.length ? fetches[fetches.length - 1]!.responseEnd - fetches[fetches.length - 1]!.startTime : NaN,
          longTasks: longTasks.count,
          longestTask: longTasks.longest,
          messages: el.shadowRoot!.querySelectorAll('[part~="message"]').length,
        };
      },
      { key, threadId },
    );
    const after = await metrics(cdp);
    const keystrokeBefore = await keystrokeCost(page, cdp);
    // Then read back to the first message, 400 px per frame like a fast wheel: the window
    // moves on the way (the log's scroll handler), which must not cause long tasks.
    const beforeScroll = await metrics(cdp);
    const scroll = await page.evaluate(async () => {
      const bench = (window as unknown as { __bench: Bench }).__bench;
      const root = document.querySelector('agent-chat')!.shadowRoot!;
      const log = root.querySelector<HTMLElement>('[part="log"]')!;
      // No named helpers in here: tsx would wrap them in a __name() the page does not have.
      const s0 = await bench.nextFrame();
      let last = s0;
      let longestFrame = 0;
      let frames = 0;
      let most = 0;
      let messages = root.querySelectorAll('[part~="message"]').length;
      const steps: string[] = [];
      while (frames < 4000 && !(log.scrollTop === 0 && !root.querySelector('[part="load-earlier"]'))) {
        log.scrollTop = Math.max(0, log.scrollTop - 400);
        const now = await bench.nextFrame();
        const rendered = root.querySelectorAll('[part~="message"]').length;
        if (rendered !== messages || now - last > 40) steps.push(`${messages}:${(now - last).toFixed(0)}`);
        messages = rendered;
        most = Math.max(most, rendered);
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
        frames++;
      }
      const longTasks = bench.longTasksSince(s0);
      const scrollFrames = frames;
      const scrollTime = last - s0;
      // And down again to the latest: the window moves the other way.
      const d0 = last;
      frames = 0;
      while (
        frames < 4000 &&
        !(log.scrollHeight - log.scrollTop - log.clientHeight < 2 && !root.querySelector('[part="jump-to-latest"]'))
      ) {
        log.scrollTop += 400;
        last = await bench.nextFrame();
        most = Math.max(most, root.querySelectorAll('[part~="message"]').length);
        frames++;
      }
      const down = bench.longTasksSince(d0);
      return {
        scrollTime,
        scrollFrames,
        scrollLongTasks: longTasks.count,
        scrollLongestTask: longTasks.longest,
        scrollLongestFrame: longestFrame,
        scrolledMessages: messages,
        steps: steps.slice(0, 12).join(' '),
        downTime: last - d0,
        downLongTasks: down.count,
        downLongestTask: down.longest,
        mostRendered: most,
      };
    });
    const scrollBusy = busy(beforeScroll, await metrics(cdp));
    const nodesAfter = (await heap(cdp)).nodes; // after a GC: what the page still holds
    const keystrokeAfter = await keystrokeCost(page, cdp);
    return { ...busy(before, after), ...r, ...scroll, scrollBusy, nodesAfter, keystrokeBefore, keystrokeAfter };
  } finally {
    await context.close();
  }
}

// --- 3. memory ------------------------------------------------------------------------------

interface Sample {
  heap: number;
  nodes: number;
  listeners: number;
}

async function launcherCycles(browser: Browser, base: string, cycles: number): Promise<Sample[]> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    const key = await newKey(base, { paceMs: 0 });
    // An unopened launcher calls nothing and is not `ready` until it is opened: only defined and rendered.
    await page.evaluate(async (k) => {
      const w = window as unknown as { el: HTMLElement & { updateComplete: Promise<unknown> } };
      const attrs = { 'base-url': '/', 'publishable-key': k, persist: 'none', mode: 'launcher', 'user-id': 'bench-user' };
      w.el = document.createElement('agent-chat') as typeof w.el;
      for (const [name, value] of Object.entries(attrs)) w.el.setAttribute(name, value);
      document.body.append(w.el);
      await w.el.updateComplete;
    }, key);
    await settle(page);
    const samples: Sample[] = [await heap(cdp)];
    for (let i = 0; i < cycles; i++) {
      await page.evaluate(async () => {
        type Widget = HTMLElement & { open(): void; close(): void; updateComplete: Promise<unknown> };
        const w = window as unknown as { el: Widget; __bench: Bench };
        w.el.open();
        await w.el.updateComplete;
        await w.__bench.nextFrame();
        await w.__bench.nextFrame();
        w.el.close();
        await w.el.updateComplete;
        await w.__bench.nextFrame();
      });
      samples.push(await heap(cdp));
    }
    return samples;
  } finally {
    await context.close();
  }
}

async function turnCycles(browser: Browser, base: string, turns: number): Promise<Sample[]> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    const key = await newKey(base, { replies: TURN_REPLIES, paceMs: 0, chunkChars: 24 });
    await mountWidget(page, key);
    await settle(page);
    const samples: Sample[] = [await heap(cdp)];
    for (let i = 0; i < turns; i++) {
      await askAsReader(page, i + 1);
      samples.push(await heap(cdp));
    }
    return samples;
  } finally {
    await context.close();
  }
}

// --- 4. hostile markdown ------------------------------------------------------------------

/**
 * The families that froze 0.1 (nesting past marked's stack) or made its lexer quadratic
 * (delimiter-dense runs), `kb` KB long: SECURITY.md "Limits".
 */
const HOSTILE: Record<string, (chars: number) => string> = {
  'nested quotes': (n) => '> '.repeat(n / 2) + 'x',
  'nested list markers': (n) => '- '.repeat(n / 2) + 'x',
  'nested ordered lists': (n) => '1. '.repeat(n / 3) + 'x',
  'nested strong': (n) => '**a '.repeat(n / 8) + 'x' + ' a**'.repeat(n / 8),
  'intraword underscores': (n) => 'a_b_'.repeat(n / 4),
  '`</` then `<!--`': (n) => '</' + '<!--'.repeat(n / 4),
  'emphasis runs `*a*a`': (n) => '*a'.repeat(n / 2),
  'open links `[a](`': (n) => '[a]('.repeat(n / 4),
};
const HOSTILE_KB = [10, 20, 40, 80];

interface HostileRun extends Busy {
  longTasks: number;
  longestTask: number;
  total: number;
  chars: number;
  /** Long tasks and slow frames of the run, for the log. */
  slow: string;
  /** The reply's last code block is highlighted at the end (not shown plain). */
  highlighted: boolean;
}

/**
 * Streams `text` (64 characters a frame, no pacing) into the widget; the turn until its final
 * paint. `idle`: main-thread time until the page is idle after it (highlighting goes on in
 * slices after the last frame of a turn).
 */
let hostileRuns = 0;

async function hostileRun(browser: Browser, base: string, text: string, idle = false): Promise<HostileRun> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    const key = await newKey(base, { replies: [{ text }], paceMs: 0, chunkChars: 64 });
    await mountWidget(page, key);
    await settle(page);
    // BENCH_TRACE=<file>: a performance trace of each turn (run n in <file>.n.json), to see
    // what a long task is made of (script, style, layout, paint, garbage collection).
    const trace = process.env.BENCH_TRACE && `${process.env.BENCH_TRACE}.${++hostileRuns}.json`;
    if (trace)
      await browser.startTracing(page, {
        path: trace,
        categories: TRACE_CATEGORIES,
      });
    const before = await metrics(cdp);
    const r = await page.evaluate(async (idle) => {
      type Widget = HTMLElement & { send(t: string): void; status: string; updateComplete: Promise<unknown> };
      const w = window as unknown as { __bench: Bench; el: Widget };
      const b = w.__bench;
      const t0 = performance.now();
      const done = new Promise((r) => w.el.addEventListener('agent-chat-message', r, { once: true }));
      w.el.send('Hostile, please.');
      await done;
      while (w.el.status !== 'idle') await b.nextFrame();
      await w.el.updateComplete;
      const t1 = await b.nextFrame();
      // Idle: a callback with most of its 50 ms left (a highlighting slice leaves none).
      while (idle && (await new Promise<IdleDeadline>((r) => requestIdleCallback(r))).timeRemaining() < 40);
      const texts = w.el.shadowRoot!.querySelectorAll('[part~="message-agent"] [part~="text"]');
      const longTasks = b.longTasksSince(t0);
      // Where the time went, for the log: each long task relative to the final `message`
      // frame, and the callbacks of each slow frame. (No named helpers in here: tsx would
      // wrap them in a __name() the page does not have.)
      const origin = b.messageFrameAt || t0;
      const slow = [
        ...b.longTasks.filter((t) => t.start >= t0).map((t) => `task ${Math.round(t.duration)} ms at ${Math.round(t.start - origin)}`),
        ...b.slowFrames
          .filter((f) => f.start >= t0)
          .map((f) => `frame ${Math.round(f.duration)} ms at ${Math.round(f.start - origin)}: ${f.scripts.join(', ')}`),
      ].join('; ');
      return {
        total: t1 - t0,
        longTasks: longTasks.count,
        longestTask: longTasks.longest,
        chars: texts[texts.length - 1]?.textContent?.length ?? 0,
        slow,
        highlighted: !!texts[texts.length - 1]?.querySelector('code.hljs'),
      };
    }, idle);
    const after = await metrics(cdp);
    if (trace) await browser.stopTracing();
    return { ...busy(before, after), ...r };
  } finally {
    await context.close();
  }
}

// --- 6. highlighted code ----------------------------------------------------------------------

/** BENCH_CODE_KB=4 measures one size of the TypeScript and JSON blocks. */
const CODE_KB = process.env.BENCH_CODE_KB ? [Number(process.env.BENCH_CODE_KB)] : [4, 16, 32];

/** A reply that is one code block of about `chars` characters of TypeScript, fenced `language`. */
function codeReply(language: string, chars: number): string {
  return `Here is the module:\n\n\`\`\`${language}\n${typescriptCode(chars)}\`\`\`\n`;
}

/** A reply that is 80 KB of code its grammar is slowest on (`fragment` repeated), fenced `language`. */
function slowReply(language: string, fragment: string): string {
  return `The code:\n\n\`\`\`${language}\n${slowCode(fragment, SLOW_KB * 1024)}\`\`\`\n`;
}
const SLOW_KB = 80;

/** A reply that is one JSON block of about `chars` characters without a blank line in it. */
function jsonReply(language: string, chars: number): string {
  const items: string[] = [];
  for (let i = 0; items.join(',\n').length < chars; i++)
    items.push(
      `  { "id": ${i}, "sku": "TR-${1000 + i}", "name": "Trail shoe ${i}", "price": ${(89 + i * 0.5).toFixed(2)}, "in_stock": ${i % 3 !== 0} }`,
    );
  return `The catalogue:\n\n\`\`\`${language}\n[\n${items.join(',\n')}\n]\n\`\`\`\n`;
}

// --- report ---------------------------------------------------------------------------------

// --- 5. the unopened launcher ----------------------------------------------------------------

const CPU_SLOWDOWN = 4;
const SERVICE_PATH = /\/(messaging|management)\/v1\//;

interface LauncherRun {
  /** Main-thread task time of the host page over the measuring window, without the widget. */
  idle: number;
  /** The same window, adding the widget (script, shell, launcher) at its start. */
  task: number;
  /** Of which script, style recalc, layout. */
  parts: string;
  serviceCalls: number;
  /** Click on the launcher to a focused, visible text field. */
  firstClick: number;
}

/**
 * One run in a fresh context (nothing cached) at 4x CPU: the host page loads and settles,
 * then two equal windows are measured on the same renderer, the page left alone, then the
 * widget added as a host adds it; the difference is what the widget costs the page. Then
 * the first click, with or without a pointer over the button 200 ms before.
 */
async function launcherPageRun(browser: Browser, base: string, key: string, intent: boolean): Promise<LauncherRun> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[launcher] page error: ${error.message}`));
    let serviceCalls = 0;
    page.on('request', (request) => {
      if (SERVICE_PATH.test(new URL(request.url()).pathname)) serviceCalls++;
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${base}/demo/bench/launcher.html`);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true);
    await page.waitForTimeout(1000);
    const window0 = await metrics(cdp);
    // The same round trip as adding the widget, doing nothing: its cost is not the widget's.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.waitForTimeout(1500);
    const window1 = await metrics(cdp);
    await page.evaluate((k) => (window as unknown as { addWidget(key: string): Promise<void> }).addWidget(k), key);
    await page.waitForTimeout(1500);
    const window2 = await metrics(cdp);
    const calls = serviceCalls;
    const firstClick = await page.evaluate(async (withIntent) => {
      const el = (window as unknown as { el: HTMLElement }).el;
      const button = el.shadowRoot!.querySelector<HTMLElement>('[part="launcher"]')!;
      if (withIntent) {
        button.dispatchEvent(new PointerEvent('pointerenter'));
        await new Promise((r) => setTimeout(r, 200));
      }
      const start = performance.now();
      button.click();
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        const field = el.shadowRoot!.querySelector<HTMLElement>('[part="input"]');
        if (field && field.offsetParent && el.shadowRoot!.activeElement === field) return performance.now() - start;
        if (performance.now() - start > 10_000) return Number.POSITIVE_INFINITY;
      }
    }, intent);
    const added = busy(window1, window2);
    const parts = `script ${added.script.toFixed(0)} ms, style ${added.style.toFixed(0)} ms, layout ${added.layout.toFixed(0)} ms`;
    return { idle: busy(window0, window1).task, task: added.task, parts, serviceCalls: calls, firstClick };
  } finally {
    await context.close();
  }
}

async function machine(browser: Browser) {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const info = await readFile('/proc/cpuinfo', 'utf8');
    model = /model name\s*:\s*(.*)/.exec(info)?.[1] ?? model;
  } catch {
    /* not Linux */
  }
  return `${cpus().length} CPUs (${model}), Node ${process.version}, Chromium ${browser.version()}, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`bench: watchdog fired after ${WATCHDOG_MS / 60000} min; exiting.`);
    process.exit(2);
  }, WATCHDOG_MS);
  watchdog.unref();

  // BENCH_DIST=<dir>: measure a bundle built elsewhere (an earlier version, for comparison).
  const prebuilt = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : null;
  const distDir = prebuilt ?? (await mkdtemp(join(tmpdir(), 'agent-chat-bench-')));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  try {
    console.log('bench: building the production bundle…');
    if (!prebuilt) await build({ root: ROOT, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
    server = await startServer(distDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const base = server.base;
    console.log(`bench: ${await machine(browser)}`);
    console.log(`bench: reply of ${REPLY_TOKENS} token frames, ${REPLY.length} chars, ${REPLY_TABLES} tables; ${RUNS} runs each`);

    const runs: Record<Variant, StreamRun[]> = { widget: [], floor: [], naive: [] };
    // Warm-up (JIT, caches), not counted.
    if (want('stream')) for (const v of ['widget', 'floor', 'naive'] as const) await streamRun(browser, base, v);
    for (let i = 0; i < (want('stream') ? RUNS : 0); i++) {
      for (const v of ['widget', 'floor', 'naive'] as const) {
        const r = await streamRun(browser, base, v);
        runs[v].push(r);
        console.log(
          `  stream ${v} #${i + 1}: task ${ms(r.task)}, long tasks ${r.longTasks} (max ${ms(r.longestTask)}), final paint ${ms(r.finalPaint)}, total ${ms(r.total)}  [${r.check}]`,
        );
      }
    }

    const restores: RestoreRun[] = [];
    if (want('restore')) {
      console.log(`bench: creating a ${RESTORE_TURNS}-turn thread…`);
      const t = performance.now();
      const thread = await createLongThread(base, RESTORE_TURNS);
      console.log(`  created in ${ms(performance.now() - t)}`);
      await restoreRun(browser, base, thread.key, thread.threadId); // warm-up
      for (let i = 0; i < RUNS; i++) {
        const r = await restoreRun(browser, base, thread.key, thread.threadId);
        restores.push(r);
        console.log(
          `  restore #${i + 1}: rendered ${ms(r.rendered)} (transcript fetch ${ms(r.transcriptFetch)}), ${r.messages} messages, long tasks ${r.longTasks} (max ${ms(r.longestTask)}); ` +
            `scroll to top ${ms(r.scrollTime)} in ${r.scrollFrames} frames (${r.scrolledMessages} messages), long tasks ${r.scrollLongTasks} (max ${ms(r.scrollLongestTask)}), longest frame ${ms(r.scrollLongestFrame)}; ` +
            `down again ${ms(r.downTime)}, long tasks ${r.downLongTasks} (max ${ms(r.downLongestTask)}); at most ${r.mostRendered} rendered, ${r.nodesAfter} DOM nodes after; ` +
            `keystroke ${ms(r.keystrokeBefore)} → ${ms(r.keystrokeAfter)}\n    steps ${r.steps}`,
        );
      }
    }

    const hostile: Record<string, HostileRun[][]> = {};
    if (want('hostile')) {
      const runsEach = Math.min(RUNS, 3);
      console.log(`bench: hostile markdown, ${HOSTILE_KB.join('/')} KB, ${runsEach} runs each…`);
      await hostileRun(browser, base, HOSTILE['intraword underscores']!(10_000)); // warm-up
      for (const [family, make] of Object.entries(HOSTILE)) {
        // BENCH_FAMILY=<part of a name> measures the matching families only.
        if (process.env.BENCH_FAMILY && !family.includes(process.env.BENCH_FAMILY)) continue;
        hostile[family] = [];
        for (const kb of HOSTILE_KB) {
          const list: HostileRun[] = [];
          for (let i = 0; i < runsEach; i++) list.push(await hostileRun(browser, base, make(kb * 1024)));
          hostile[family].push(list);
          const med = (f: (r: HostileRun) => number) => median(list.map(f));
          console.log(
            `  ${family} ${kb} KB: task ${ms(med((r) => r.task))}, longest task ${ms(med((r) => r.longestTask))}, long tasks ${med((r) => r.longTasks)}, total ${ms(med((r) => r.total))} [chars=${list.at(-1)!.chars}]`,
          );
          for (const [i, r] of list.entries()) if (r.slow) console.log(`    run ${i + 1}: ${r.slow}`);
        }
      }
    }

    const code: Record<string, Record<'ts' | 'text', HostileRun[]>> = {};
    const slowRuns: Record<string, Record<'highlighted' | 'text', HostileRun[]>> = {};
    if (want('code')) {
      console.log(`bench: highlighted code, ${CODE_KB.join('/')} KB, ${RUNS} runs each…`);
      await hostileRun(browser, base, codeReply('ts', 4096)); // warm-up: the chunk and the grammar are cached after it
      // BENCH_FAMILY=typescript|c|cpp|csharp|java measures that code only.
      const family = (name: string) => !process.env.BENCH_FAMILY || process.env.BENCH_FAMILY === name;
      for (const kb of family('typescript') ? CODE_KB : []) {
        const runsOf = { ts: [] as HostileRun[], text: [] as HostileRun[] };
        for (let i = 0; i < RUNS; i++)
          for (const language of ['ts', 'text'] as const)
            runsOf[language].push(await hostileRun(browser, base, codeReply(language, kb * 1024), true));
        code[`${kb} KB`] = runsOf;
        const json = { ts: [] as HostileRun[], text: [] as HostileRun[] };
        for (let i = 0; i < RUNS; i++)
          for (const language of ['ts', 'text'] as const)
            json[language].push(await hostileRun(browser, base, jsonReply(language === 'ts' ? 'json' : 'text', kb * 1024), true));
        code[`${kb} KB JSON, no blank line`] = json;
        const med = (list: HostileRun[], f: (r: HostileRun) => number) => median(list.map(f));
        for (const [i, r] of runsOf.ts.entries()) if (r.slow) console.log(`    highlighted run ${i + 1}: ${r.slow}`);
        console.log(
          `  code ${kb} KB: highlighted ${ms(med(runsOf.ts, (r) => r.task))} (longest task ${ms(med(runsOf.ts, (r) => r.longestTask))}), plain ${ms(med(runsOf.text, (r) => r.task))} (longest ${ms(med(runsOf.text, (r) => r.longestTask))})`,
        );
      }
      // The inputs highlight.js's grammars are slowest on (test/support/slow-code.ts), 80 KB,
      // fenced with their language and as `text`.
      for (const [language, { lines }] of Object.entries(SLOW_CODE)) {
        if (!family(language)) continue;
        const runsOf = { highlighted: [] as HostileRun[], text: [] as HostileRun[] };
        for (let i = 0; i < RUNS; i++)
          for (const fence of [language, 'text'])
            runsOf[fence === 'text' ? 'text' : 'highlighted'].push(await hostileRun(browser, base, slowReply(fence, lines), true));
        slowRuns[language] = runsOf;
        const med = (list: HostileRun[], f: (r: HostileRun) => number) => median(list.map(f));
        for (const [i, r] of runsOf.highlighted.entries()) if (r.slow) console.log(`    highlighted run ${i + 1}: ${r.slow}`);
        console.log(
          `  ${language} ${JSON.stringify(lines.slice(0, 8))} 80 KB: highlighted ${ms(med(runsOf.highlighted, (r) => r.task))} (longest task ${ms(med(runsOf.highlighted, (r) => r.longestTask))}, ${runsOf.highlighted.filter((r) => r.highlighted).length} of ${RUNS} ended highlighted), plain ${ms(med(runsOf.text, (r) => r.task))} (longest ${ms(med(runsOf.text, (r) => r.longestTask))})`,
        );
      }
    }

    const unopened: Record<'widget' | 'intent', LauncherRun[]> = { widget: [], intent: [] };
    if (want('launcher')) {
      console.log(`bench: unopened launcher at ${CPU_SLOWDOWN}x CPU…`);
      const key = await newKey(base, { paceMs: 0 });
      await launcherPageRun(browser, base, key, false); // warm-up (the server's first responses)
      for (let i = 0; i < RUNS; i++) {
        unopened.widget.push(await launcherPageRun(browser, base, key, false));
        unopened.intent.push(await launcherPageRun(browser, base, key, true));
        const [w, n] = [unopened.widget.at(-1)!, unopened.intent.at(-1)!];
        console.log(
          `  launcher #${i + 1}: page alone ${ms(w.idle)}, adding the widget ${ms(w.task)} (${w.parts}; ${w.serviceCalls} service calls), first click ${ms(w.firstClick)}, after intent ${ms(n.firstClick)}`,
        );
      }
    }

    // Cost at scale (bench/scale.ts): long replies, and a 200-turn session.
    const scale: string[] = [];
    if (want('reply')) {
      console.log('bench: 100 KB and 1 MB replies…');
      scale.push(...(await replies(browser, base, Math.min(RUNS, 3))), '');
    }
    if (want('session')) {
      console.log('bench: a 200-turn session…');
      scale.push(...(await session(browser, base, Math.min(RUNS, 3))), '');
    }
    if (want('compare')) {
      console.log('bench: beside Deep Chat…');
      scale.push(...(await compare(browser, base, Math.min(RUNS, 3))), '');
    }
    if (want('load')) {
      console.log('bench: the page load alone, beside Deep Chat…');
      scale.push(...(await loads(browser, base)), '');
    }
    if (want('branches')) {
      console.log('bench: chains of edits of one message…');
      scale.push(...(await branchChains(browser, base, Math.min(RUNS, 3))), '');
    }
    if (want('limits')) {
      console.log('bench: replies by size, and hostile ones…');
      scale.push(...(await limits(browser, base, Math.min(RUNS, 3))), '');
    }

    let launcher: Sample[] = [];
    let turns: Sample[] = [];
    if (want('memory')) {
      console.log('bench: memory…');
      launcher = await launcherCycles(browser, base, 20);
      turns = await turnCycles(browser, base, 50);
    }

    // Tables.
    const m = (v: Variant, f: (r: StreamRun) => number) => median(runs[v].map(f));
    const rows: Array<[string, (r: StreamRun) => number, (n: number) => string]> = [
      ['Main-thread task time', (r) => r.task, ms],
      ['  of which script (CDP ScriptDuration)', (r) => r.script, ms],
      ['  of which layout', (r) => r.layout, ms],
      ['  of which style recalc', (r) => r.style, ms],
      ['Long tasks (> 50 ms)', (r) => r.longTasks, (n) => String(n)],
      ['Longest task', (r) => r.longestTask, ms],
      ['Last frame → final paint', (r) => r.finalPaint, ms],
      ['Send → final paint', (r) => r.total, ms],
    ];
    const out: string[] = [];
    out.push(`Machine: ${await machine(browser)}`);
    out.push(`Reply: ${REPLY_TOKENS} token frames (${REPLY.length} chars, ${REPLY_TABLES} tables), paceMs 0; medians of ${RUNS} runs.`);
    out.push('');
    if (want('stream')) {
      out.push('| Streaming (median) | widget | floor | naive | widget / floor | naive / floor |');
      out.push('|---|---:|---:|---:|---:|---:|');
      for (const [label, f, fmt] of rows) {
        const w = m('widget', f),
          fl = m('floor', f),
          n = m('naive', f);
        out.push(`| ${label} | ${fmt(w)} | ${fmt(fl)} | ${fmt(n)} | ${ratio(w, fl)} | ${ratio(n, fl)} |`);
      }
      out.push(
        `| Render check (last run) | ${runs.widget.at(-1)!.check} | ${runs.floor.at(-1)!.check} | ${runs.naive.at(-1)!.check} | | |`,
      );
      out.push('');
    }
    if (want('restore')) {
      const rm = (f: (r: RestoreRun) => number) => median(restores.map(f));
      out.push(`| Restore ${RESTORE_TURNS * 2} messages (median) | value |`);
      out.push('|---|---:|');
      out.push(`| Mount → rendered (next frame) | ${ms(rm((r) => r.rendered))} |`);
      out.push(`| of which transcript fetch | ${ms(rm((r) => r.transcriptFetch))} |`);
      out.push(
        `| Main-thread task time | ${ms(rm((r) => r.task))} (script ${ms(rm((r) => r.script))}, layout ${ms(rm((r) => r.layout))}, style ${ms(rm((r) => r.style))}) |`,
      );
      out.push(`| Long tasks / longest | ${rm((r) => r.longTasks)} / ${ms(rm((r) => r.longestTask))} |`);
      out.push(`| [part~=message] elements rendered | ${restores.at(-1)!.messages} |`);
      out.push(
        `| Scroll to the first message (400 px per frame) | ${ms(rm((r) => r.scrollTime))}, ${rm((r) => r.scrollFrames)} frames, ${restores.at(-1)!.scrolledMessages} messages at the top |`,
      );
      out.push(`| while scrolling: long tasks / longest | ${rm((r) => r.scrollLongTasks)} / ${ms(rm((r) => r.scrollLongestTask))} |`);
      out.push(`| while scrolling: longest frame | ${ms(rm((r) => r.scrollLongestFrame))} |`);
      out.push(
        `| while scrolling: main-thread task time | ${ms(rm((r) => r.scrollBusy.task))} (layout ${ms(rm((r) => r.scrollBusy.layout))}, style ${ms(rm((r) => r.scrollBusy.style))}) |`,
      );
      out.push(
        `| Back down to the latest | ${ms(rm((r) => r.downTime))}, long tasks ${rm((r) => r.downLongTasks)} / longest ${ms(rm((r) => r.downLongestTask))} |`,
      );
      out.push(`| Messages rendered at most, on the way up and down | ${Math.max(...restores.map((r) => r.mostRendered))} |`);
      out.push(`| DOM nodes after the round trip | ${rm((r) => r.nodesAfter)} |`);
      out.push(
        `| Main-thread time per keystroke, before / after the round trip | ${ms(rm((r) => r.keystrokeBefore))} / ${ms(rm((r) => r.keystrokeAfter))} |`,
      );
      out.push('');
    }
    if (want('hostile')) {
      out.push(
        `| Hostile markdown, streamed 64 chars a frame (median of ${Math.min(RUNS, 3)}): main-thread time / longest task | ${HOSTILE_KB.map((kb) => `${kb} KB`).join(' | ')} | growth per doubling (max) |`,
      );
      out.push(`|---|${HOSTILE_KB.map(() => '---:').join('|')}|---:|`);
      for (const [family, sizes] of Object.entries(hostile)) {
        const task = sizes.map((list) => median(list.map((r) => r.task)));
        const longest = sizes.map((list) => median(list.map((r) => r.longestTask)));
        const growth = Math.max(...task.slice(1).map((t, i) => t / task[i]!));
        out.push(`| ${family} | ${task.map((t, i) => `${ms(t)} / ${ms(longest[i]!)}`).join(' | ')} | ${growth.toFixed(2)}x |`);
      }
      out.push('');
    }
    if (want('code')) {
      out.push(
        `| Code block streamed 64 chars a frame (median of ${RUNS}) | main-thread time, highlighted / plain (ratio) | added per frame | longest task, highlighted / plain |`,
      );
      out.push('|---|---:|---:|---:|');
      for (const [size, { ts, text }] of Object.entries(code)) {
        const frames = Math.ceil((size.includes('JSON') ? jsonReply : codeReply)('ts', Number.parseInt(size) * 1024).length / 64);
        const [h, p] = [median(ts.map((r) => r.task)), median(text.map((r) => r.task))];
        out.push(
          `| ${size} (${frames} frames) | ${ms(h)} / ${ms(p)} (${ratio(h, p)}) | ${ms((h - p) / frames)} | ${ms(median(ts.map((r) => r.longestTask)))} / ${ms(median(text.map((r) => r.longestTask)))} |`,
        );
      }
      out.push('');
      out.push(
        `| ${SLOW_KB} KB its grammar is slowest on, streamed 64 chars a frame (median of ${RUNS}) | main-thread time, highlighted / plain | longest task, highlighted / plain | tasks over 50 ms, highlighted / plain | ended highlighted |`,
      );
      out.push('|---|---:|---:|---:|---:|');
      for (const [language, { highlighted: h, text: p }] of Object.entries(slowRuns)) {
        const m = (list: HostileRun[], f: (r: HostileRun) => number) => median(list.map(f));
        out.push(
          `| ${language} \`${JSON.stringify(SLOW_CODE[language as keyof typeof SLOW_CODE].lines.slice(0, 8))}\` | ${ms(m(h, (r) => r.task))} / ${ms(m(p, (r) => r.task))} | ${ms(m(h, (r) => r.longestTask))} / ${ms(m(p, (r) => r.longestTask))} | ${m(h, (r) => r.longTasks)} / ${m(p, (r) => r.longTasks)} | ${h.filter((r) => r.highlighted).length} of ${h.length} |`,
        );
      }
      out.push('');
    }
    if (want('launcher')) {
      const lm = (v: keyof typeof unopened, f: (r: LauncherRun) => number) => median(unopened[v].map(f));
      out.push(`| Unopened launcher, ${CPU_SLOWDOWN}x CPU, nothing cached (median of ${RUNS}) | value |`);
      out.push('|---|---:|');
      out.push(`| Main-thread time of the settled host page over 1.5 s, alone | ${ms(lm('widget', (r) => r.idle))} |`);
      out.push(`| The same 1.5 s, adding the widget at its start (script tag, element) | ${ms(lm('widget', (r) => r.task))} |`);
      out.push(`| Added by the widget (median of the per-run differences) | ${ms(lm('widget', (r) => r.task - r.idle))} |`);
      out.push(`| Service calls before a click | ${lm('widget', (r) => r.serviceCalls)} |`);
      out.push(`| First click → focused text field, cold | ${ms(lm('widget', (r) => r.firstClick))} |`);
      out.push(`| First click → focused text field, pointer over it 200 ms before | ${ms(lm('intent', (r) => r.firstClick))} |`);
      out.push('');
    }
    if (want('memory')) {
      out.push('| Memory (after forced GC) | first | last | change | DOM nodes first → last | listeners first → last |');
      out.push('|---|---:|---:|---:|---:|---:|');
      const memRow = (label: string, a: Sample, b: Sample) =>
        `| ${label} | ${mb(a.heap)} | ${mb(b.heap)} | ${((b.heap / a.heap - 1) * 100).toFixed(1)}% | ${a.nodes} → ${b.nodes} | ${a.listeners} → ${b.listeners} |`;
      out.push(memRow('Launcher open/close, cycle 1 → 20', launcher[1]!, launcher[20]!));
      out.push(memRow('Turns, turn 1 → 50', turns[1]!, turns[50]!));
      const slope = (xs: Sample[], from: number, to: number) => (xs[to]!.heap - xs[from]!.heap) / (to - from);
      out.push('');
      out.push(
        `Heap growth per turn: turns 1-10 ${(slope(turns, 1, 11) / 1024).toFixed(1)} KB, turns 40-50 ${(slope(turns, 40, 50) / 1024).toFixed(1)} KB; ` +
          `DOM nodes per turn ${((turns[50]!.nodes - turns[1]!.nodes) / 49).toFixed(0)}.`,
      );
    }
    out.push(...scale);
    console.log('\n' + out.join('\n'));
  } finally {
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    if (!prebuilt) await rm(distDir, { recursive: true, force: true });
    clearTimeout(watchdog);
  }
}

await main();
