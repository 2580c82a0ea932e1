import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { Card } from '../../src/client/types.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey } from '../support/server.js';
import { $, $$, agentTexts, collect, input, mount, sendByUser, openLauncher, type, unmountAll, until } from '../support/element.js';

/*
 * In Chromium, keys are pressed through the browser (`sendKeys`), so default actions (a
 * button's activation, a textarea's newline, Tab) and :focus-visible are real. Firefox runs
 * under Puppeteer's WebDriver BiDi, whose key presses never reach a tab that is not in front
 * (test files run in tabs side by side), so there the same steps are dispatched as
 * KeyboardEvents and the few default actions these tests rely on are done by hand.
 */
const REAL_KEYS = !navigator.userAgent.includes('Firefox');
let shiftDown = false;

function deepActive(): HTMLElement | null {
  let node = document.activeElement as HTMLElement | null;
  while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement as HTMLElement;
  return node;
}

/** What Tab would reach next: focusable, enabled and rendered, in tree order. */
function nextTabStop(from: HTMLElement): HTMLElement | null {
  const root = from.getRootNode() as ShadowRoot | Document;
  const stops = Array.from(root.querySelectorAll<HTMLElement>('button, a[href], input, textarea, [tabindex]')).filter(
    (n) => n.tabIndex >= 0 && !(n as HTMLButtonElement).disabled && n.getClientRects().length > 0 && !n.closest('[hidden]'),
  );
  return stops[stops.indexOf(from) + 1] ?? null;
}

async function press(key: string): Promise<void> {
  if (REAL_KEYS) return sendKeys({ press: key });
  const target = deepActive();
  if (!target) return;
  const event = new KeyboardEvent('keydown', { key, shiftKey: shiftDown, bubbles: true, composed: true, cancelable: true });
  if (!target.dispatchEvent(event)) return;
  if ((key === 'Enter' || key === ' ') && target instanceof HTMLButtonElement) target.click();
  else if (key === 'Enter' && target instanceof HTMLInputElement) target.form?.requestSubmit();
  else if (key === 'Enter' && target instanceof HTMLTextAreaElement) await typeText('\n');
  else if (key === 'Tab') {
    const next = nextTabStop(target);
    if (next) next.focus({ focusVisible: true } as FocusOptions);
    else (document.querySelector<HTMLElement>('body > button') ?? document.body).focus();
  }
}

async function typeText(text: string): Promise<void> {
  if (REAL_KEYS) return sendKeys({ type: text });
  const field = deepActive() as HTMLInputElement | HTMLTextAreaElement;
  field.value += text;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
}

async function withShift(step: () => Promise<void>): Promise<void> {
  if (REAL_KEYS) await sendKeys({ down: 'Shift' });
  shiftDown = true;
  try {
    await step();
  } finally {
    shiftDown = false;
    if (REAL_KEYS) await sendKeys({ up: 'Shift' });
  }
}
const active = (el: AgentChat) => el.shadowRoot!.activeElement as HTMLElement | null;
/** Focus is somewhere inside the widget, never on <body>. */
const focusInside = (el: AgentChat) => document.activeElement === el && active(el) !== null;
const messages = (el: AgentChat) => $$(el, '.log-content > .message');

const product = (index: number): Card => ({
  index,
  is_recommended: index === 0,
  json_data: { entity: { title: `Product ${index}`, price: 10 + index, currency: 'USD', url: `https://shop.example/p/${index}` } },
});

/** Relative luminance and contrast ratio (WCAG 2.x) of `rgb()`/`rgba()`/`color(srgb …)` values. */
function rgbOf(color: string): [number, number, number, number] | null {
  const nums = color.match(/[\d.]+/g)?.map(Number);
  if (!nums || nums.length < 3) return null;
  const srgb = color.startsWith('color(');
  const [r, g, b] = srgb ? nums.slice(0, 3).map((n) => n * 255) : nums.slice(0, 3);
  return [r!, g!, b!, nums[3] ?? 1];
}
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}
function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
/** The first opaque background behind `node` (its own for rings drawn inside it). */
function backgroundBehind(node: Element | null): number[] {
  for (let n: Element | null = node; n; n = n.parentElement ?? (n.getRootNode() as ShadowRoot).host ?? null) {
    const rgba = rgbOf(getComputedStyle(n).backgroundColor);
    if (rgba && rgba[3] >= 0.99) return rgba;
  }
  return [255, 255, 255, 1];
}

/**
 * Tabs through the whole widget and checks every stop: a 2px+ outline (a card's link: the
 * card's) whose colour has 3:1 against what is behind it. Returns what was visited.
 */
async function checkFocusRings(el: AgentChat, first: HTMLElement): Promise<string[]> {
  // Tab must not leave the page for the browser's own UI (the page would lose focus and
  // :focus-visible with it): a button after the widget ends the walk.
  const after = document.createElement('button');
  after.textContent = 'after';
  el.after(after);
  first.focus({ focusVisible: true } as FocusOptions);
  const seen: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < 80; i++) {
    const node = active(el);
    if (document.activeElement !== el || !node || seen.includes(nameOf(node))) break;
    seen.push(nameOf(node));
    if (!node.matches(':focus-visible')) problems.push(`${nameOf(node)}: not :focus-visible`);
    const ringed = node.matches('.card-title a') ? node.closest('.card')! : node;
    const style = getComputedStyle(ringed);
    const width = parseFloat(style.outlineWidth);
    if (style.outlineStyle === 'none' || width < 2) problems.push(`${nameOf(node)}: outline ${style.outlineStyle} ${style.outlineWidth}`);
    const ring = rgbOf(style.outlineColor);
    // A ring drawn inside the element sits on its background; one outside, on its parent's.
    const inside = parseFloat(style.outlineOffset) < 0;
    // A spread shadow under the ring (the launcher's halo) is what the ring is seen against.
    const halo = style.boxShadow.match(/(rgba?\([^)]*\)|color\([^)]*\)) 0px 0px 0px (\d+)px/);
    const haloColor = halo && Number(halo[2]) >= parseFloat(style.outlineOffset) + width ? rgbOf(halo[1]!) : null;
    const behind = haloColor ?? backgroundBehind(inside ? ringed : (ringed.parentElement ?? el));
    if (!ring || contrast(ring, behind) < 3) problems.push(`${nameOf(node)}: ring ${style.outlineColor} on ${behind.join(',')}`);
    await press('Tab');
  }
  after.remove();
  expect(problems).to.deep.equal([]);
  return seen;
}

function nameOf(node: Element): string {
  const label =
    node.getAttribute('part') ?? (node.closest('[part~="card"]') ? 'card' : null) ?? node.getAttribute('aria-label') ?? node.className;
  return `${node.tagName.toLowerCase()}[${label}]#${Array.from(node.parentElement?.children ?? []).indexOf(node)}:${node.textContent?.trim().slice(0, 12)}`;
}

describe('<agent-chat> keyboard', () => {
  // Storage is scoped by key and every test has its own: nothing to clear (and clearing
  // would pull the rug from files running beside this one).
  afterEach(unmountAll);

  it('Enter sends, Shift+Enter adds a line', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Got it' }] });
    const el = await mount({ 'publishable-key': key });
    input(el).focus();
    await typeText('line one');
    await withShift(() => press('Enter'));
    await typeText('line two');
    expect(input(el).value).to.equal('line one\nline two');
    expect(el.messages).to.have.length(0);
    await press('Enter');
    await until(() => el.status === 'idle' && agentTexts(el)[0] === 'Got it');
    expect(el.messages[0]!.text).to.equal('line one\nline two');
    expect(active(el)).to.equal(input(el));
  });

  it('Escape in the text field stops a streaming reply', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const key = await createKey({ paceMs: 40, replies: [{ text: long }] });
    const el = await mount({ 'publishable-key': key });
    await type(el, 'talk');
    await press('Enter');
    await until(() => el.status === 'streaming' && agentTexts(el)[0]);
    expect(active(el)).to.equal(input(el));
    await press('Escape');
    await until(() => el.status === 'idle');
    await el.updateComplete;
    expect($(el, '.message.agent.stopped')).to.exist;
    expect(active(el)).to.equal(input(el));
  });

  it('in a launcher, Escape closes the panel and the reply keeps streaming; Ctrl+. stops a reply', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const key = await createKey({ paceMs: 30, replies: [{ text: long }, { text: long }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    await openLauncher(el);
    await type(el, 'talk');
    await press('Enter');
    await until(() => el.status === 'streaming' && agentTexts(el)[0]);
    await press('Escape');
    await el.updateComplete;
    expect(el.isOpen).to.equal(false);
    expect(el.status).to.equal('streaming');
    await until(() => el.status === 'idle', 'the reply did not finish', 10_000);
    expect(el.messages.at(-1)!.text).to.equal(long);
    expect(!!$(el, '.unread')).to.equal(true);

    el.open();
    await until(() => active(el) === input(el), 'focus did not return to the text field');
    await type(el, 'again');
    await press('Enter');
    await until(() => el.status === 'streaming' && agentTexts(el)[1]);
    if (REAL_KEYS) await sendKeys({ press: 'Control+Period' });
    else
      deepActive()!.dispatchEvent(
        new KeyboardEvent('keydown', { key: '.', ctrlKey: true, bubbles: true, composed: true, cancelable: true }),
      );
    await until(() => el.status === 'idle');
    await el.updateComplete;
    expect(el.isOpen).to.equal(true);
    expect(!!$(el, '.message.agent.stopped')).to.equal(true);
  });

  it('ArrowUp/ArrowDown move between messages from the log; Home and End go to the ends', async () => {
    const key = await createKey({
      paceMs: 0,
      welcome: 'Welcome!',
      replies: [{ text: 'One', cards: [product(0), product(1)] }, { text: 'Two' }],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'first');
    await sendByUser(el, 'second');
    const all = messages(el);
    expect(all).to.have.length(5);
    expect(all.every((m) => m.getAttribute('tabindex') === '-1')).to.be.true;

    // The moves are a chunk's (src/log/reading.ts): focus moves once it is here.
    const moves = async (key: string, to: HTMLElement) => {
      await press(key);
      await until(
        () => active(el) === to,
        () => `${key}: focus on ${active(el)?.className}`,
      );
    };
    $(el, '[part="log"]')!.focus();
    await moves('ArrowUp', all[4]!);
    // A background tab (Firefox, files side by side) has no system focus, hence no :focus-visible.
    if (document.hasFocus()) expect(all[4]!.matches(':focus-visible')).to.be.true;
    await moves('ArrowUp', all[3]!);
    await moves('ArrowDown', all[4]!);
    await moves('ArrowDown', all[4]!);
    await moves('Home', all[0]!);
    expect(all[0]!.matches('[part~="welcome"]')).to.be.true;
    await moves('ArrowDown', all[1]!);
    await moves('End', all[4]!);

    // Inside a message, keys keep their own meaning: the card row still uses Left/Right.
    const links = $$(el, '[part~="card"] a[href]');
    links[0]!.focus();
    await press('ArrowUp');
    expect(active(el)).to.equal(links[0]);
    await press('ArrowRight');
    expect(active(el)).to.equal(links[1]);
  });

  it('the launcher button opens the panel; Escape closes it from the panel or the button', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    const launcher = $(el, '[part="launcher"]') as HTMLButtonElement;
    launcher.focus();
    await press('Enter');
    await el.updateComplete;
    expect(el.isOpen).to.be.true;
    // Focus moves in once the panel is here (fetched when the button took focus).
    await until(() => input(el) && active(el) === input(el), 'focus did not move into the panel');
    launcher.focus();
    await press('Escape');
    await el.updateComplete;
    expect(el.isOpen).to.be.false;
    expect(active(el)).to.equal(launcher);
    await press(' ');
    await el.updateComplete;
    expect(el.isOpen).to.be.true;
    await press('Escape');
    await el.updateComplete;
    expect(el.isOpen).to.be.false;
    expect(active(el)).to.equal(launcher);
  });

  it('Escape closes the editor, the history and the hand-off form, each without closing the launcher', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher', channels: 'whatsapp,sms' });
    await openLauncher(el);
    await sendByUser(el, 'hello');

    $(el, '[part="edit-button"]')!.focus();
    await press('Enter');
    await el.updateComplete;
    expect(active(el)).to.equal($(el, '.edit-input'));
    await press('Escape');
    await el.updateComplete;
    expect($(el, '.edit-input')).to.be.null;
    expect(active(el)).to.equal(input(el));

    $(el, '[part="history-button"]')!.focus();
    await press('Enter');
    await el.updateComplete;
    expect(active(el)!.closest('[part="history"]')).to.exist;
    await press('Escape');
    await el.updateComplete;
    expect($(el, '[part="history"]')).to.be.null;
    expect(active(el)).to.equal($(el, '[part="history-button"]'));

    $(el, '[part="channel-button"]')!.focus();
    await press('Enter');
    await until(() => active(el)?.closest('[part="channel-form"]'));
    await press('Escape');
    await el.updateComplete;
    expect($(el, '[part="channel-form"]')).to.be.null;
    expect(active(el)).to.equal($(el, '[part="channel-button"]'));
    expect(el.isOpen).to.be.true;
  });
});

describe('<agent-chat> focus is never lost when content re-renders', () => {
  // Storage is scoped by key and every test has its own: nothing to clear (and clearing
  // would pull the rug from files running beside this one).
  afterEach(unmountAll);

  it('send button → stop button → send button: focus goes to the text field', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const key = await createKey({ paceMs: 30, replies: [{ text: long }, { text: 'short' }] });
    const el = await mount({ 'publishable-key': key });
    await type(el, 'first');
    $(el, '[part="send-button"]')!.focus();
    await press('Enter');
    await until(() => $(el, '[part="stop-button"]'));
    expect(focusInside(el)).to.be.true;
    expect(active(el)).to.equal(input(el));

    $(el, '[part="stop-button"]')!.focus();
    await press('Enter');
    await until(() => el.status === 'idle' && $(el, '[part="send-button"]'));
    expect(focusInside(el)).to.be.true;
    expect(active(el)).to.equal(input(el));
  });

  it('a focused suggestion chip that goes away after sending leaves focus in the text field', async () => {
    const key = await createKey({ paceMs: 0, suggestions: ['Starter'], replies: [{ text: 'Reply', suggestions: ['Follow-up', 'Other'] }] });
    const el = await mount({ 'publishable-key': key });
    $(el, '[part="suggestion"]')!.focus();
    await press('Enter');
    await until(() => el.status === 'idle' && $(el, '[part="suggestion"]')?.textContent === 'Follow-up');
    expect(active(el)).to.equal(input(el));
    $(el, '[part="suggestion"]')!.focus();
    await press('Enter');
    await until(() => el.status === 'idle' && el.messages.length === 4);
    await el.updateComplete;
    expect(focusInside(el)).to.be.true;
    expect(active(el)).to.equal(input(el));
  });

  it("the notice's retry and dismiss buttons leave focus in the text field", async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Finally' }], fail: [{ status: 500, path: '/messages/stream', times: 2 }] });
    const el = await mount({ 'publishable-key': key });
    const errors = collect(el, 'agent-chat-error');
    await sendByUser(el, 'try');
    $(el, '[part="retry-button"]')!.focus();
    await press('Enter');
    // The resend failed too (the second 500): its notice is there.
    await until(() => errors.length === 2 && el.status === 'error' && $(el, '[part="retry-button"]'));
    expect(focusInside(el)).to.be.true;
    expect(active(el)).to.equal(input(el));
    ($(el, '[part="error"] .icon-button') as HTMLButtonElement).focus();
    await press('Enter');
    await el.updateComplete;
    expect($(el, '[part="error"]')).to.be.null;
    expect(active(el)).to.equal(input(el));
  });

  it('history: removing an entry focuses the next one; picking one focuses the text field', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    for (const text of ['About shoes', 'About jackets', 'About hats']) {
      await sendByUser(el, text);
      el.newThread();
      await until(() => el.status === 'idle' && el.messages.length === 0);
    }
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    const remove = () => $$(el, '[part="history"] li .icon-button');
    expect(remove()).to.have.length(3);
    remove()[0]!.focus();
    await press('Enter');
    await el.updateComplete;
    expect(remove()).to.have.length(2);
    expect(focusInside(el)).to.be.true;
    expect(active(el)!.closest('[part="history"]')).to.exist;

    ($$(el, '.history-open')[0] as HTMLButtonElement).focus();
    await press('Enter');
    await el.updateComplete;
    expect($(el, '[part="history"]')).to.be.null;
    expect(active(el)).to.equal(input(el));
  });

  it('hand-off form: Cancel and the confirmation return focus to the hand-off button', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp' });
    const button = $(el, '[part="channel-button"]')!;
    button.focus();
    await press('Enter');
    await until(() => active(el)?.id === 'channel-phone');
    ($(el, '[part="channel-form"] .text-button:not(.primary)') as HTMLButtonElement).focus();
    await press('Enter');
    await el.updateComplete;
    expect($(el, '[part="channel-form"]')).to.be.null;
    expect(active(el)).to.equal(button);

    await press('Enter');
    await until(() => active(el)?.id === 'channel-phone');
    await typeText('+4915112345678');
    await press('Enter');
    await until(() => $(el, '.channel-form.done'));
    await until(() => active(el)?.closest('.channel-form.done'), 'focus on the confirmation');
    await press('Enter');
    await el.updateComplete;
    expect($(el, '[part="channel-form"]')).to.be.null;
    expect(active(el)).to.equal(button);
  });

  it('turn controls: Edit → editor → Save → text field; version arrows keep focus on the navigator', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'First' }, { text: 'Second' }, { text: 'Third' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'question');

    $(el, '[part="regenerate-button"]')!.focus();
    await press('Enter');
    await until(() => el.status === 'idle' && agentTexts(el)[0] === 'Second');
    await el.updateComplete;
    expect(focusInside(el)).to.be.true;

    const previous = () => $(el, '[part="branch-nav"] button') as HTMLButtonElement;
    previous().focus();
    await press('Enter');
    await until(() => agentTexts(el)[0] === 'First' && $(el, '[part="branch-nav"]'));
    await el.updateComplete;
    expect(focusInside(el)).to.be.true;
    // "Previous" is disabled on the first version: focus moves to the navigator's other arrow.
    expect(active(el)!.closest('[part="branch-nav"]')).to.exist;

    $(el, '[part="edit-button"]')!.focus();
    await press('Enter');
    await el.updateComplete;
    expect(active(el)).to.equal($(el, '.edit-input'));
    await typeText(' again');
    await press('Enter');
    await until(() => el.status === 'idle' && agentTexts(el)[0] === 'Third');
    await el.updateComplete;
    expect(focusInside(el)).to.be.true;
    expect(active(el)).to.equal(input(el));
  });
});

function goOffline(): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
}

describe('<agent-chat> visible focus', () => {
  afterEach(() => {
    delete (navigator as { onLine?: boolean }).onLine;
    unmountAll();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`every focusable shows a 2px ring with 3:1 contrast (${theme})`, async function () {
      // No system focus in a background tab (Firefox runs files side by side): no ring to measure.
      if (!document.hasFocus()) this.skip();
      // About 60 Tab presses through the browser's input, each a round trip to the test
      // runner: more than the default 10 s on a busy 2-core machine.
      this.timeout(30_000);
      const key = await createKey({
        paceMs: 0,
        replies: [
          {
            text: 'See [the docs](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1;\n```',
            cards: [product(0), product(1)],
            suggestions: ['More'],
          },
        ],
      });
      const el = await mount(
        { 'publishable-key': key, theme, channels: 'whatsapp,sms', mode: 'launcher' },
        { uploadImage: async () => 'https://cdn.example/x.png' },
      );
      await openLauncher(el);
      await sendByUser(el, 'hello');
      const seen = await checkFocusRings(el, $(el, '[part="launcher"]')!);
      for (const part of [
        'launcher',
        'history-button',
        'log',
        'card',
        'copy',
        'Table',
        'suggestion',
        'input',
        'attach-button',
        'regenerate-button',
        'edit-button',
      ]) {
        expect(
          seen.some((s) => s.includes(part)),
          `${part} visited in ${seen.join(' ')}`,
        ).to.be.true;
      }

      goOffline(); // a message written offline waits, under a notice with a retry button
      await sendByUser(el, 'later');
      await checkFocusRings(el, $(el, '[part="retry-button"]')!);
      // Messages, which the arrow keys focus.
      $(el, '[part="log"]')!.focus();
      await press('ArrowUp');
      await until(() => active(el)?.matches('.message'), 'a message focused');
      await checkFocusRings(el, active(el)!);

      // The editor sits in the accent-coloured bubble; the history and the hand-off form overlay.
      $(el, '[part="edit-button"]')!.click();
      await el.updateComplete;
      await checkFocusRings(el, $(el, '.edit-input')!);
      ($(el, '.edit-form .text-button') as HTMLButtonElement).click();
      $(el, '[part="history-button"]')!.click();
      await el.updateComplete;
      await checkFocusRings(el, $(el, '[part="history"] button')!);
      $(el, '[part="history"] button')!.click();
      $(el, '[part="channel-button"]')!.click();
      await until(() => $(el, '#channel-phone'));
      await checkFocusRings(el, $(el, '#channel-form input')!);
    });
  }
});
