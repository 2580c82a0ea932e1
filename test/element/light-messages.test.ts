import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * What a message costs the page (#29, "lighter messages"): its DOM nodes (elements, text
 * and the template's comment markers, as BENCHMARKS.md counts them) and the listeners its
 * controls add. Every message stays in the log, so a long session pays this per turn.
 */

/** The nodes of a message: its article's subtree and the two markers the log's keyed list puts around it. */
function nodesOf(article: Element): number {
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes++;
  return nodes + 2;
}

/**
 * `addEventListener` calls from now until `stop()` on what ends up inside a message of a
 * widget (lit-html binds listeners while a template is still a fragment: looked up after).
 */
function listenersOnMessages(): { count(): number; stop(): void } {
  const original = EventTarget.prototype.addEventListener;
  const targets: EventTarget[] = [];
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget['addEventListener']>) {
    targets.push(this);
    return original.apply(this, args);
  };
  const inMessage = (target: EventTarget) =>
    target instanceof Element &&
    target.getRootNode() instanceof ShadowRoot &&
    (target.getRootNode() as ShadowRoot).host.localName === 'agent-chat' &&
    !!target.closest('[part~="message"]');
  return { count: () => targets.filter(inMessage).length, stop: () => void (EventTarget.prototype.addEventListener = original) };
}

const questions = (el: AgentChat) => $$(el, '.message.user');
const replies = (el: AgentChat) => $$(el, '.message.agent:not(.welcome)');

describe('messages are light', () => {
  afterEach(() => unmountAll());

  it('a one-line question is at most 17 nodes with its edit button, a one-paragraph reply at most 28 with its controls', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'A short answer with a [link](https://example.com).' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Which tent?');
    await sendByUser(el, 'And a stove?');
    // Finished turns: the edit button under the question, copy and regenerate under the reply.
    await until(() => $$(el, '[part="edit-button"]').length === 2 && $$(el, '[part="regenerate-button"]').length === 2, 'turn controls');
    const question = questions(el)[1]!;
    expect(nodesOf(question), question.outerHTML).to.be.at.most(17);
    // Of which the paragraph with a link is 5 (p, a, three text nodes).
    const reply = replies(el)[1]!;
    expect(reply.querySelector('[part="copy-button"]')).to.exist;
    expect(nodesOf(reply), reply.outerHTML).to.be.at.most(28);
  });

  it('adds no listener per message or turn: the controls under each are served by one listener', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One [link](https://example.com).' }, { text: 'Two' }, { text: 'Three' }] });
    const el = await mount({ 'publishable-key': key, feedback: '' });
    await sendByUser(el, 'first');
    await until(() => $(el, '.message.agent:not(.welcome) [part="copy-button"]') && $(el, '[part="edit-button"]'));
    const watch = listenersOnMessages();
    try {
      await sendByUser(el, 'second');
      await sendByUser(el, 'third');
      await until(() => $$(el, '[part="regenerate-button"]').length === 3 && $$(el, '[part="feedback-up"]').length === 3, 'turn controls');
    } finally {
      watch.stop();
    }
    expect(watch.count()).to.equal(0);
    // And the controls still act: the second reply's copy button and thumbs, the first question's edit.
    const second = replies(el)[1]!;
    (second.querySelector('[part="feedback-up"]') as HTMLButtonElement).click();
    await until(() => second.querySelector('[part="feedback-up"]')!.getAttribute('aria-pressed') === 'true', 'rated up');
    ($$(el, '[part="edit-button"]')[0] as HTMLButtonElement).click();
    await until(() => $(el, '.edit-input'), 'the editor opens');
  });

  it('adds no listener per reply with cards: links, options, actions and the row are served by the widget’s listeners', async () => {
    const product = (index: number) => ({
      index,
      json_data: {
        entity: { title: `Tent ${index}`, url: `https://shop.example/p/${index}` },
        sub_entities: [{ name: 'size', items: [{ size: 'S' }, { size: 'M' }] }],
      },
    });
    const cards = Array.from({ length: 14 }, (_, i) => product(i));
    const key = await createKey({
      paceMs: 0,
      replies: [
        { text: 'First:', cards },
        { text: 'More:', cards },
        { text: 'Last:', cards },
      ],
    });
    const el = await mount({ 'publishable-key': key }, { cardActions: [{ id: 'add', label: 'Add' }] });
    el.style.width = '700px';
    await sendByUser(el, 'tents');
    // The first row wires the widget once (the cards' chunk); later replies add nothing.
    await until(() => $$(el, '.cards > li').length === 12, 'the first row');
    const watch = listenersOnMessages();
    try {
      await sendByUser(el, 'more tents');
      await sendByUser(el, 'and more');
      await until(() => $$(el, '.cards > li').length === 36, 'three rows');
    } finally {
      watch.stop();
    }
    expect(watch.count()).to.equal(0);
    // And they act: an option chosen, an action pressed with it, a link the page vetoes, the next step shown.
    const row = $$(el, '.cards')[2]!;
    const second = row.querySelectorAll('[part~="card"]')[1]!;
    const size = second.querySelectorAll<HTMLButtonElement>('[part="card-variant"]')[1]!;
    size.click();
    await until(() => size.getAttribute('aria-pressed') === 'true', 'the option chosen');
    const pressed = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('agent-chat-card-action', resolve as EventListener, { once: true }),
    );
    (second.querySelector('[part="card-action"]') as HTMLButtonElement).click();
    const { detail } = await pressed;
    expect([detail.action.id, detail.card.json_data.entity.title, detail.variant]).to.deep.equal([
      'add',
      'Tent 1',
      [{ group: 'size', item: { size: 'M' } }],
    ]);
    el.addEventListener('agent-chat-card-click', (event) => event.preventDefault(), { once: true });
    const link = second.querySelector<HTMLAnchorElement>('a[href]')!;
    const clicked = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true });
    link.dispatchEvent(clicked);
    expect(clicked.defaultPrevented, 'the page vetoed the link').to.equal(true);
    (row.closest('[data-key]')!.querySelector('[part="cards-more"]') as HTMLButtonElement).click();
    await until(() => $$(el, '.cards')[2]!.querySelectorAll('li[data-card]').length === 14, 'the next step');
  });

  it('makes no time formatter (ICU data, 20-30 ms) for a panel with the welcome alone; its first message brings one', async () => {
    // Idle callbacks run on the next task here, so a formatter asked for is made before the checks.
    const idle = globalThis.requestIdleCallback;
    const Format = Intl.DateTimeFormat;
    let made = 0;
    globalThis.requestIdleCallback = (callback) => window.setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 0);
    Intl.DateTimeFormat = new Proxy(Format, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        made++;
        return new target(...args);
      },
    });
    try {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Hello there.' }] });
      const el = await mount({ 'publishable-key': key, 'user-id': 'u-format' });
      await new Promise((settled) => setTimeout(settled, 0)); // the idle callbacks asked for so far
      expect($(el, '[part~="welcome"]'), 'the welcome').to.exist;
      expect(made, 'formatters made for the welcome alone').to.equal(0);
      await sendByUser(el, 'Hi');
      await until(() => $(el, '.message.user [part="meta"] span')?.textContent, 'the time stamp');
      expect(made).to.be.above(0);
    } finally {
      globalThis.requestIdleCallback = idle;
      Intl.DateTimeFormat = Format;
    }
  });

  it('gives each block of a reply the direction of its own text', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'مرحبا بكم\n\n- عنصر\n- آخر\n\nEnglish after it' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    const text = replies(el)[0]!.querySelector('[part="text"]')!;
    const directions = Array.from(text.children, (block) => getComputedStyle(block).direction);
    expect(directions).to.deep.equal(['rtl', 'rtl', 'ltr']);
  });

  it('lays a long reply out in boxes that skip layout out of view and look like one column of blocks', async () => {
    // Ending in link definitions: blocks that draw nothing, in a box of their own (it takes no room).
    const text =
      Array.from({ length: 140 }, (_, i) => `Paragraph ${i} of a [long][r${i}] answer.`).join('\n\n') +
      '\n\n' +
      Array.from({ length: 70 }, (_, i) => `[r${i}]: https://ref.example/${i}`).join('\n\n');
    const key = await createKey({ paceMs: 0, chunkChars: 2_000, replies: [{ text }] });
    const el = await mount({ 'publishable-key': key });
    // A box out of view is not laid out (it counts as its last size, or 50em; a background
    // Firefox page has no frame to lay one out in): here every box is laid out, with the
    // containment the widget's style gives it (its blocks' margins stay inside), as it is in
    // view, and as it is in a browser without content-visibility.
    const inView = new CSSStyleSheet();
    inView.replaceSync('.text .g { content-visibility: visible }');
    el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, inView];
    await sendByUser(el, 'tell me everything');
    const body = replies(el)[0]!.querySelector('[part="text"]')!;
    const boxes = Array.from(body.querySelectorAll<HTMLElement>(':scope > .g'));
    expect(boxes.map((b) => b.children.length)).to.deep.equal([64, 12, 0]);
    expect(getComputedStyle(boxes[2]!).display).to.equal('none');
    el.shadowRoot!.adoptedStyleSheets = el.shadowRoot!.adoptedStyleSheets.filter((sheet) => sheet !== inView);
    for (const box of boxes) expect(getComputedStyle(box).contentVisibility).to.equal('auto');
    el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, inView];
    const paragraphs = Array.from(body.querySelectorAll('p'));
    const top = (i: number) => paragraphs[i]!.getBoundingClientRect().top;
    // The same step from block to block across a box's edge as inside a box or before the boxes.
    const inside = top(139) - top(138);
    expect(inside).to.be.greaterThan(10);
    expect(top(64) - top(63), 'into the first box').to.be.closeTo(inside, 1);
    expect(top(128) - top(127), 'from one box to the next').to.be.closeTo(inside, 1);
    expect(top(10) - top(9), 'before the boxes').to.be.closeTo(inside, 1);
    // No margin after the last block: the bubble ends where its text does.
    const bubble = body.closest('.bubble')!;
    const padding = parseFloat(getComputedStyle(bubble).paddingBottom);
    expect(bubble.getBoundingClientRect().bottom - paragraphs[139]!.getBoundingClientRect().bottom).to.be.closeTo(padding, 1);
  });
});
