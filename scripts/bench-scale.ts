/**
 * The benchmarks of cost at scale (#29), run by scripts/bench.ts:
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
import type { Browser } from 'playwright-core';
import {
  askAsReader,
  type Bench,
  type BenchWidget,
  busy,
  keystrokeCost,
  mountWidget,
  heap,
  mb,
  median,
  metrics,
  ms,
  newKey,
  openPage,
  ratio,
  settle,
} from './bench-support.js';

type Widget = BenchWidget;

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

async function replyRun(browser: Browser, base: string, variant: 'widget' | 'floor-follow', text: string): Promise<ReplyRun> {
  const { context, page, cdp } = await openPage(browser, base, variant);
  try {
    const key = await newKey(base, { replies: [{ text }], paceMs: 0, chunkChars: 64 });
    if (variant === 'widget') await mountWidget(page, key);
    await settle(page);
    const heapBefore = await heap(cdp);
    // BENCH_PROFILE=<file>: a CPU profile of the widget's turn, for DevTools.
    const profile = variant === 'widget' && process.env.BENCH_PROFILE;
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const before = await metrics(cdp);
    const r = await page.evaluate(
      async ({ variant, key }) => {
        const w = window as unknown as { __bench: Bench; el: Widget; runTurn(k: string, t: string): Promise<void> };
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
      { variant, key },
    );
    const after = await metrics(cdp);
    if (profile) await writeFile(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const heapAfter = await heap(cdp);
    return { ...busy(before, after), ...r, heap: heapAfter.heap - heapBefore.heap };
  } finally {
    await context.close();
  }
}

/** The reply section: each size, widget and floor alternating; returns the table's lines. */
export async function replies(browser: Browser, base: string, runs: number): Promise<string[]> {
  const out = [
    `| Reply streamed 64 chars a frame (median of ${runs}) | widget | floor (scrolls once a frame) | widget / floor |`,
    '|---|---:|---:|---:|',
  ];
  await replyRun(browser, base, 'widget', longReply(20_000)); // warm-up
  for (const size of REPLY_SIZES) {
    const text = longReply(size);
    const list: Record<'widget' | 'floor-follow', ReplyRun[]> = { widget: [], 'floor-follow': [] };
    for (let i = 0; i < runs; i++) {
      for (const variant of ['widget', 'floor-follow'] as const) {
        const r = await replyRun(browser, base, variant, text);
        list[variant].push(r);
        console.log(
          `  reply ${size / 1000} KB ${variant} #${i + 1}: task ${ms(r.task)} (layout ${ms(r.layout)}, style ${ms(r.style)}), long tasks ${r.longTasks} (max ${ms(r.longestTask)}), heap +${mb(r.heap)}, total ${ms(r.total)} [chars=${r.chars}]${r.slow ? `\n    slow frames ran: ${r.slow}` : ''}`,
        );
      }
    }
    const m = (v: 'widget' | 'floor-follow', f: (r: ReplyRun) => number) => median(list[v].map(f));
    const row = (label: string, f: (r: ReplyRun) => number, fmt: (n: number) => string) =>
      `| ${size / 1000} KB: ${label} | ${fmt(m('widget', f))} | ${fmt(m('floor-follow', f))} | ${ratio(m('widget', f), m('floor-follow', f))} |`;
    out.push(row('main-thread time', (r) => r.task, ms));
    out.push(row('long tasks (> 50 ms)', (r) => r.longTasks, String));
    out.push(row('longest task', (r) => r.longestTask, ms));
    out.push(row('heap after GC, grown', (r) => r.heap, mb));
    out.push(row('send → final paint', (r) => r.total, ms));
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

async function sessionRun(browser: Browser, base: string, turns: number): Promise<SessionPoint[]> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    const key = await newKey(base, { replies: [{ text: SESSION_REPLY }], paceMs: 0, chunkChars: 24 });
    await mountWidget(page, key);
    await settle(page);
    const turn = (n: number) => askAsReader(page, n);
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
      const perKeystroke = await keystrokeCost(page, cdp);
      if (profile) await writeFile(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
      return { perToken, perKeystroke, nodes: (await metrics(cdp)).Nodes ?? 0 };
    };
    const first = await measure(1);
    // Nodes of one question (elements, text and comment markers), and its listeners (CDP).
    const question = await page.evaluate(() => {
      const article = (window as unknown as { el: Widget }).el.shadowRoot!.querySelector('article.message.user')!;
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_ALL);
      let nodes = 1;
      while (walker.nextNode()) nodes++;
      // The keyed list's two markers around it.
      return nodes + 2;
    });
    console.log(`  a one-line question: ${question} DOM nodes`);
    for (let n = 2; n < turns; n++) await turn(n);
    const last = await measure(turns);
    return [first, last];
  } finally {
    await context.close();
  }
}

/** The session section: `runs` sessions of 200 turns; returns the table's lines. */
export async function session(browser: Browser, base: string, runs: number): Promise<string[]> {
  const turns = 200;
  const points: SessionPoint[][] = [];
  for (let i = 0; i < runs; i++) {
    const [first, last] = await sessionRun(browser, base, turns);
    points.push([first!, last!]);
    console.log(
      `  session #${i + 1}: per token ${ms(first!.perToken)} → ${ms(last!.perToken)}, per keystroke ${ms(first!.perKeystroke)} → ${ms(last!.perKeystroke)}, DOM nodes ${first!.nodes} → ${last!.nodes}`,
    );
  }
  const m = (at: 0 | 1, f: (p: SessionPoint) => number) => median(points.map((p) => f(p[at]!)));
  return [
    `| ${turns}-turn session (median of ${runs}; reply ${SESSION_REPLY.length} chars in ${SESSION_FRAMES} frames) | turn 1 | turn ${turns} | ${turns} / 1 |`,
    '|---|---:|---:|---:|',
    `| Main-thread time per token frame | ${ms(m(0, (p) => p.perToken))} | ${ms(m(1, (p) => p.perToken))} | ${ratio(
      m(1, (p) => p.perToken),
      m(0, (p) => p.perToken),
    )} |`,
    `| Main-thread time per keystroke | ${ms(m(0, (p) => p.perKeystroke))} | ${ms(m(1, (p) => p.perKeystroke))} | ${ratio(
      m(1, (p) => p.perKeystroke),
      m(0, (p) => p.perKeystroke),
    )} |`,
    `| DOM nodes | ${m(0, (p) => p.nodes)} | ${m(1, (p) => p.nodes)} | |`,
  ];
}
