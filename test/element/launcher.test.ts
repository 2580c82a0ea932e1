import { expect } from '@open-wc/testing';
import { createKey } from '../support/server.js';
import { $, collect, input, mount, openLauncher, type, unmountAll, until } from '../support/element.js';

describe('<agent-chat> launcher, language and strings', () => {
  afterEach(unmountAll);

  it('opens from the launcher button, moves focus in, and Escape brings it back', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    const opened = collect(el, 'agent-chat-open');
    const closed = collect(el, 'agent-chat-close');
    const button = $(el, '[part="launcher"]') as HTMLButtonElement;
    // An unopened launcher is its button only: the panel is a chunk fetched on intent.
    expect($(el, '[part="panel"]')).to.be.null;
    expect(button.getAttribute('aria-expanded')).to.equal('false');

    button.click();
    await el.updateComplete;
    // The button says so at once; the panel and focus follow when its chunk is here.
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect(el.hasAttribute('open')).to.be.true;
    await until(() => input(el) && el.shadowRoot!.activeElement === input(el), 'focus did not move into the panel');
    expect($(el, '[part="panel"]')!.hidden).to.be.false;
    expect(opened).to.have.length(1);

    input(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '[part="panel"]')!.hidden).to.be.true;
    expect(el.shadowRoot!.activeElement).to.equal(button);
    expect(closed).to.have.length(1);
  });

  it('shows an unread dot when a reply lands while the panel is closed', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply' }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    await openLauncher(el);
    await type(el, 'hi');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    el.close();
    await until(() => el.status === 'idle' && el.messages.length === 2);
    await el.updateComplete;
    expect($(el, '.unread')).to.exist;
    el.open();
    await el.updateComplete;
    expect($(el, '.unread')).to.be.null;
  });

  it('lays out right to left and speaks Arabic with lang="ar"', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, lang: 'ar' });
    const panel = $(el, '[part="panel"]')!;
    expect(panel.getAttribute('dir')).to.equal('rtl');
    expect(getComputedStyle(panel).direction).to.equal('rtl');
    expect(input(el).placeholder).to.match(/[\u0600-\u06FF]/);
  });

  it('uses German strings for lang="de-AT"', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, lang: 'de-AT' });
    expect(($(el, '[part="send-button"]') as HTMLButtonElement).getAttribute('aria-label')).to.equal('Senden');
  });

  it('takes overrides through the strings property and attributes', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key }, { strings: { placeholder: 'Ask the shop…', send: 'Go' } });
    expect(input(el).placeholder).to.equal('Ask the shop…');
    expect($(el, '[part="send-button"]')!.getAttribute('aria-label')).to.equal('Go');
    el.setAttribute('heading', 'Support');
    el.setAttribute('placeholder', 'Your question');
    await el.updateComplete;
    expect($(el, '[part="heading"]')!.textContent).to.equal('Support');
    expect(input(el).placeholder).to.equal('Your question');
  });
});
