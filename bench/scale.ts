/**
 * The benchmarks of cost at scale (#29), run by bench/bench.ts:
 *
 *  - `BENCH_ONLY=reply`: a 100 KB and a 1 MB markdown reply (paragraphs, lists, code,
 *    tables, quotes) streamed 64 characters a frame as fast as the server writes, into the
 *    widget and into a floor page that appends each raw delta to a <pre> and scrolls once
 *    per animation frame. Main-thread time (CDP TaskDuration), long tasks, and the JS heap
 *    after forced GC, grown over the page before the turn (the widget's includes the
 *    rendered reply's DOM wrappers and the message itself).
 *  - `BENCH_ONLY=session`: one widget through 200 turns (the same ~1.5 KB reply each,
 *    24 characters a frame): main-thread time per token frame of turn 1 and of turn 200,
 *    and per keystroke (20 keystrokes into the text field, each until its render and the
 *    next frame) after turn 1 and after turn 200.
 */
import { writeFile } from 'node:fs/promises';
import { REPLY_LENGTH } from '../src/client/types.js';
import type { Browser } from 'playwright-core';
import {
  askAsReader,
  type Bench,
  type BenchWidget,
  busy,
  deepChatKeystroke,
  keystrokeCost,
  mountWidget,
  heap,
  longReply,
  mb,
  median,
  metrics,
  ms,
  newKey,
  openPage,
  ratio,
  settle,
  TRACE_CATEGORIES,
} from './support.js';

type Widget = BenchWidget;

/** BENCH_REPLY_KB=1000 measures one size. */
const REPLY_SIZES = process.env.BENCH_REPLY_KB ? [Number(process.env.BENCH_REPLY_KB) * 1000] : [100_000, 1_000_000];

interface ReplyRun {
  task: number;
  layout: number;
  style: number;
  longTasks: number;
  longestTask: number;
  total: number;
  heap: number;
  chars: number;
  /** The slow frames' callbacks, by invoker. */
  slow: string;
}

type ReplyVariant = 'widget' | 'floor-follow' | 'deep-chat';
const REPLY_VARIANTS: ReplyVariant[] = ['widget', 'floor-follow', 'deep-chat'];
/** How long Deep Chat may take over a reply (it renders the whole reply again on every frame): then it is given up. */
const DEEP_CHAT_LIMIT_MS = Number(process.env.BENCH_DEEP_CHAT_LIMIT_S ?? 120) * 1000;
/**
 * The longest reply given to Deep Chat: past it, a single task of its render outlasts any
 * limit (20 KB: a 5.2 s task; 1 MB did not end in 10 minutes), and the page cannot be asked
 * anything meanwhile.
 */
const DEEP_CHAT_MAX_CHARS = Number(process.env.BENCH_DEEP_CHAT_MAX_KB ?? 100) * 1000;

async function replyRun(browser: Browser, base: string, variant: ReplyVariant, text: string): Promise<ReplyRun> {
  const { context, page, cdp } = await openPage(browser, base, variant);
  try {
    const key = await newKey(base, { replies: [{ text }], paceMs: 0, chunkChars: 64 });
    // The whole reply is shown: the default limit (200,000 characters, #25) would cut the 1 MB one.
    if (variant === 'widget') await mountWidget(page, key, { 'max-reply-length': String(REPLY_LENGTH.max) });
    if (variant === 'deep-chat')
      await page.evaluate(
        async (key) => void ((window as unknown as DeepChatPage).el = await (window as unknown as DeepChatPage).mountWidget({ key })),
        key,
      );
    await settle(page);
    const heapBefore = await heap(cdp);
    // BENCH_PROFILE=<file>: a CPU profile of the widget's turn, for DevTools.
    const profile = variant === 'widget' && process.env.BENCH_PROFILE;
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    // BENCH_TRACE=<file>: a performance trace of the widget's turn (DevTools' Performance panel
    // opens it): what its long tasks are made of (script, style, layout, paint, garbage collection).
    const trace = variant === 'widget' && process.env.BENCH_TRACE;
    if (trace)
      await browser.startTracing(page, {
        path: trace,
        categories: TRACE_CATEGORIES,
      });
    const before = await metrics(cdp);
    const r = await page.evaluate(
      async ({ variant, key, limit }) => {
        const w = window as unknown as { __bench: Bench; el: Widget; runTurn(k: unknown, t: string): Promise<void> };
        const b = w.__bench;
        const t0 = performance.now();
        let chars = 0;
        if (variant === 'widget') {
          const done = new Promise((r) => w.el.addEventListener('agent-chat-message', r, { once: true }));
          w.el.send('Tell me everything.');
          await done;
          while (w.el.status !== 'idle') await b.nextFrame();
          await w.el.updateComplete;
          const texts = w.el.shadowRoot!.querySelectorAll('[part~="message-agent"] [part~="text"]');
          chars = texts[texts.length - 1]?.textContent?.length ?? 0;
        } else if (variant === 'deep-chat') {
          await Promise.race([w.runTurn(w.el, 'Tell me everything.'), new Promise((r) => setTimeout(r, limit))]);
          const texts = w.el.shadowRoot!.querySelectorAll('.ai-message-text');
          chars = texts[texts.length - 1]?.textContent?.length ?? 0;
        } else {
          await w.runTurn(key, 'Tell me everything.');
          chars = document.getElementById('out')!.textContent!.length;
        }
        const t1 = await b.nextFrame();
        const long = b.longTasksSince(t0);
        // What the slow frames ran (long-animation-frame): the invokers and their total time.
        const invokers = new Map<string, number>();
        for (const f of b.slowFrames.filter((f) => f.start >= t0))
          for (const script of f.scripts) {
            const [, name, time] = /^(.*) (\d+) ms$/.exec(script) ?? [];
            if (name) invokers.set(name, (invokers.get(name) ?? 0) + Number(time));
          }
        const slow = [...invokers]
          .sort((a, z) => z[1] - a[1])
          .slice(0, 4)
          .map(([name, time]) => `${name} ${time} ms`)
          .join(', ');
        return { total: t1 - t0, longTasks: long.count, longestTask: long.longest, chars, slow };
      },
      { variant, key, limit: DEEP_CHAT_LIMIT_MS },
    );
    const after = await metrics(cdp);
    if (trace) await browser.stopTracing();
    if (profile) await writeFile(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const heapAfter = await heap(cdp);
    return { ...busy(before, after), ...r, heap: heapAfter.heap - heapBefore.heap };
  } finally {
    await context.close();
  }
}

/**
 * The reply section: each size, widget, floor and Deep Chat alternating (Deep Chat given up
 * after BENCH_DEEP_CHAT_LIMIT_S, 120 s: its chars say how far it got; not given replies
 * over BENCH_DEEP_CHAT_MAX_KB, 100 KB); the table's lines.
 */
export async function replies(browser: Browser, base: string, runs: number): Promise<string[]> {
  const out = [
    `| Reply streamed 64 chars a frame (median of ${runs}) | widget | floor (scrolls once a frame) | Deep Chat | widget / floor |`,
    '|---|---:|---:|---:|---:|',
  ];
  await replyRun(browser, base, 'widget', longReply(20_000)); // warm-up
  for (const size of REPLY_SIZES) {
    // Exactly `size` (the builder runs a little past it): 1 MB fits the widget's largest `max-reply-length`.
    const text = longReply(size).slice(0, size);
    const list: Record<ReplyVariant, ReplyRun[]> = { widget: [], 'floor-follow': [], 'deep-chat': [] };
    for (let i = 0; i < runs; i++) {
      for (const variant of REPLY_VARIANTS) {
        if (variant === 'deep-chat' && size > DEEP_CHAT_MAX_CHARS) continue;
        const r = await replyRun(browser, base, variant, text);
        list[variant].push(r);
        console.log(
          `  reply ${size / 1000} KB ${variant} #${i + 1}: task ${ms(r.task)} (layout ${ms(r.layout)}, style ${ms(r.style)}), long tasks ${r.longTasks} (max ${ms(r.longestTask)}), heap +${mb(r.heap)}, total ${ms(r.total)} [chars=${r.chars}]${r.slow ? `\n    slow frames ran: ${r.slow}` : ''}`,
        );
      }
    }
    const m = (v: ReplyVariant, f: (r: ReplyRun) => number) => (list[v].length ? median(list[v].map(f)) : NaN);
    const row = (label: string, f: (r: ReplyRun) => number, fmt: (n: number) => string) =>
      `| ${size / 1000} KB: ${label} | ${fmt(m('widget', f))} | ${fmt(m('floor-follow', f))} | ${fmt(m('deep-chat', f))} | ${ratio(m('widget', f), m('floor-follow', f))} |`;
    out.push(row('main-thread time', (r) => r.task, ms));
    out.push(row('long tasks (> 50 ms)', (r) => r.longTasks, String));
    out.push(row('longest task', (r) => r.longestTask, ms));
    out.push(row('heap after GC, grown', (r) => r.heap, mb));
    out.push(row('send → final paint', (r) => r.total, ms));
    out.push(row('characters shown at the end', (r) => r.chars, String));
  }
  return out;
}

// --- a long live session ------------------------------------------------------------------

const SESSION_REPLY = longReply(1_500);
const SESSION_FRAMES = Math.ceil(SESSION_REPLY.length / 24);

interface SessionPoint {
  /** Main-thread time of the turn, per token frame. */
  perToken: number;
  /** Main-thread time per keystroke (the keystroke, its render and the next frame). */
  perKeystroke: number;
  nodes: number;
}

async function sessionRun(browser: Browser, base: string, turns: number, variant: 'widget' | 'deep-chat'): Promise<SessionPoint[]> {
  const { context, page, cdp } = await openPage(browser, base, variant);
  try {
    const key = await newKey(base, { replies: [{ text: SESSION_REPLY }], paceMs: 0, chunkChars: 24 });
    if (variant === 'widget') await mountWidget(page, key);
    else
      await page.evaluate(
        async (key) => void ((window as unknown as DeepChatPage).el = await (window as unknown as DeepChatPage).mountWidget({ key })),
        key,
      );
    await settle(page);
    const turn = (n: number) =>
      variant === 'widget'
        ? askAsReader(page, n)
        : page.evaluate(
            async (n) => (window as unknown as DeepChatPage).runTurn((window as unknown as DeepChatPage).el, `Question ${n}`),
            n,
          );
    const measure = async (n: number): Promise<SessionPoint> => {
      const before = await metrics(cdp);
      await turn(n);
      const perToken = busy(before, await metrics(cdp)).task / SESSION_FRAMES;
      // BENCH_PROFILE=<file>: a CPU profile of the last point's keystrokes.
      const profile = n === turns && process.env.BENCH_PROFILE;
      if (profile) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      const perKeystroke = variant === 'widget' ? await keystrokeCost(page, cdp) : await deepChatKeystroke(page, cdp);
      if (profile) await writeFile(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
      return { perToken, perKeystroke, nodes: (await metrics(cdp)).Nodes ?? 0 };
    };
    const first = await measure(1);
    // Nodes of one question (elements, text and comment markers), and its listeners (CDP).
    if (variant === 'widget') await questionNodes();
    for (let n = 2; n < turns; n++) await turn(n);
    const last = await measure(turns);
    return [first, last];
  } finally {
    await context.close();
  }

  async function questionNodes() {
    const question = await page.evaluate(() => {
      const article = (window as unknown as { el: Widget }).el.shadowRoot!.querySelector('article.message.user')!;
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_ALL);
      let nodes = 1;
      while (walker.nextNode()) nodes++;
      // The keyed list's two markers around it.
      return nodes + 2;
    });
    console.log(`  a one-line question: ${question} DOM nodes`);
  }
}

/** demo/bench/deep-chat.html */
interface DeepChatPage {
  el: HTMLElement;
  mountWidget(a: { key: string; threadId?: string }): Promise<HTMLElement>;
  runTurn(el: HTMLElement, text: string): Promise<void>;
}

/** The session section: `runs` sessions of 200 turns; returns the table's lines. */
export async function session(browser: Browser, base: string, runs: number): Promise<string[]> {
  const turns = Number(process.env.BENCH_TURNS ?? 200);
  const points: Record<'widget' | 'deep-chat', SessionPoint[][]> = { widget: [], 'deep-chat': [] };
  for (let i = 0; i < runs; i++)
    for (const variant of ['widget', 'deep-chat'] as const) {
      const [first, last] = await sessionRun(browser, base, turns, variant);
      points[variant].push([first!, last!]);
      console.log(
        `  session ${variant} #${i + 1}: per token ${ms(first!.perToken)} → ${ms(last!.perToken)}, per keystroke ${ms(first!.perKeystroke)} → ${ms(last!.perKeystroke)}, DOM nodes ${first!.nodes} → ${last!.nodes}`,
      );
    }
  const m = (v: 'widget' | 'deep-chat', at: 0 | 1, f: (p: SessionPoint) => number) => median(points[v].map((p) => f(p[at]!)));
  const row = (label: string, f: (p: SessionPoint) => number, fmt: (n: number) => string, growth = true) =>
    `| ${label} | ${(['widget', 'deep-chat'] as const)
      .map((v) => `${fmt(m(v, 0, f))} | ${fmt(m(v, 1, f))} | ${growth ? ratio(m(v, 1, f), m(v, 0, f)) : ''}`)
      .join(' | ')} |`;
  return [
    `| ${turns}-turn session (median of ${runs}; reply ${SESSION_REPLY.length} chars in ${SESSION_FRAMES} frames) | widget, turn 1 | turn ${turns} | ${turns} / 1 | Deep Chat, turn 1 | turn ${turns} | ${turns} / 1 |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    row('Main-thread time per token frame', (p) => p.perToken, ms),
    row('Main-thread time per keystroke', (p) => p.perKeystroke, ms),
    row('DOM nodes', (p) => p.nodes, String, false),
  ];
}
