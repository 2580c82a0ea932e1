/**
 * Long branch chains (#25 item 3), run by bench/bench.ts as `BENCH_ONLY=branches`.
 *
 * A three-turn thread on the reference server whose last question is edited N times in a
 * row, each edit on the branch the one before made (the rerun operation over HTTP, as the
 * widget calls it, `paceMs: 0`): N + 1 threads in one chain. What the widget keeps of them
 * is written to its storage as the widget writes it (the thread in use, the history's
 * newest 50 entries, one branch relation per edit), then the widget is mounted on the
 * newest branch with `persist="local"`. Measured at N = 10 and N = 1,000, CDP main-thread
 * time (TaskDuration) per operation:
 *
 *  - a keystroke in the text field (20, each until its render and the next frame);
 *  - a keystroke in the editor of the edited question (20 the same way);
 *  - opening the list of conversations (its chunk fetched by an opening before, not counted),
 *    until it rendered and the next frame;
 *  - a send, until the reply is rendered and a frame has passed.
 */
import type { Browser, Page } from 'playwright-core';
import { PREFIX, storageScope } from '../src/state/storage.js';
import {
  api,
  askAsReader,
  type Bench,
  type BenchWidget,
  busy,
  keystrokeCost,
  median,
  metrics,
  ms,
  newKey,
  openPage,
  ratio,
  settle,
} from './support.js';

/** The edits of one message measured: a short chain and a long one. */
const CHAINS = process.env.BENCH_CHAINS ? process.env.BENCH_CHAINS.split(',').map(Number) : [10, 1000];
const TURNS = 3;

interface Chain {
  key: string;
  /** The widget's stored state for its scope. */
  state: object;
  newest: string;
}

interface Message {
  id: string;
}

/** A thread of TURNS turns, its last question edited `edits` times in a row; what the widget stores of it. */
async function makeChain(base: string, edits: number): Promise<Chain> {
  const key = await newKey(base, { replies: [{ text: 'A short reply, with **some** markdown in it.' }], paceMs: 0 });
  const { access_token: token } = await api<{ access_token: string }>(base, '/management/v1/auth/token', { publishable_key: key });
  const user = 'bench-user';
  let thread = '';
  let reply = '';
  for (let i = 0; i < TURNS; i++) {
    const r = await api<{ thread_id: string; message: Message }>(
      base,
      '/messaging/v1/messages',
      { text: `Question ${i + 1}`, user_id: user, ...(thread ? { thread_id: thread } : {}) },
      token,
    );
    thread = r.thread_id;
    reply = r.message.id;
  }
  const branches: Array<{ from: string; turn: number; to: string }> = [];
  const threads = [thread];
  for (let i = 0; i < edits; i++) {
    const r = await api<{ thread_id: string; message: Message }>(
      base,
      `/messaging/v1/threads/${thread}/rerun`,
      { interaction_id: reply, text: `Question ${TURNS}, edit ${i + 1}`, user_id: user },
      token,
    );
    branches.push({ from: thread, turn: TURNS - 1, to: r.thread_id });
    thread = r.thread_id;
    reply = r.message.id;
    threads.push(thread);
  }
  const now = Date.now();
  const history = threads
    .slice(-50)
    .reverse()
    .map((id, i) => ({ id, title: 'Question 1', updatedAt: new Date(now - i * 1000).toISOString() }));
  return { key, newest: thread, state: { threadId: thread, userId: user, history, branches } };
}

interface ChainRun {
  keystroke: number;
  editKeystroke: number;
  history: number;
  send: number;
  /** What the navigator of the edited turn says, as a check. */
  nav: string;
}

/** Main-thread time per keystroke into the editor of the newest question (opened, typed into, cancelled). */
async function editorKeystrokes(page: Page, cdp: Awaited<ReturnType<typeof openPage>>['cdp'], count = 20): Promise<number> {
  await page.evaluate(async () => {
    const w = window as unknown as { el: BenchWidget };
    const edits = w.el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="edit-button"]');
    edits[edits.length - 1]!.click();
    await w.el.updateComplete;
  });
  const before = await metrics(cdp);
  await page.evaluate(async (count) => {
    const w = window as unknown as { el: BenchWidget; __bench: Bench };
    const input = w.el.shadowRoot!.querySelector<HTMLTextAreaElement>('.edit-input')!;
    for (let i = 0; i < count; i++) {
      input.value += 'a';
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await w.el.updateComplete;
      await w.__bench.nextFrame();
    }
  }, count);
  const cost = busy(before, await metrics(cdp)).task / count;
  await page.evaluate(async () => {
    const w = window as unknown as { el: BenchWidget };
    w.el.shadowRoot!.querySelector<HTMLButtonElement>('.edit-actions button[type="button"]')!.click();
    await w.el.updateComplete;
  });
  return cost;
}

/** Opens the list of conversations until it rendered and a frame passed; closes it again. */
const toggleHistory = (page: Page) =>
  page.evaluate(async () => {
    const w = window as unknown as { el: BenchWidget; __bench: Bench };
    const button = w.el.shadowRoot!.querySelector<HTMLButtonElement>('[part="history-button"]')!;
    button.click();
    while (!w.el.shadowRoot!.querySelector('[part="history"] li')) {
      await w.el.updateComplete;
      await w.__bench.nextFrame();
    }
    await w.__bench.nextFrame();
    button.click();
    await w.el.updateComplete;
    await w.__bench.nextFrame();
  });

async function chainRun(browser: Browser, base: string, chain: Chain): Promise<ChainRun> {
  const { context, page, cdp } = await openPage(browser, base, 'widget');
  try {
    await page.evaluate(
      ([name, value]) => localStorage.setItem(name!, value!),
      [PREFIX + storageScope(base, chain.key), JSON.stringify(chain.state)],
    );
    await page.evaluate(async (k) => {
      const w = window as unknown as { mountWidget(a: object): Promise<HTMLElement>; el: HTMLElement };
      w.el = await w.mountWidget({ 'base-url': '/', 'publishable-key': k, 'user-id': 'bench-user' });
    }, chain.key);
    // The turn controls arrive as a chunk: the navigator shows once they are here.
    const nav = await page.evaluate(async () => {
      const w = window as unknown as { el: BenchWidget; __bench: Bench };
      for (let i = 0; i < 200 && !w.el.shadowRoot!.querySelector('[part="branch-nav"]'); i++) await w.__bench.nextFrame();
      return w.el.shadowRoot!.querySelector('[part="branch-nav"]')?.getAttribute('aria-label') ?? 'none';
    });
    await settle(page);
    const keystroke = await keystrokeCost(page, cdp);
    const editKeystroke = await editorKeystrokes(page, cdp);
    await toggleHistory(page); // fetches the history's chunk
    const opens: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await metrics(cdp);
      await toggleHistory(page);
      opens.push(busy(before, await metrics(cdp)).task);
    }
    const before = await metrics(cdp);
    await askAsReader(page, 1);
    const send = busy(before, await metrics(cdp)).task;
    return { keystroke, editKeystroke, history: median(opens), send, nav };
  } finally {
    await context.close();
  }
}

/** The branches section: each chain length, `runs` mounts each, alternating; returns the table's lines. */
export async function branchChains(browser: Browser, base: string, runs: number): Promise<string[]> {
  const chains = new Map<number, Chain>();
  for (const edits of CHAINS) {
    const t = performance.now();
    chains.set(edits, await makeChain(base, edits));
    console.log(`  a chain of ${edits} edits made in ${ms(performance.now() - t)}`);
  }
  await chainRun(browser, base, chains.get(CHAINS[0]!)!); // warm-up
  const list = new Map<number, ChainRun[]>(CHAINS.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (const edits of CHAINS) {
      const r = await chainRun(browser, base, chains.get(edits)!);
      list.get(edits)!.push(r);
      console.log(
        `  ${edits} edits #${i + 1}: keystroke ${ms(r.keystroke)}, editor keystroke ${ms(r.editKeystroke)}, history open ${ms(r.history)}, send ${ms(r.send)} [navigator: ${r.nav}]`,
      );
    }
  }
  const m = (edits: number, f: (r: ChainRun) => number) => median(list.get(edits)!.map(f));
  const [short, long] = [CHAINS[0]!, CHAINS.at(-1)!];
  const row = (label: string, f: (r: ChainRun) => number) =>
    `| ${label} | ${CHAINS.map((n) => ms(m(n, f))).join(' | ')} | ${ratio(m(long, f), m(short, f))} |`;
  return [
    `| Edits of one message, in a chain (median of ${runs}; main-thread time) | ${CHAINS.map((n) => `${n} edits`).join(' | ')} | ${long} / ${short} |`,
    `|---|${CHAINS.map(() => '---:').join('|')}|---:|`,
    row('Keystroke in the text field', (r) => r.keystroke),
    row('Keystroke in the editor of the edited question', (r) => r.editKeystroke),
    row('Opening the list of conversations', (r) => r.history),
    row('Send → reply rendered', (r) => r.send),
    `| Navigator of the edited turn (last run) | ${CHAINS.map((n) => list.get(n)!.at(-1)!.nav).join(' | ')} | |`,
  ];
}
