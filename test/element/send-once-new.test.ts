import { expect } from '@open-wc/testing';
import { forgetStorage } from '../support/server.js';
import { closeTabs } from '../support/tabs.js';
import { Reloads, every } from '../support/send-once.js';

/**
 * A send is exactly-once across a reload at any moment (docs/protocol.md "A send and a
 * reload"), for a new conversation, every millisecond from 0 to 20 after Enter; the other
 * cases are in send-once.test.ts, the shared steps in test/support/send-once.ts.
 */
describe('<agent-chat> a send and a reload at any moment: a new conversation', function () {
  this.timeout(120_000);
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
});
