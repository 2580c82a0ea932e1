/**
 * Size limits (#25 item 4), run by bench/bench.ts as `BENCH_ONLY=limits`.
 *
 *  - What a reply costs to render by its size, to choose `max-reply-length`'s default: a
 *    markdown reply (the blocks of scale.ts `longReply`) of 50 KB to 1 MB arriving in
 *    one frame (the worst case for one task: a REST answer, a service that does not stream),
 *    with `max-reply-length="1000000"` so nothing is cut.
 *  - The issue's hostile replies, at the default limit: 8 MB in one SSE frame, 8 MB streamed
 *    in 256 KB frames, and 8 MB as one REST answer. Run it on the bundle before the limits
 *    (`BENCH_DIST=<dir>`) for the other side of the A/B.
 *
 * Per run, from send to the next frame after the turn ended: main-thread time (CDP
 * TaskDuration), long tasks and the longest, and what the reply shows (characters, cut).
 */
import type { Browser } from 'playwright-core';
import { type Bench, type BenchWidget, busy, median, metrics, ms, newKey, openPage, settle } from './support.js';
import { longReply } from './support.js';

const SIZES_KB = process.env.BENCH_LIMIT_KB ? process.env.BENCH_LIMIT_KB.split(',').map(Number) : [50, 100, 200, 500, 1000];
/** A turn that has not ended after this long is reported as such. */
const TURN_TIMEOUT_MS = 180_000;

interface LimitRun {
  task: number;
  longTasks: number;
  longestTask: number;
  total: number;
  shown: number;
  truncated: boolean;
  status: string;
}

async function limitRun(browser: Browser, base: string, plan: object, attrs: Record<string, string>): Promise<LimitRun> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    const key = await newKey(base, { paceMs: 0, ...plan });
    await page.evaluate(
      async ({ key, attrs }) => {
        const w = window as unknown as { mountWidget(a: object): Promise<HTMLElement>; el: HTMLElement };
        w.el = await w.mountWidget({ 'base-url': '/', 'publishable-key': key, persist: 'none', 'user-id': 'bench-user', ...attrs });
      },
      { key, attrs },
    );
    await settle(page);
    const before = await metrics(cdp);
    const r = await page.evaluate(async (timeout) => {
      const w = window as unknown as { el: BenchWidget & { messages: Array<{ text: string; truncated?: boolean }> }; __bench: Bench };
      const b = w.__bench;
      const t0 = performance.now();
      const input = w.el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="input"]')!;
      input.value = 'Tell me everything.';
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await w.el.updateComplete;
      w.el.shadowRoot!.querySelector<HTMLButtonElement>('[part="send-button"]')!.click();
      await b.nextFrame();
      while (w.el.status !== 'idle' && w.el.status !== 'error' && performance.now() - t0 < timeout) await b.nextFrame();
      await w.el.updateComplete;
      const t1 = await b.nextFrame();
      const reply = w.el.messages.at(-1);
      const long = b.longTasksSince(t0);
      return {
        total: t1 - t0,
        longTasks: long.count,
        longestTask: long.longest,
        shown: reply?.text.length ?? 0,
        truncated: !!reply?.truncated,
        status: w.el.status,
      };
    }, TURN_TIMEOUT_MS);
    return { ...busy(before, await metrics(cdp)), ...r };
  } finally {
    await context.close();
  }
}

const describe = (r: LimitRun) =>
  `task ${ms(r.task)}, long tasks ${r.longTasks} (max ${ms(r.longestTask)}), total ${ms(r.total)}; ${r.status}, ${r.shown} chars shown${r.truncated ? ', cut' : ''}`;

/** The limits section: `runs` runs of each case; returns the tables' lines. */
export async function limits(browser: Browser, base: string, runs: number): Promise<string[]> {
  const out: string[] = [];
  await limitRun(browser, base, { replies: [{ text: longReply(20_000) }], chunkChars: 1_000_000 }, { 'max-reply-length': '1000000' }); // warm-up
  out.push(
    `| A reply in one frame (median of ${runs}) | main-thread time | long tasks | longest task | send → final paint |`,
    '|---|---:|---:|---:|---:|',
  );
  for (const kb of SIZES_KB) {
    const text = longReply(kb * 1000);
    const list: LimitRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await limitRun(browser, base, { replies: [{ text }], chunkChars: 2_000_000 }, { 'max-reply-length': '1000000' });
      list.push(r);
      console.log(`  ${kb} KB in one frame #${i + 1}: ${describe(r)}`);
    }
    const m = (f: (r: LimitRun) => number) => median(list.map(f));
    out.push(
      `| ${kb} KB | ${ms(m((r) => r.task))} | ${m((r) => r.longTasks)} | ${ms(m((r) => r.longestTask))} | ${ms(m((r) => r.total))} |`,
    );
  }
  out.push('');
  // 8 MB: 80 KB of markdown, a hundred times.
  const block = { text: longReply(80_000), repeat: 100 };
  const hostile: Array<[string, object, Record<string, string>]> = [
    ['8 MB in one SSE frame', { replies: [block], chunkChars: 10_000_000 }, {}],
    ['8 MB streamed in 256 KB frames', { replies: [block], chunkChars: 256_000 }, {}],
    ['8 MB as one REST answer', { replies: [block], chunkChars: 10_000_000 }, { transport: 'rest' }],
  ];
  out.push(
    `| Hostile reply, default limit (median of ${runs}) | main-thread time | long tasks | longest task | send → idle | shown |`,
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const [label, plan, attrs] of hostile) {
    const list: LimitRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await limitRun(browser, base, plan, attrs);
      list.push(r);
      console.log(`  ${label} #${i + 1}: ${describe(r)}`);
    }
    const m = (f: (r: LimitRun) => number) => median(list.map(f));
    const last = list.at(-1)!;
    out.push(
      `| ${label} | ${ms(m((r) => r.task))} | ${m((r) => r.longTasks)} | ${ms(m((r) => r.longestTask))} | ${ms(m((r) => r.total))} | ${last.shown} chars${last.truncated ? ', cut' : ''}${last.status === 'idle' ? '' : `, ${last.status}`} |`,
    );
  }
  return out;
}
