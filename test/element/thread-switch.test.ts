import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey } from '../support/server.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';

/**
 * Switching threads retains nothing (#29): what one thread showed leaves with it. Lit-html
 * 3.3's `repeat` left one comment marker per removed message (lit/lit#5010), and every
 * request kept an `AbortSignal.timeout` alive for 30 s after it ended.
 */
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;

/** Every node under the widget's shadow root (comment markers and text included). */
function nodeCount(el: AgentChat): number {
  const walker = document.createTreeWalker(el.shadowRoot!, NodeFilter.SHOW_ALL);
  let count = 0;
  while (walker.nextNode()) count++;
  return count;
}

/**
 * Resolves once `done()` holds, polled every 10 ms. Not `until()`: its timeout timer outlives
 * each wait by seconds and would be counted as the widget's heap; nothing here outlives it.
 */
const settled = (done: () => boolean, what: () => string) =>
  new Promise<void>((resolve, reject) => {
    const deadline = performance.now() + 15_000;
    const check = () =>
      done() ? resolve() : performance.now() > deadline ? reject(new Error(`Timeout: ${what()}`)) : setTimeout(check, 10);
    check();
  });

describe('switching threads', () => {
  afterEach(unmountAll);

  it('40 switches through the history leave the DOM and the heap where they were', async function () {
    // A switch is a click, a transcript request and a render: about a second each on a loaded CI machine.
    this.timeout(120_000);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply **one**, with `code`' }, { text: 'Reply two' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(el, 'About shoes');
    el.newThread();
    await until(() => el.status === 'idle' && el.messages.length === 0, 'a new thread');
    await sendByUser(el, 'About jackets');
    const measure = async () => {
      // The page's own resource timing buffer grows with every request; it is the host's, not the widget's.
      performance.clearResourceTimings();
      gc?.();
      gc?.();
      return { nodes: nodeCount(el), heap: heap() };
    };
    let at10: Awaited<ReturnType<typeof measure>> | undefined;
    for (let i = 1; i <= 40; i++) {
      $(el, '[part="history-button"]')!.click();
      await el.updateComplete;
      // The other thread: the list is newest first, and the one shown moves to the top.
      $$(el, '.history-open')[1]!.click();
      await settled(
        () => el.status === 'idle' && el.messages.length === 2 && !$(el, '[part="history"]'),
        () => `switch ${i}: ${JSON.stringify([el.status, el.threadId, el.messages.length, !!$(el, '[part="history"]')])}`,
      );
      await el.updateComplete;
      if (i === 10) at10 = await measure();
    }
    const at40 = await measure();
    // Same thread shown at both (an even number of switches apart): the very same DOM.
    expect(at40.nodes, 'DOM nodes after 40 switches (after 10)').to.equal(at10!.nodes);
    if (gc && at40.heap !== undefined) {
      const grown = at40.heap - at10!.heap!;
      // What stays is the JIT's code and the browser's own bookkeeping: 20-45 KB over 40 switches, run to run
      // (a heap snapshot diff over 100 switches shows no object of the widget's growing); the
      // leak this guards against was about 5 KB a switch.
      expect(grown, 'heap growth over 30 switches, bytes').to.be.below(75_000);
    }
  });
});
