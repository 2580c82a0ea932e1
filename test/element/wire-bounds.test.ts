import { expect } from '@open-wc/testing';
import { createKey, forgetStorage } from '../support/server.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';

/**
 * Values a service sends are bounded where they enter (src/client/): a sequence number
 * that jumps cannot make the rest of a reply vanish without a word, and a list of thousands
 * of suggestions is a row of chips, not a page of them.
 */
describe('<agent-chat> bounds on what the service sends', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  const token = (seq: number, text: string) => JSON.stringify({ type: 'event', seq, data: { text } });

  for (const [what, jump] of [
    ['1e308', '1e308'],
    ['far past the last', String(2 ** 40)],
  ]) {
    it(`a seq of ${what}: the reply is said to be cut off, not shown as complete`, async () => {
      const frames = [token(1, 'The start'), `{"type":"event","seq":${jump},"data":{"text":" and a jump"}}`, token(2, ' and the rest')];
      const key = await createKey({ paceMs: 0, rawTurns: [frames] });
      const el = await mount({ 'publishable-key': key });
      await sendByUser(el, 'hello');
      await until(() => el.status !== 'streaming' && el.status !== 'connecting' && $(el, '[part="error"]'), 'a notice');
      const reply = el.messages.at(-1)!;
      expect(reply.text).to.equal('The start');
      expect(reply.state).to.equal('interrupted');
    });
  }

  it('ten thousand follow-up suggestions: eight chips', async () => {
    const suggestions = Array.from({ length: 10_000 }, (_, i) => `Option ${i}`);
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Pick one.', suggestions }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'options?');
    await until(() => $$(el, '[part="suggestion"]').length > 0, 'the chips');
    expect($$(el, '[part="suggestion"]').map((chip) => chip.textContent!.trim())).to.deep.equal(suggestions.slice(0, 8));
  });

  it('ten thousand starter suggestions: eight chips', async () => {
    const key = await createKey({ suggestions: Array.from({ length: 10_000 }, (_, i) => `Start ${i}`) });
    const el = await mount({ 'publishable-key': key });
    await until(() => $$(el, '[part="suggestion"]').length > 0, 'the chips');
    expect($$(el, '[part="suggestion"]')).to.have.length(8);
  });
});
