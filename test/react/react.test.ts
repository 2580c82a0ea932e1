import { expect, waitUntil } from '@open-wc/testing';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { AgentChat, type AgentChatProps, type MessageDetail, type ReadyDetail, type SendDetail } from '../../src/react/index.js';
import type { AgentChat as AgentChatElement } from '../../src/agent-chat.js';
import { BASE_URL, createKey } from '../support/server.js';

// `React.createElement` rather than JSX: the test runner's esbuild transform is set up for
// .ts, and the wrapper's props are the same either way.
describe('agent-chat/react', () => {
  let container: HTMLElement;
  let root: Root;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    flushSync(() => root.unmount());
    container.remove();
  });

  function render(props: AgentChatProps): AgentChatElement {
    flushSync(() => root.render(React.createElement(AgentChat, props)));
    return container.querySelector('agent-chat')!;
  }

  async function until(predicate: () => unknown, message: string): Promise<void> {
    await waitUntil(predicate, message, { timeout: 8000, interval: 10 });
  }

  it('renders <agent-chat> and passes props through as properties', async () => {
    const key = await createKey({ welcome: 'Hi from React' });
    const ready: ReadyDetail[] = [];
    const ref = React.createRef<AgentChatElement>();
    const el = render({
      ref,
      baseUrl: BASE_URL,
      publishableKey: key,
      persist: 'none',
      heading: 'Support',
      strings: { send: 'Abschicken' },
      suggestionContext: { page: 'pricing' },
      onReady: (e) => ready.push(e.detail),
    });

    expect(el).to.be.instanceOf(customElements.get('agent-chat')!);
    expect(ref.current).to.equal(el);
    expect(el.baseUrl).to.equal(BASE_URL);
    expect(el.publishableKey).to.equal(key);
    expect(el.suggestionContext).to.deep.equal({ page: 'pricing' });

    await until(() => ready.length === 1, 'agent-chat-ready through onReady');
    await el.updateComplete;
    expect(ready[0]).to.deep.equal({ threadId: null });
    // Set as a property, reflected by the element like any `base-url`.
    expect(el.getAttribute('base-url')).to.equal(BASE_URL);
    const shadow = el.shadowRoot!;
    expect(shadow.querySelector('[part="heading"]')!.textContent!.trim()).to.equal('Support');
    expect(shadow.querySelector('[part~="welcome"]')!.textContent).to.contain('Hi from React');
    expect(shadow.querySelector('[part="send-button"]')!.getAttribute('aria-label')).to.equal('Abschicken');
    await expect(el).to.be.accessible();
  });

  it('fires onSend and onMessage with typed details', async () => {
    const key = await createKey({ replies: [{ text: 'Hello from the agent' }] });
    const sends: SendDetail[] = [];
    const messages: MessageDetail[] = [];
    const ready: unknown[] = [];
    const el = render({
      baseUrl: BASE_URL,
      publishableKey: key,
      persist: 'none',
      onReady: (e) => ready.push(e.detail),
      onSend: (e) => sends.push(e.detail),
      onMessage: (e) => messages.push(e.detail),
    });
    await until(() => ready.length, 'ready');

    await el.send('Hi');
    await until(() => messages.length === 1, 'agent-chat-message through onMessage');
    expect(sends).to.deep.equal([{ text: 'Hi', threadId: null, imageUrl: null }]);
    expect(messages[0]!.message.text).to.equal('Hello from the agent');
    expect(messages[0]!.threadId).to.be.a('string');
    expect(messages[0]!.threadId).to.equal(el.threadId);
  });

  it('swaps and removes listeners when the props change', async () => {
    const key = await createKey({ replies: [{ text: 'One' }, { text: 'Two' }] });
    const first: string[] = [];
    const second: string[] = [];
    const ready: unknown[] = [];
    const props = { baseUrl: BASE_URL, publishableKey: key, persist: 'none' as const, onReady: () => ready.push(1) };
    const el = render({ ...props, onSend: (e) => first.push(e.detail.text) });
    await until(() => ready.length, 'ready');
    await el.send('a');
    await until(() => el.status === 'idle', 'first turn');

    // A new handler replaces the old one; a cancelling handler vetoes the send.
    render({ ...props, onSend: (e) => (second.push(e.detail.text), e.preventDefault()) });
    await el.send('b');
    expect(first).to.deep.equal(['a']);
    expect(second).to.deep.equal(['b']);
    expect(el.messages.filter((m) => m.role === 'user')).to.have.length(1);

    render(props);
    await el.send('c');
    await until(() => el.status === 'idle', 'third turn');
    expect(second).to.deep.equal(['b']);
    expect(el.messages.filter((m) => m.role === 'user').map((m) => m.text)).to.deep.equal(['a', 'c']);
  });
});
