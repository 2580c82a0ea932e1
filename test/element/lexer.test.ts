import { expect, oneEvent } from '@open-wc/testing';
import '../../src/agent-chat.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { lexer } from '../../src/markdown/chunks.js';
import { BASE_URL, createKey } from '../support/server.js';

/**
 * The lexer (marked under lex.ts's budgets) is a chunk of its own: prose is drawn without
 * it (src/markdown/prose.ts), and text that is more than prose waits for it. Own file, in
 * this order, and without test/support/element.ts (which fetches every chunk up front):
 * once a page has asked for the lexer, it has it. (What a page fetches is checked on the
 * production bundle, test/security/csp.test.ts.)
 */

/** A widget as a host puts it on the page; resolves once it is ready and rendered. Every node its shadow root gets, from its first render on, is in `added`. */
async function mount(key: string, added: Node[] = []): Promise<AgentChat> {
  const el = document.createElement('agent-chat');
  for (const [name, value] of Object.entries({ 'base-url': BASE_URL, 'publishable-key': key, persist: 'none' }))
    el.setAttribute(name, value);
  const ready = oneEvent(el, 'agent-chat-ready');
  document.body.append(el);
  const watch = new MutationObserver((records) => records.forEach((r) => added.push(...r.addedNodes)));
  watch.observe(el.shadowRoot!, { childList: true, subtree: true });
  await ready;
  await el.updateComplete;
  watch.takeRecords().forEach((r) => added.push(...r.addedNodes));
  watch.disconnect();
  return el;
}

const welcomeText = (el: AgentChat) => el.shadowRoot!.querySelector('[part~="welcome"] [part="text"]')!;

describe('the lexer, a chunk of its own', function () {
  this.timeout(20_000);
  const mounted: AgentChat[] = [];
  afterEach(() => mounted.splice(0).forEach((el) => el.remove()));

  it('a first visit whose welcome is prose draws it without asking for the lexer', async () => {
    const el = await mount(await createKey({}));
    mounted.push(el);
    expect(welcomeText(el).querySelector('p:not(.plain)')!.textContent).to.contain('shop assistant');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(lexer.module).to.equal(undefined);
  });

  it('a welcome with markdown waits for it: it is drawn once, never shown as its syntax', async () => {
    const added: Node[] = [];
    const el = await mount(await createKey({ welcome: 'Hi! Ask me about **shoes** or `sizes`.' }), added);
    mounted.push(el);
    expect(welcomeText(el).querySelector('strong')?.textContent).to.equal('shoes');
    expect(welcomeText(el).querySelector('code')?.textContent).to.equal('sizes');
    const plain = added.filter((n) => n instanceof Element && (n.matches('.plain') || n.querySelector('.plain')));
    expect(plain.map((n) => (n as Element).outerHTML)).to.deep.equal([]);
    expect(lexer.module).to.not.equal(undefined);
  });
});
