import { expect } from '@open-wc/testing';
import { consume, ContextRoot } from '@lit/context';
import { html, LitElement } from 'lit';
import { AgentChat } from '../../src/agent-chat.js';
import { agentChatContext, type AgentChatContext } from '../../src/index.js';
import { $, agentTexts, collect, element, mount, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * A host's element written without Lit: it asks with a plain `context-request` event, as
 * README "Context" shows, and keeps every value it is told.
 */
class PlainConsumer extends HTMLElement {
  values: AgentChatContext[] = [];
  unsubscribe: (() => void) | undefined;
  connectedCallback(): void {
    this.dispatchEvent(
      Object.assign(new Event('context-request', { bubbles: true, composed: true }), {
        context: 'agent-chat',
        subscribe: true,
        callback: (value: AgentChatContext, unsubscribe?: () => void) => {
          this.values.push(value);
          this.unsubscribe = unsubscribe;
        },
      }),
    );
  }
  get latest(): AgentChatContext | undefined {
    return this.values.at(-1);
  }
}
customElements.define('plain-context-consumer', PlainConsumer);

class LitConsumer extends LitElement {
  @consume({ context: agentChatContext, subscribe: true }) chat?: AgentChatContext;
  override render() {
    return html`<span>${this.chat?.status} ${this.chat?.lang}</span>`;
  }
}
customElements.define('lit-context-consumer', LitConsumer);

function consumer(el: HTMLElement, slot: string): PlainConsumer {
  const node = document.createElement('plain-context-consumer') as PlainConsumer;
  node.slot = slot;
  el.append(node);
  return node;
}

describe('context for host elements', () => {
  afterEach(() => unmountAll());

  it('reaches a slotted element before the panel loads, and sends through it before and after', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'First reply' }, { text: 'Second reply' }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    const badge = consumer(el, 'launcher-icon');
    expect(badge.latest, 'answered at once').to.include({ status: 'idle', threadId: null, dir: 'ltr', theme: 'auto' });
    expect($(el, '[part="panel"]'), 'the panel is not here yet').to.equal(null);
    const sends = collect(el, 'agent-chat-send');

    await badge.latest!.send('From the badge');
    await until(() => agentTexts(el).includes('First reply'), 'no reply to the send before the panel');
    expect(sends).to.have.length(1);
    await until(() => badge.latest!.status === 'idle' && badge.latest!.threadId !== null, 'not told of the turn');
    expect(badge.latest!.threadId).to.equal(el.threadId);
    expect(badge.values.map((v) => v.status)).to.include('streaming');

    // Opened now: its conversation loaded with the first send.
    el.open();
    await el.updateComplete;
    await badge.latest!.send('Again');
    await until(() => agentTexts(el).includes('Second reply'), 'no reply to the send after the panel');
    expect(sends).to.have.length(2);
  });

  it('tells subscribers of a new thread and of the language, and opens and closes the launcher', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hello' }] });
    const el = element({ 'publishable-key': key, persist: 'none', mode: 'launcher', lang: 'de', theme: 'dark' });
    const header = consumer(el, 'header');
    document.body.append(el);
    await until(() => header.latest?.lang === 'de', 'not told of the language');
    expect(header.latest).to.include({ dir: 'ltr', theme: 'dark' });
    header.latest!.open();
    await until(() => el.isOpen && header.latest!.status === 'idle', 'not opened');
    await header.latest!.send('hi');
    await until(() => !!header.latest!.threadId && header.latest!.status === 'idle', 'no thread');
    header.latest!.newThread();
    await until(() => header.latest!.threadId === null, 'not told of the new thread');
    header.latest!.close();
    expect(el.isOpen).to.equal(false);
    el.remove();
  });

  it('reaches a Lit element through @consume', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hi' }] });
    const el = element({ 'publishable-key': key, persist: 'none', lang: 'fr' });
    const lit = document.createElement('lit-context-consumer') as LitConsumer;
    lit.slot = 'footer';
    el.append(lit);
    document.body.append(el);
    await until(() => lit.chat?.lang === 'fr', 'no context');
    await lit.chat!.send('bonjour');
    await until(() => !!lit.chat?.threadId && lit.chat.threadId === el.threadId, 'not told of the thread');
    await lit.updateComplete;
    expect(lit.shadowRoot!.textContent!.trim()).to.equal('idle fr');
    el.remove();
  });

  it('stops telling a subscriber that unsubscribed', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hi' }] });
    const el = await mount({ 'publishable-key': key });
    const stays = consumer(el, 'footer');
    const leaves = consumer(el, 'header');
    leaves.unsubscribe!();
    const heard = leaves.values.length;
    await stays.latest!.send('hello');
    await until(() => !!stays.latest!.threadId && stays.latest!.status === 'idle', 'the subscriber was not told');
    expect(leaves.values).to.have.length(heard);
  });

  it('answers only its own key and leaves other requests to go on', async () => {
    const el = await mount({ 'publishable-key': 'pk_any', mode: 'launcher' });
    const child = document.createElement('span');
    el.append(child);
    const outside: Event[] = [];
    const listen = (event: Event) => outside.push(event);
    document.addEventListener('context-request', listen);
    const answers: string[] = [];
    const ask = (context: string) =>
      child.dispatchEvent(
        Object.assign(new Event('context-request', { bubbles: true, composed: true }), { context, callback: () => answers.push(context) }),
      );
    ask('theme-of-the-page');
    ask('agent-chat');
    document.removeEventListener('context-request', listen);
    expect(answers).to.deep.equal(['agent-chat']);
    expect(outside.map((event) => (event as Event & { context: string }).context)).to.deep.equal(['theme-of-the-page']);
  });

  it('announces itself when it is defined after its consumers, so a ContextRoot replays their requests', async () => {
    const root = new ContextRoot();
    root.attach(document.body);
    try {
      const early = document.createElement('late-agent-chat');
      early.setAttribute('base-url', location.origin);
      early.setAttribute('mode', 'launcher');
      early.setAttribute('persist', 'none');
      const badge = consumer(early, 'header');
      document.body.append(early);
      expect(badge.values, 'nobody answers yet').to.have.length(0);
      customElements.define('late-agent-chat', class extends AgentChat {});
      await until(() => badge.values.length > 0, 'not replayed');
      expect(badge.latest!.status).to.equal('idle');
      early.remove();
    } finally {
      root.detach(document.body);
    }
  });
});
