import { expect, oneEvent } from '@open-wc/testing';
import { sendMouse, setViewport } from '@web/test-runner-commands';
import { $, $$, element, mount, openLauncher, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey, forgetStorage } from '../support/server.js';
import type { AgentChat } from '../../src/agent-chat.js';

/**
 * The rough edges a careful team would not ship, each as a reader sees it: the host page
 * restyling the chat, the typing indicator's shape, table headers broken mid-word.
 */

/** Text properties a host page's container may set; they are inherited into shadow trees. */
const HOSTILE_TEXT =
  'text-align:center;text-transform:uppercase;letter-spacing:4px;word-spacing:10px;font-style:italic;' +
  'text-indent:40px;line-height:3;font-variant:small-caps;white-space:pre;font-weight:700';
const CHECKED = [
  'textAlign',
  'textTransform',
  'letterSpacing',
  'wordSpacing',
  'fontStyle',
  'textIndent',
  'lineHeight',
  'fontVariantCaps',
  'whiteSpace',
  'fontWeight',
] as const;

describe('polish', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('looks the same inside a host container that restyles its text', async () => {
    const key = await createKey({ paceMs: 0 });
    const looks = async (style: string) => {
      const box = document.createElement('div');
      box.style.cssText = style;
      const el = element({ 'publishable-key': key, persist: 'none' });
      const ready = oneEvent(el, 'agent-chat-ready');
      box.append(el);
      document.body.append(box);
      await ready;
      await el.updateComplete;
      const parts = ['heading', 'welcome', 'input', 'suggestion'].map((part) => $(el, `[part~="${part}"]`)!);
      const seen = parts.map((node) => {
        const computed = getComputedStyle(node);
        return CHECKED.map((property) => `${property}: ${computed[property]}`).join('; ');
      });
      box.remove();
      return seen;
    };
    const plain = await looks('');
    const restyled = await looks(HOSTILE_TEXT);
    expect(restyled).to.deep.equal(plain);
  });

  it('shows the typing indicator as a small bubble at the start of the agent’s column', async () => {
    const key = await createKey({ paceMs: 1500, replies: [{ text: 'Done.' }] });
    const el = await mount({ 'publishable-key': key });
    el.style.width = '1100px';
    void el.send('hello');
    await until(() => $(el, '[part="typing"]'), 'no typing indicator');
    const typing = $(el, '[part="typing"]')!.getBoundingClientRect();
    const welcome = $(el, '[part~="welcome"]')!.getBoundingClientRect();
    expect(typing.width < 120).to.equal(true, `typing indicator is ${typing.width}px wide`);
    expect(Math.abs(typing.left - welcome.left) < 2).to.equal(true, `typing at ${typing.left}, the column at ${welcome.left}`);
  });

  it('keeps table headers whole in a narrow panel: a wide table scrolls', async () => {
    const table =
      '| Brand | Price | Weight | Waterproofing | Warranty | Availability |\n|---|---|---|---|---|---|\n| Trailhead | $120 | 300 g | Gore-Tex | 2 years | In stock |';
    const key = await createKey({ paceMs: 0, replies: [{ text: table }] });
    const el = await mount({ 'publishable-key': key });
    el.style.width = '360px';
    await sendByUser(el, 'compare');
    const headers = $$(el, '.text th');
    expect(headers.length).to.equal(6);
    for (const th of headers) {
      const range = document.createRange();
      range.selectNodeContents(th);
      expect(range.getClientRects().length).to.equal(1, `"${th.textContent}" wraps`);
    }
  });
});

describe('control names', () => {
  it('names each closing control by what it closes', async () => {
    const { html, render } = await import('lit-html');
    const { resolveStrings } = await import('../../src/i18n/index.js');
    // The features' English, as their chunks bring it.
    await import('../support/english.js');
    const { renderHistory } = await import('../../src/history/history.js');
    const { renderChannelForm } = await import('../../src/handoff/form.js');
    const t = resolveStrings('en', undefined);
    const box = document.createElement('div');
    document.body.append(box);
    const noop = () => {};
    render(
      html`${renderHistory([], t, { onClose: noop } as never)}${renderChannelForm(t, { status: 'done', channel: 'sms' } as never, ['sms'], {
        onCancel: noop,
        onKeyDown: noop,
      } as never)}`,
      box,
    );
    const names = [...box.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent!.trim());
    box.remove();
    expect(names).to.include('Close conversations');
    expect(names).to.include('Back to chat');
    expect(names).not.to.include(t.close);
  });
});

describe('configuration problems', () => {
  it('tell a visitor only that the chat is unavailable; the developer gets the detail', async () => {
    const { render } = await import('lit-html');
    const { resolveStrings } = await import('../../src/i18n/index.js');
    const { renderConfigNotice } = await import('../../src/notices/notice.js');
    await (await import('../../src/i18n/locales.js')).loadStrings('de');
    const t = resolveStrings('de', undefined);
    const problems = ['thread-id "nope" is not a 24-character hex id'];
    const box = document.createElement('div');
    render(renderConfigNotice(t, problems, { developer: false, fatal: true }), box);
    expect(box.textContent!.trim()).to.equal('Der Chat ist gerade nicht verfügbar.');
    // A problem the widget works around (a setting fell back to its default) says nothing to visitors.
    render(renderConfigNotice(t, problems, { developer: false, fatal: false }), box);
    expect(box.textContent!.trim()).to.equal('');
    render(renderConfigNotice(t, problems, { developer: true, fatal: false }), box);
    expect(box.textContent).to.contain('thread-id "nope"');
  });

  it('count a developer’s own machine as local, and nothing else', async () => {
    const { isLocalHost } = await import('../../src/state/config.js');
    for (const host of ['localhost', '127.0.0.1', '[::1]', 'shop.localhost']) expect(isLocalHost(host)).to.equal(true, host);
    for (const host of ['shop.example', 'localhost.example.com', '10.0.0.1', 'mylocalhost'])
      expect(isLocalHost(host)).to.equal(false, host);
  });
});

describe('the card row', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  const card = (index: number, title = `Trail shoe ${index}.`) => ({
    index,
    is_recommended: index === 0,
    json_data: {
      entity: {
        title,
        description: `A light shoe, model ${index}.`,
        price: 90 + index,
        currency: 'USD',
        url: `https://shop.example/p/${index}`,
      },
    },
  });

  it('gives all cards of a reply one direction from their content, not from a localized badge', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [
        { text: 'Options:', cards: [card(0), card(1), card(2)] },
        { text: 'خيارات:', cards: [card(0, 'حذاء خفيف'), card(1, 'حذاء ثقيل')] },
      ],
    });
    const el = await mount({ 'publishable-key': key, lang: 'ar' });
    await sendByUser(el, 'shoes');
    await until(() => $$(el, '[part~="card"]').length === 3, 'no cards');
    const directions = () => $$(el, '[part~="card"]').map((c) => getComputedStyle(c).direction);
    expect(directions()).to.deep.equal(['ltr', 'ltr', 'ltr']);
    await sendByUser(el, 'more');
    await until(() => $$(el, '[part~="card"]').length === 5, 'no second row');
    expect(directions().slice(3)).to.deep.equal(['rtl', 'rtl']);
  });

  it('is one Tab stop whose arrows rove, with previous/next buttons while it scrolls', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Options:', cards: [0, 1, 2, 3, 4, 5].map((i) => card(i)) }] });
    const el = await mount({ 'publishable-key': key });
    el.style.width = '420px';
    await sendByUser(el, 'shoes');
    await until(() => $$(el, '[part~="card"] a[href]').length === 6, 'no cards');
    const links = $$(el, '[part~="card"] a[href]');
    // A pointer coming over the row (onto one of its cards) shows its buttons.
    const next = $(el, '[part="card-next"]') as HTMLButtonElement;
    // The real pointer away from the widget (a row drawn under it would count as one coming over it).
    await sendMouse({ type: 'move', position: [790, 590] });
    next.hidden = true;
    links[1]!.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    await until(() => !next.hidden, 'no next button on a row that scrolls');
    expect(links.map((l) => l.tabIndex)).to.deep.equal([0, -1, -1, -1, -1, -1]);
    links[0]!.focus();
    links[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, composed: true, cancelable: true }));
    expect(el.shadowRoot!.activeElement === links[1]).to.equal(true);
    expect(links.map((l) => l.tabIndex)).to.deep.equal([-1, 0, -1, -1, -1, -1]);

    const row = $(el, '[part="cards"]')!;
    const prev = $(el, '[part="card-prev"]') as HTMLButtonElement;
    row.style.scrollBehavior = 'auto';
    row.scrollLeft = 0;
    row.dispatchEvent(new Event('scroll'));
    await until(() => prev.disabled, 'previous is not disabled at the start');
    expect(next.getAttribute('aria-label')).to.equal('Next results');
    // Instant (above), as with reduced motion: a background tab may never run a smooth scroll.
    next.click();
    await until(() => row.scrollLeft > 100, 'next did not scroll the row');
    await until(() => !prev.disabled, 'previous stayed disabled');
    row.scrollLeft = row.scrollWidth;
    row.dispatchEvent(new Event('scroll'));
    await until(() => next.disabled, 'next is not disabled at the end');
  });
});

describe('a row of host-rendered cards', () => {
  afterEach(() => unmountAll());

  it('shows its buttons for a pointer over a card with a shadow root of its own', async () => {
    if (!customElements.get('shop-card')) {
      customElements.define(
        'shop-card',
        class extends HTMLElement {
          constructor() {
            super();
            this.attachShadow({ mode: 'open' }).innerHTML = '<button style="width: 160px">Buy</button>';
          }
        },
      );
    }
    const cards = [0, 1, 2, 3, 4, 5].map((index) => ({ index, json_data: { entity: { title: `Shoe ${index}` } } }));
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Options:', cards }] });
    const el = await mount({ 'publishable-key': key }, { cardRenderer: () => document.createElement('shop-card') });
    el.style.width = '420px';
    await sendByUser(el, 'shoes');
    await until(() => $$(el, 'shop-card').length === 6, 'no host cards');
    const next = $(el, '[part="card-next"]') as HTMLButtonElement;
    await sendMouse({ type: 'move', position: [790, 590] });
    next.hidden = true;
    // The event starts inside the card's own shadow root, as a real pointer's does.
    $$(el, 'shop-card')[1]!
      .shadowRoot!.querySelector('button')!
      .dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    await until(() => !next.hidden, 'no next button for a pointer over a host card');
  });
});

describe('the full-screen panel', () => {
  afterEach(async () => {
    unmountAll();
    forgetStorage();
    await setViewport({ width: 800, height: 600 });
  });

  for (const [name, width, height] of [
    ['a phone (375×667)', 375, 667],
    ['a window at 200% zoom (640×400)', 640, 400],
  ] as const) {
    it(`on ${name} fills the screen and is modal: focus stays in, the page stays put`, async () => {
      await setViewport({ width, height });
      const key = await createKey({ paceMs: 0 });
      const el = await mount({ 'publishable-key': key, mode: 'launcher', channels: 'sms' });
      await openLauncher(el);
      const panel = $(el, '[part="panel"]')!;
      // Modal once the launcher's full-screen chunk is here (fetched beside the panel).
      await until(() => panel.getAttribute('aria-modal') === 'true', 'the panel did not turn modal');
      // The opening animation ends at once (a background tab may not run it).
      for (const animation of panel.getAnimations()) animation.finish();
      const box = panel.getBoundingClientRect();
      expect([Math.round(box.left), Math.round(box.top), Math.round(box.width), Math.round(box.height)]).to.deep.equal([
        0,
        0,
        innerWidth,
        innerHeight,
      ]);
      expect(panel.getAttribute('aria-modal')).to.equal('true');
      // The launcher behind it is out of sight and out of the Tab order; the page does not scroll.
      expect($(el, '[part="launcher"]')!.getClientRects().length).to.equal(0);
      expect(document.documentElement.style.overflow).to.equal('hidden');

      const stops = [...panel.querySelectorAll<HTMLElement>('button, a[href], textarea, input, [tabindex]')].filter(
        (n) => n.tabIndex >= 0 && !(n as HTMLButtonElement).disabled && n.getClientRects().length > 0,
      );
      const tab = (from: HTMLElement, shiftKey = false) => {
        from.focus();
        const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, composed: true, cancelable: true });
        from.dispatchEvent(event);
        return event.defaultPrevented;
      };
      expect(tab(stops.at(-1)!)).to.equal(true);
      expect(el.shadowRoot!.activeElement === stops[0]).to.equal(true);
      expect(tab(stops[0]!, true)).to.equal(true);
      expect(el.shadowRoot!.activeElement === stops.at(-1)).to.equal(true);

      // The hand-off form leaves the conversation room.
      $(el, '[part="channel-button"]')!.click();
      await until(() => $(el, '#channel-phone'));
      expect($(el, '.log-wrap')!.getBoundingClientRect().height >= 80).to.equal(
        true,
        `log ${$(el, '.log-wrap')!.getBoundingClientRect().height}px`,
      );

      el.close();
      await el.updateComplete;
      expect(document.documentElement.style.overflow).to.equal('');
      expect(panel.hasAttribute('aria-modal')).to.equal(false);
    });
  }

  it("keeps the host's slotted links in its Tab loop", async () => {
    await setViewport({ width: 375, height: 667 });
    const key = await createKey({ paceMs: 0 });
    const el = element({ 'publishable-key': key, persist: 'none', mode: 'launcher' });
    const privacy = document.createElement('a');
    privacy.href = '#privacy';
    privacy.textContent = 'Privacy';
    privacy.slot = 'footer';
    el.append(privacy);
    document.body.append(el);
    await el.updateComplete;
    await openLauncher(el as never);
    const panel = $(el as never, '[part="panel"]')!;
    await until(() => panel.getAttribute('aria-modal') === 'true', 'the panel did not turn modal');
    const tab = (from: HTMLElement) => {
      from.focus();
      const event = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true });
      from.dispatchEvent(event);
      return event.defaultPrevented;
    };
    // The send button is no longer the end of the loop: the footer's link comes after it.
    expect(tab($(el as never, '[part="send-button"]')!), 'Tab from send wraps past the footer').to.equal(false);
    expect(tab(privacy), 'Tab from the footer link wraps').to.equal(true);
    expect(el.shadowRoot!.activeElement?.closest('[part="header"]') != null).to.equal(true);
    el.remove();
  });

  it('stays a floating box, not modal, on a desktop-sized window', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    await openLauncher(el);
    expect($(el, '[part="panel"]')!.hasAttribute('aria-modal')).to.equal(false);
    expect(document.documentElement.style.overflow).to.equal('');
    expect($(el, '[part="panel"]')!.getBoundingClientRect().width < innerWidth).to.equal(true);
  });
});

describe('threadId', () => {
  afterEach(() => unmountAll());

  it('opens a thread when set, as the thread-id attribute does (frameworks set it as a property)', async () => {
    const el = element({ 'publishable-key': 'pk_demo_shop', persist: 'none', mode: 'launcher' });
    document.body.append(el);
    await el.updateComplete;
    el.threadId = '65f1a7c2e4b0d3a9c8f0a1ff';
    await el.updateComplete;
    expect(el.threadIdAttribute).to.equal('65f1a7c2e4b0d3a9c8f0a1ff');
    expect(el.threadId).to.equal('65f1a7c2e4b0d3a9c8f0a1ff');
    el.threadId = null;
    expect(el.threadIdAttribute).to.equal('');
    el.remove();
  });
});

describe('the edit bubble', () => {
  afterEach(() => unmountAll());

  it('has no stray line: the editor form does not take the composer’s border', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Hello there');
    await until(() => $(el, '[part="edit-button"]'), 'no edit button');
    $(el, '[part="edit-button"]')!.click();
    await until(() => $(el, '.edit-form'), 'no editor');
    const form = getComputedStyle($(el, '.edit-form')!);
    expect([form.borderTopWidth, form.borderTopStyle === 'none' || form.borderTopWidth === '0px']).to.deep.equal(['0px', true]);
    expect(getComputedStyle($(el, '[part="composer"]')!).borderTopWidth).to.equal('1px');
  });
});

// The guard for half-typed markdown may guess only about what has not arrived: the reply
// after its last delta must look as it will once the final `message` frame settles it.
// One widget is held right after the last delta (its stream stays open, no `message`
// frame), another gets the same reply settled; the CommonMark examples behind these
// replies showed formatting the finished text does not have.
describe('a reply after its last delta', () => {
  afterEach(() => unmountAll());

  const REPLIES = ['Note the _foo*\n', 'Then run `npm i\n', 'Mind the star: a * foo bar*\n', '- `one\n- two`\n', '*foo bar\n*\n'];

  const replyHtml = (el: AgentChat) =>
    $$(el, '.message.agent:not(.welcome) [part="text"]')
      .at(-1)
      ?.innerHTML.replace(/<!--[^>]*-->/g, '');

  for (const text of REPLIES) {
    it(`already looks settled: ${JSON.stringify(text)}`, async () => {
      const deltas = [...text].map((char, i) => JSON.stringify({ type: 'event', seq: i + 1, data: { text: char } }));
      const held = await mount({ 'publishable-key': await createKey({ paceMs: 0, keepOpen: true, rawTurns: [deltas] }) });
      void held.send('question');
      await until(() => held.messages.at(-1)?.text === text, 'the deltas did not arrive');
      await held.updateComplete;
      expect(held.status).to.equal('streaming');

      const settled = await mount({ 'publishable-key': await createKey({ paceMs: 0, replies: [{ text }] }) });
      await sendByUser(settled, 'question');
      expect(settled.messages.at(-1)!.text).to.equal(text);
      expect(replyHtml(held)).to.equal(replyHtml(settled));
    });
  }
});
