import { expect } from '@open-wc/testing';
import type { LinkClickDetail } from '../../src/events.js';
import { collect, mount, sendByUser, unmountAll } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * Links in agent text: `agent-chat-link-click` lets the host route them; `link-target="auto"`
 * opens links to this site in this tab. A same-origin link here points at this very page
 * with a fragment, so following it moves the hash instead of unloading the test.
 */
describe('links in agent text', () => {
  const page = location.href.split('#')[0]!;
  const reply = `See [the sizes](${page}#sizes) or [the maker](https://maker.example/tents).`;

  /** What the browser would do after the widget: `true` when its default action still runs. Stops it either way. */
  function defaultAction(): () => boolean | null {
    let open: boolean | null = null;
    const watch = (event: Event) => {
      open = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', watch);
    return () => {
      document.removeEventListener('click', watch);
      return open;
    };
  }

  afterEach(() => {
    unmountAll();
    history.replaceState(null, '', page);
  });

  const link = (el: HTMLElement, text: string) =>
    Array.from(el.shadowRoot!.querySelectorAll<HTMLAnchorElement>('.message.agent [part="text"] a')).find((a) => a.textContent === text)!;

  it('fires agent-chat-link-click with the url, text and message, then opens a new tab', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: reply }] });
    const el = await mount({ 'publishable-key': key });
    const clicks = collect<LinkClickDetail>(el, 'agent-chat-link-click');
    await sendByUser(el, 'sizes?');
    const maker = link(el, 'the maker');
    expect(maker.target).to.equal('_blank');
    const after = defaultAction();
    maker.click();
    expect(after(), 'the browser opens it').to.equal(true);
    expect(clicks).to.deep.equal([{ url: 'https://maker.example/tents', text: 'the maker', messageId: el.messages.at(-1)!.id }]);
  });

  it('does not open a link whose click the host cancelled', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: reply }] });
    const el = await mount({ 'publishable-key': key, 'link-target': 'auto' });
    el.addEventListener('agent-chat-link-click', (event) => event.preventDefault());
    await sendByUser(el, 'sizes?');
    const after = defaultAction();
    link(el, 'the sizes').click();
    expect(after(), 'the browser would still open it').to.equal(false);
    expect(location.hash).to.equal('');
  });

  it('with link-target="auto", opens a link to this site in this tab, and others in a new one', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: reply }] });
    const el = await mount({ 'publishable-key': key, 'link-target': 'auto' });
    await sendByUser(el, 'sizes?');
    let after = defaultAction();
    link(el, 'the sizes').click();
    expect(after(), 'the new tab is not opened').to.equal(false);
    expect(location.hash).to.equal('#sizes');

    after = defaultAction();
    link(el, 'the maker').click();
    expect(after(), 'another site opens in a new tab').to.equal(true);
  });

  it('leaves a modified click to the browser (Ctrl/⌘-click opens a tab even with auto, even when the host cancels)', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: reply }] });
    const el = await mount({ 'publishable-key': key, 'link-target': 'auto' });
    const clicks = collect<LinkClickDetail>(el, 'agent-chat-link-click');
    el.addEventListener('agent-chat-link-click', (event) => event.preventDefault());
    await sendByUser(el, 'sizes?');
    const after = defaultAction();
    link(el, 'the sizes').dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, ctrlKey: true }));
    expect(after()).to.equal(true);
    expect(location.hash).to.equal('');
    expect(clicks.map((c) => c.text)).to.deep.equal(['the sizes']);
  });

  it('reports the link text as written, without the host name added to a misleading one', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Order at [shop.example](https://evil.example/pay).' }] });
    const el = await mount({ 'publishable-key': key });
    const clicks = collect<LinkClickDetail>(el, 'agent-chat-link-click');
    await sendByUser(el, 'where?');
    const shown = el.shadowRoot!.querySelector<HTMLAnchorElement>('.message.agent [part="text"] a')!;
    expect(shown.textContent).to.equal('shop.example (evil.example)');
    const after = defaultAction();
    shown.click();
    after();
    expect(clicks[0]!.text).to.equal('shop.example');
  });

  it('reports an unknown link-target and keeps links opening in a new tab', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const key = await createKey({ paceMs: 0, replies: [{ text: reply }] });
      const el = await mount({ 'publishable-key': key, 'link-target': 'self' });
      await sendByUser(el, 'sizes?');
      const after = defaultAction();
      link(el, 'the sizes').click();
      expect(after()).to.equal(true);
      expect(warnings.some((w) => String(w.join(' ')).includes('link-target'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });
});
