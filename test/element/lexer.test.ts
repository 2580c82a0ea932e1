import { expect, oneEvent } from '@open-wc/testing';
import { lexer } from '../../src/chunks.js';
import { $, element, mount, unmountAll } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * The lexer (marked under lex.ts's budgets) is a chunk of its own: prose is drawn without
 * it (src/markdown/prose.ts), and text that is more than prose waits for it. Own file, in
 * this order: once a page has asked for the chunk, it has it. (What a page fetches is
 * checked on the production bundle, test/security/csp.test.ts.)
 */
describe('the lexer, a chunk of its own', () => {
  afterEach(() => unmountAll());

  it('a first visit whose welcome is prose draws it without asking for the lexer', async () => {
    const el = await mount({ 'publishable-key': await createKey({}) });
    const welcome = $(el, '[part~="welcome"] [part="text"]')!;
    expect(welcome.querySelector('p:not(.plain)')!.textContent).to.contain('shop assistant');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(lexer.module).to.equal(undefined);
  });

  it('a welcome with markdown waits for it: it is drawn once, never shown as its syntax', async () => {
    const key = await createKey({ welcome: 'Hi! Ask me about **shoes** or `sizes`.' });
    const el = element({ 'publishable-key': key, persist: 'none' });
    const ready = oneEvent(el, 'agent-chat-ready');
    document.body.append(el);
    // Every node the panel ever puts in, from its first render on.
    const added: Node[] = [];
    const watch = new MutationObserver((records) => records.forEach((r) => added.push(...r.addedNodes)));
    watch.observe(el.shadowRoot!, { childList: true, subtree: true });
    try {
      await ready;
      await el.updateComplete;
      const welcome = $(el, '[part~="welcome"] [part="text"]')!;
      expect(welcome.querySelector('strong')?.textContent).to.equal('shoes');
      expect(welcome.querySelector('code')?.textContent).to.equal('sizes');
      watch.takeRecords().forEach((r) => added.push(...r.addedNodes));
      const plain = added.filter((n) => n instanceof Element && (n.matches('.plain') || n.querySelector('.plain')));
      expect(plain.map((n) => (n as Element).outerHTML)).to.deep.equal([]);
      expect(lexer.module).to.not.equal(undefined);
    } finally {
      watch.disconnect();
      el.remove();
    }
  });
});
