import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey, forgetStorage, keyStats } from '../support/server.js';
import { input, until } from '../support/element.js';
import { closeTabs, tab, texts } from '../support/tabs.js';
import { QUESTION, REPLY, Reloads, every, sendThenReload, settled, spread } from '../support/send-once.js';

/**
 * A send is exactly-once across a reload at any moment (docs/protocol.md "A send and a
 * reload"): a new conversation, every millisecond 0 to 20 after Enter; a conversation with a
 * thread; with another tab open; a request still on its way. The shared steps and what they
 * check: test/support/send-once.ts. One file, so its reloads never run beside each other's
 * (in Firefox each loads the page's modules anew, 0.5-1 s): 100 s alone, the runner allows
 * a file 480 s.
 */
describe('<agent-chat> a send and a reload at any moment', function () {
  // A sweep reloads a page up to 24 times: 35 s alone in Firefox, three times that under load.
  this.timeout(200_000);
  const reloads = new Reloads();
  afterEach(() => {
    reloads.remove();
    closeTabs();
    forgetStorage();
  });

  it('a new conversation whose thread frame waits: the turn is found by its key and shown, or never ran and the question is back', async () => {
    const tally = await reloads.sweep({ threadFrameDelayMs: 150 }, [...every, 'received'], false);
    // The window the reloads aim at was hit: at least once the page went after the request left.
    expect(tally['ran once'], JSON.stringify(tally)).to.be.greaterThan(0);
  });

  it('a conversation with a thread: the same, in that thread', async () => {
    const tally = await reloads.sweep({ threadFrameDelayMs: 150 }, [...spread, 'received'], true);
    expect(tally['ran once'], JSON.stringify(tally)).to.be.greaterThan(0);
  });

  it('with another tab open, a reload before the thread frame: the turn is found by its key, both tabs show it, it ran once', async () => {
    const key = await createKey({ paceMs: 2, replies: [{ text: REPLY }], threadFrameDelayMs: 400 });
    const a = await reloads.open(key);
    const b = await tab(key);
    const again = await sendThenReload(reloads.frame!, a, key, QUESTION, 'received');
    const shows = (el: AgentChat) => texts(el).join('|') === `${QUESTION}|${REPLY}` && settled(el);
    await until(
      () => shows(b.el) && shows(again),
      () => `both show it: ${JSON.stringify({ b: [texts(b.el), b.el.status], a: [texts(again), again.status, input(again).value] })}`,
      15_000,
    );
    expect((await keyStats(key)).turnsRun).to.equal(1);
    expect(input(again).value).to.equal('');
    expect(input(b.el).value).to.equal('');
  });

  it('a request still on its way when the page goes never runs: the question is back, with a notice once the service said so', async () => {
    const tally = await reloads.sweep({ intakeDelayMs: 3_000 }, [...spread, 'stored'], false);
    // Each outcome was checked for exactly once (outcome()). The service holds each request
    // 3 s; a page that took longer than that to go (a loaded machine: once in nine in CI) had
    // its turn run, and shown once: so most, not all, of these requests never run.
    expect(tally['ran once'], JSON.stringify(tally)).to.be.lessThan(tally['told not received']);
    expect(tally['told not received'], JSON.stringify(tally)).to.be.greaterThan(0);
  });
});
