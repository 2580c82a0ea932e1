import { expect, waitUntil } from '@open-wc/testing';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { AgentChat, type MessageDetail } from '../../src/react/index.js';
import type { AgentChat as AgentChatElement } from '../../src/agent-chat.js';
import { BASE_URL, createKey, keyStats, tokenFor } from '../support/server.js';

/**
 * docs/integration-next.md, as Next.js runs it: the client component is rendered to HTML on
 * the server, the browser upgrades the `<agent-chat>` in that HTML as soon as the widget's
 * module runs, and React hydrates it afterwards. Objects, functions and event props must
 * survive hydration (React 19 sets none of them on a custom element it hydrates; the
 * `agent-chat/react` wrapper sets them after it).
 */
function Chat({
  userId,
  tokenProvider,
  onMessage,
}: {
  userId: string;
  tokenProvider: () => Promise<string>;
  onMessage: (detail: MessageDetail) => void;
}) {
  const chat = React.useRef<AgentChatElement>(null);
  return React.createElement(
    React.Fragment,
    null,
    React.createElement('button', { type: 'button', onClick: () => chat.current?.open() }, 'Help'),
    React.createElement(AgentChat, {
      ref: chat,
      mode: 'launcher',
      baseUrl: BASE_URL,
      userId,
      persist: 'none',
      tokenProvider,
      agentVariables: { static: { plan: 'pro' } },
      strings: { openChat: 'Ask us' },
      onMessage: (event) => onMessage(event.detail),
    }),
  );
}

describe('Next.js: server-rendered, then hydrated (docs/integration-next.md)', () => {
  let container: HTMLElement;
  let root: Root | null = null;

  afterEach(() => {
    if (root) flushSync(() => root!.unmount());
    root = null;
    container.remove();
  });

  it('keeps tokenProvider, agentVariables, strings and the event props, and says nothing is missing', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hello from Next' }] });
    const tokenProvider = () => tokenFor(key);
    const messages: MessageDetail[] = [];
    const props = { userId: 'u-next', tokenProvider, onMessage: (detail: MessageDetail) => messages.push(detail) };

    // The server's HTML, in the page before React runs; the widget upgrades it at once.
    const html = renderToString(React.createElement(Chat, props));
    const warned: string[] = [];
    const warn = console.warn;
    const error = console.error;
    console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
    console.error = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
    try {
      container = Object.assign(document.createElement('div'), { innerHTML: html });
      document.body.append(container);
      const el = container.querySelector('agent-chat') as AgentChatElement;
      await el.updateComplete;
      // React hydrates in a later task, as Next.js does once its client bundle has loaded.
      await new Promise((resolve) => setTimeout(resolve, 50));
      flushSync(() => {
        root = hydrateRoot(container, React.createElement(Chat, props), { onRecoverableError: (e) => warned.push(String(e)) });
      });
      await el.updateComplete;
      expect(el.tokenProvider).to.equal(tokenProvider);
      expect(el.agentVariables).to.deep.equal({ static: { plan: 'pro' } });
      expect(el.strings).to.deep.equal({ openChat: 'Ask us' });
      expect(el.shadowRoot!.querySelector('[part="launcher"]')!.getAttribute('aria-label')).to.equal('Ask us');

      container.querySelector('button')!.click();
      await waitUntil(() => el.isOpen && el.shadowRoot!.querySelector('[part="input"]'), 'the panel', { timeout: 8000 });
      await el.send('hello');
      await waitUntil(() => messages.length === 1, 'onMessage', { timeout: 8000 });
      expect(messages[0]!.message.text).to.equal('Hello from Next');
      const sent = (await keyStats(key)).requests.find((r) => r.path.startsWith('/messaging/v1/messages'));
      expect(sent?.body).to.deep.include({ user_id: 'u-next', agent_variables: { static: { plan: 'pro' } } });
    } finally {
      console.warn = warn;
      console.error = error;
    }
    expect(warned.filter((line) => /agent-chat|hydrat/i.test(line))).to.deep.equal([]);
  });
});
