import { expect } from '@open-wc/testing';
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import type { Card } from '../../src/client/types.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { english as en } from '../support/english.js';
import { ar } from '../../src/i18n/locales/ar.js';
import { de } from '../../src/i18n/locales/de.js';
import { es } from '../../src/i18n/locales/es.js';
import { fr } from '../../src/i18n/locales/fr.js';
import { ja } from '../../src/i18n/locales/ja.js';
import { loadStrings } from '../../src/i18n/index.js';

// The widget loads non-English tables on demand; these tests read them synchronously.
for (const lang of ['de', 'fr', 'es', 'ja', 'ar']) await loadStrings(lang);
import { shellStyles } from '../../src/shell/shell.styles.js';
import { styles as panelStyles } from '../../src/panel/index.js';
import { styles as channelFormStyles } from '../../src/handoff/handoff.styles.js';
import { styles as cardStyles } from '../../src/cards/cards.styles.js';
import { styles as attachmentStyles } from '../../src/attachments/attachments.styles.js';
import { readingStyles } from '../../src/log/reading.styles.js';
import { createKey } from '../support/server.js';
import { $, $$, mount, openLauncher, sendByUser, type, unmountAll, until } from '../support/element.js';

const product = (index: number, recommended = false): Card => ({
  index,
  is_recommended: recommended,
  json_data: {
    entity: {
      title: `Product ${index}`,
      price: 10 + index,
      currency: 'USD',
      url: `https://shop.example/p/${index}`,
      description: 'A sturdy everyday product.',
    },
    sub_entities: [
      {
        name: 'Sizes',
        items: [
          { size: 'M', in_stock: true },
          { size: 'L', in_stock: false },
        ],
      },
    ],
  },
});

const RICH_REPLY = {
  text: 'Here are **two** [options](https://shop.example):\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1;\n```',
  cards: [product(0, true), product(1), product(2)],
  suggestions: ['Tell me more', 'Cheaper ones', 'Compare them'],
};

// A 1×1 PNG, so the attachment preview has a real image.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);

async function attach(el: AgentChat): Promise<void> {
  const field = $(el, 'input[type="file"]') as HTMLInputElement;
  const data = new DataTransfer();
  data.items.add(new File([PNG], 'photo.png', { type: 'image/png' }));
  field.files = data.files;
  field.dispatchEvent(new Event('change', { bubbles: true }));
  await until(() => $(el, '[part="attachment"] img'));
}

/** Media emulation, where the runner supports it (not Firefox under Puppeteer's WebDriver BiDi). */
async function tryEmulate(media: Parameters<typeof emulateMedia>[0] & { forcedColors?: string }): Promise<boolean> {
  // Asking anyway works but prints the runner's "CDP support is required" trace each time.
  if (navigator.userAgent.includes('Firefox')) return false;
  try {
    await emulateMedia(media);
    return true;
  } catch {
    return false;
  }
}

function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

/**
 * A conversation with everything on screen at once: cards, suggestions, a code block and a
 * table, a regenerated reply (branch navigator), an attachment preview and an error notice
 * with a retry button (a message written offline). `extra` adds the history, the editor or
 * the hand-off form.
 */
async function richConversation(attrs: Record<string, string> = {}): Promise<AgentChat> {
  const key = await createKey({ paceMs: 0, replies: [{ text: 'First version' }, RICH_REPLY] });
  delete (navigator as { onLine?: boolean }).onLine;
  const el = await mount(
    { 'publishable-key': key, persist: 'local', channels: 'whatsapp,sms', ...attrs },
    { uploadImage: async () => 'https://cdn.example/photo.png' },
  );
  if (el.mode === 'launcher') await openLauncher(el);
  await sendByUser(el, 'show me options');
  $(el, '[part="regenerate-button"]')!.click();
  await until(() => el.status === 'idle' && $(el, '[part="branch-nav"]') && $(el, '[part~="card"]'));
  await el.updateComplete;
  await attach(el);
  setOnline(false);
  await el.updateComplete;
  return el;
}

/**
 * Shows the offline notice (the queued message keeps the suggestions of the reply hidden),
 * then attaches an image again: the queued message took the first one.
 */
async function withNotice(el: AgentChat): Promise<void> {
  await type(el, 'written offline');
  ($(el, '[part="send-button"]') as HTMLButtonElement).click();
  await until(() => $(el, '[part="retry-button"]'));
  await attach(el);
}

describe('<agent-chat> axe: no violations', () => {
  afterEach(() => {
    delete (navigator as { onLine?: boolean }).onLine;
    unmountAll();
  });

  it('inline, with cards, suggestions, code, a table, the branch navigator and an attachment preview', async () => {
    const el = await richConversation();
    expect($(el, '[part="suggestion"]')).to.exist;
    expect($(el, '[part="branch-nav"]')).to.exist;
    expect($(el, '[part="attachment"]')).to.exist;
    await expect(el).to.be.accessible();
    await withNotice(el);
    expect($(el, '[part="error"][role="alert"]')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('launcher closed, then open with the conversation and an error notice', async () => {
    const key = await createKey({});
    const closed = await mount({ 'publishable-key': key, mode: 'launcher' });
    await expect(closed).to.be.accessible();
    closed.remove();
    const el = await richConversation({ mode: 'launcher' });
    await withNotice(el);
    await expect(el).to.be.accessible();
  });

  it('dark theme and right to left (Arabic)', async () => {
    const el = await richConversation({ theme: 'dark', lang: 'ar' });
    await withNotice(el);
    expect($(el, '[part="panel"]')!.getAttribute('dir')).to.equal('rtl');
    await expect(el).to.be.accessible();
  });

  it('the history list', async () => {
    const el = await richConversation({ theme: 'dark' });
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    expect($$(el, '.history-open').length).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('the edit form', async () => {
    const el = await richConversation();
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    expect($(el, '.edit-input')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('the hand-off form (whatsapp,sms), with an invalid number', async () => {
    const el = await richConversation({ lang: 'ar' });
    $(el, '[part="channel-button"]')!.click();
    await until(() => $(el, '#channel-phone'));
    const phone = $(el, '#channel-phone') as HTMLInputElement;
    phone.value = '12';
    phone.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    ($(el, '[part="channel-form"] button[type="submit"]') as HTMLButtonElement).click();
    await until(() => $(el, '#channel-invalid'));
    await expect(el).to.be.accessible();
  });
});

describe('<agent-chat> screen-reader announcements', () => {
  afterEach(() => {
    delete (navigator as { onLine?: boolean }).onLine;
    unmountAll();
  });

  const region = (el: AgentChat) => $(el, '.announcer[role="status"][aria-live="polite"]')!;

  it('announces a reply that lands while the launcher is closed, and names the button for it', async () => {
    const key = await createKey({ paceMs: 20, replies: [{ text: 'A reply worth hearing about the weather.' }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    await openLauncher(el);
    await type(el, 'weather?');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => el.status === 'streaming');
    el.close();
    await until(() => el.status === 'idle', 'the reply did not finish');
    await el.updateComplete;
    // Outside the hidden panel, so assistive technology still hears it.
    expect(!!region(el).closest('[hidden]')).to.equal(false);
    expect(region(el).textContent).to.equal('Agent: A reply worth hearing about the weather.');
    const button = $(el, '[part="launcher"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Open chat, new message');
    el.open();
    await el.updateComplete;
    el.close();
    await el.updateComplete;
    expect(button.getAttribute('aria-label')).to.equal('Open chat');
  });

  it('announces each completed reply once, as plain text, with how many suggestions came with it', async () => {
    const key = await createKey({ paceMs: 5, chunkChars: 8, replies: [RICH_REPLY, { text: 'Plain *second*' }] });
    const el = await mount({ 'publishable-key': key, 'agent-display-name': 'Shop bot' });
    expect(region(el).textContent).to.equal('');
    const seen = new Set<string>();
    const observer = new MutationObserver(() => seen.add(region(el).textContent!));
    observer.observe(region(el), { childList: true, characterData: true, subtree: true });

    await type(el, 'options?');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => el.status === 'idle');
    await el.updateComplete;
    const text = region(el).textContent!;
    expect(text.startsWith('Shop bot: Here are two options:')).to.be.true;
    expect(text).not.to.match(/\*\*|\]\(|\|---|```/);
    expect(text.endsWith('3 suggested replies')).to.be.true;
    expect($$(el, '[aria-busy="true"]')).to.have.length(0);
    // Nothing was announced while the reply streamed: one change, for the finished reply.
    expect([...seen]).to.deep.equal([text]);

    // Sending the next message hides the chips but does not touch (and re-announce) the region.
    await type(el, 'and?');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => el.status !== 'idle');
    await el.updateComplete;
    expect(region(el).textContent).to.equal(text);
    await until(() => el.status === 'idle');
    await el.updateComplete;
    expect(region(el).textContent).to.equal('Shop bot: Plain second');
    observer.disconnect();
  });

  it('is marked busy while streaming', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const key = await createKey({ paceMs: 30, replies: [{ text: long }] });
    const el = await mount({ 'publishable-key': key });
    await type(el, 'go');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => $(el, '.message.agent[aria-busy="true"]'), 'a busy reply');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="stop-button"]')!.click();
    await until(() => el.status === 'idle');
  });

  it('uses the language of the widget for the suggestion count', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hallo', suggestions: ['Ja', 'Nein'] }] });
    const el = await mount({ 'publishable-key': key, lang: 'de' });
    await sendByUser(el, 'hi');
    expect(region(el).textContent).to.equal('Assistent: Hallo 2 vorgeschlagene Antworten');
  });

  it('every language table has its own suggestion count', () => {
    const tables = { en, de, fr, es, ja, ar };
    const three = Object.values(tables).map((t) => t.suggestionsAvailable(3));
    expect(new Set(three).size).to.equal(6);
    for (const t of Object.values(tables)) {
      expect(t.suggestionsAvailable(1)).not.to.equal(t.suggestionsAvailable(3));
      expect(t.suggestionsAvailable(3)).to.contain('3');
    }
    expect(ar.suggestionsAvailable(2)).to.equal('ردّان مقترحان');
    expect(ar.suggestionsAvailable(11)).to.equal('11 ردًا مقترحًا');
  });

  it('an error notice is inserted as a whole role="alert" with its text (announced on arrival, not only at load)', async () => {
    const key = await createKey({ paceMs: 0, fail: [{ status: 500, path: '/messages/stream', times: 1 }] });
    const el = await mount({ 'publishable-key': key });
    expect($(el, '[role="alert"]')).to.be.null;
    const inserted: HTMLElement[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes) if (n instanceof HTMLElement && n.getAttribute('role') === 'alert') inserted.push(n);
    });
    observer.observe($(el, '[part="panel"]')!, { childList: true, subtree: true });
    await sendByUser(el, 'fails');
    await el.updateComplete;
    observer.disconnect();
    expect(inserted).to.have.length(1);
    expect(inserted[0]!.getAttribute('part')).to.equal('error');
    expect(inserted[0]!.textContent).to.match(/\w/);
    expect(inserted[0]!.isConnected).to.be.true;
  });
});

describe('<agent-chat> reflow, zoom, targets and media', () => {
  afterEach(async () => {
    delete (navigator as { onLine?: boolean }).onLine;
    unmountAll();
    await setViewport({ width: 800, height: 600 });
    await tryEmulate({ reducedMotion: 'no-preference', forcedColors: 'none' });
  });

  /** Elements whose content may scroll sideways on purpose. */
  const SCROLLERS = '.code-block pre, .table-scroll, [part="cards"]';

  /** Every element lies within the panel horizontally, and nothing scrolls sideways but the scrollers. */
  function expectNoHorizontalOverflow(el: AgentChat): void {
    const panel = $(el, '[part="panel"]')!;
    const box = panel.getBoundingClientRect();
    const problems: string[] = [];
    expect(document.documentElement.scrollWidth, 'page scrolls sideways').to.be.at.most(innerWidth);
    expect(box.left).to.be.at.least(-1);
    expect(box.right).to.be.at.most(innerWidth + 1);
    for (const node of el.shadowRoot!.querySelectorAll<HTMLElement>('[part="panel"] *')) {
      if (node.closest('.sr-only') || node.parentElement?.closest(SCROLLERS)) continue;
      const r = node.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      const name = `${node.tagName.toLowerCase()}.${node.className}`;
      if (r.left < box.left - 1 || r.right > box.right + 1)
        problems.push(`${name} ${r.left}..${r.right} outside ${box.left}..${box.right}`);
      const style = getComputedStyle(node);
      if (!node.matches(SCROLLERS) && /auto|scroll/.test(style.overflowX) && node.scrollWidth > node.clientWidth + 1) {
        problems.push(`${name} scrolls sideways (${node.scrollWidth} > ${node.clientWidth})`);
      }
    }
    expect(problems).to.deep.equal([]);
  }

  it('reflows at 320 CSS px: inline, and the launcher panel, with everything on screen', async () => {
    await setViewport({ width: 320, height: 640 });
    const el = await richConversation();
    await withNotice(el);
    expectNoHorizontalOverflow(el);
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    expectNoHorizontalOverflow(el);
    el.remove();

    const launcher = await richConversation({ mode: 'launcher' });
    $(launcher, '[part="channel-button"]')!.click();
    await until(() => $(launcher, '#channel-phone'));
    expectNoHorizontalOverflow(launcher);
    $(launcher, '[part="history-button"]')!.click();
    await launcher.updateComplete;
    expectNoHorizontalOverflow(launcher);
  });

  it('at 200% zoom (640 px wide, 30 px text) nothing is clipped and every control is reachable', async () => {
    await setViewport({ width: 640, height: 720 });
    const el = await richConversation();
    el.style.setProperty('--agent-chat-font-size', '30px');
    el.style.height = '700px';
    await withNotice(el);
    expectNoHorizontalOverflow(el);
    const clipped = $$(el, 'button, h2, [part="text"], .notice-text, .history-title').filter(
      (n) => n.getBoundingClientRect().width > 0 && n.scrollWidth > n.clientWidth + 1,
    );
    expect(clipped.map((n) => n.className || n.tagName)).to.deep.equal([]);
    // Every control can be scrolled to: inside the panel, or inside a scroller within it.
    const panel = $(el, '[part="panel"]')!.getBoundingClientRect();
    for (const control of $$(el, 'button:not(.file-input), textarea, a[href]')) {
      if (!control.getClientRects().length) continue; // not rendered
      const r = control.getBoundingClientRect();
      expect((r.left >= panel.left - 1 && r.right <= panel.right + 1) || !!control.closest(SCROLLERS), control.className).to.be.true;
    }
  });

  it('every interactive control is at least 24×24 CSS px', async () => {
    const el = await richConversation({ mode: 'launcher' });
    await withNotice(el);
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    $(el, '[part="channel-button"]')!.click();
    await until(() => $(el, '#channel-phone'));
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    for (const part of ['card', 'retry-button', 'branch-nav', 'attachment', 'history', 'channel-form', 'launcher']) {
      expect($(el, `[part~="${part}"]`), part).to.exist;
    }
    const small: string[] = [];
    for (const control of $$(el, 'button, a[href], input, textarea, select')) {
      if (control.matches('.file-input')) continue; // the hidden picker; the attach button opens it
      if (!control.getClientRects().length) continue; // not rendered (a card row's buttons until a pointer comes)
      // Inline links in running text are exempt (WCAG 2.5.8); a card's link covers the card.
      if (control.matches('[part="text"] a')) continue;
      const target = control.closest('[part~="card"]') ?? control.closest('label') ?? control;
      const r = target.getBoundingClientRect();
      if (r.width < 24 || r.height < 24)
        small.push(`${control.tagName}.${control.className} ${control.getAttribute('aria-label') ?? ''} ${r.width}×${r.height}`);
    }
    expect(small).to.deep.equal([]);
  });

  it('text fields use 16 px or more on narrow screens (composer, editor, phone)', async () => {
    await setViewport({ width: 360, height: 640 });
    const el = await richConversation({ mode: 'launcher' });
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    $(el, '[part="channel-button"]')!.click();
    await until(() => $(el, '#channel-phone'));
    for (const field of [$(el, '[part="input"]'), $(el, '.edit-input'), $(el, '#channel-phone')]) {
      expect(parseFloat(getComputedStyle(field!).fontSize), field!.className).to.be.at.least(16);
    }
  });

  it('prefers-reduced-motion: no animations, transitions or smooth scrolling', async () => {
    const css = shellStyles.cssText.replace(/\s+/g, ' ');
    expect(css).to.match(/@media \(prefers-reduced-motion: reduce\) \{[^@]*scroll-behavior: auto !important[^@]*\}/);
    expect(css).to.match(/@media \(prefers-reduced-motion: reduce\) \{[^@]*transition-duration: 0s !important/);
    // Rendered where the runner can emulate the preference.
    if (!(await tryEmulate({ reducedMotion: 'reduce' })) || !matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const long = Array.from({ length: 40 }, (_, i) => `Line ${i}.`).join('\n\n');
    const key = await createKey({ paceMs: 20, chunkChars: 30, replies: [{ text: long }] });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    await openLauncher(el);
    expect(getComputedStyle($(el, '[part="panel"]')!).animationName).to.equal('none');
    await type(el, 'go');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => $(el, '[part="typing"] span') || el.status === 'streaming');
    const dot = $(el, '[part="typing"] span');
    if (dot) expect(getComputedStyle(dot).animationName).to.equal('none');
    for (const node of el.shadowRoot!.querySelectorAll<HTMLElement>('*')) {
      const style = getComputedStyle(node);
      expect(style.scrollBehavior, node.className).to.equal('auto');
      expect(parseFloat(style.transitionDuration) || 0, node.className).to.equal(0);
    }
    await until(() => el.status === 'idle');
  });

  it('forced colours: every custom-drawn control keeps a border or a system colour, and focus stays visible', async () => {
    // Rendered where the runner can emulate it (Playwright's Chromium); the stylesheet is
    // checked everywhere, since Firefox under Puppeteer cannot emulate forced colours.
    // Sheets that arrive with lazy chunks (hand-off form, cards, image input, the reading moves'
    // "jump to latest") are checked with the rest.
    const css = [shellStyles, ...panelStyles, channelFormStyles, cardStyles, attachmentStyles, readingStyles]
      .map((sheet) => sheet.cssText)
      .join(' ')
      .replace(/\s+/g, ' ');
    const forced = [...css.matchAll(/@media \(forced-colors: active\) \{(.*?\})\s*\}/g)].map((m) => m[1]).join(' ');
    for (const selector of [
      '.bubble',
      '.card',
      '.suggestion',
      '.launcher',
      '.send',
      '.stop',
      '.jump',
      '.typing',
      '.code-block',
      ':focus-visible',
      '.unread',
      '.typing span',
      "[part~='card-recommended']",
      '.attach',
      '.channel-phone',
    ]) {
      expect(forced, selector).to.contain(selector);
    }
    expect(forced).to.match(/\.unread \{[^}]*forced-color-adjust: none[^}]*Highlight/);
    expect(forced).to.match(/\.typing span \{[^}]*forced-color-adjust: none[^}]*CanvasText/);
    expect(forced).to.match(/:focus-visible[^{]*\{[^}]*outline: 2px solid Highlight/);

    if (!(await tryEmulate({ forcedColors: 'active' })) || !matchMedia('(forced-colors: active)').matches) return;
    try {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply' }] });
      const el = await mount({ 'publishable-key': key, mode: 'launcher' });
      await openLauncher(el);
      await sendByUser(el, 'hi');
      el.close();
      await el.updateComplete;
      (el as unknown as { unread: boolean }).unread = true;
      await el.updateComplete;
      const dot = getComputedStyle($(el, '.unread')!);
      expect(dot.backgroundColor).not.to.match(/rgba\(0, 0, 0, 0\)|transparent/);
      const launcher = $(el, '[part="launcher"]')!;
      launcher.focus();
      const ring = getComputedStyle(launcher);
      expect(ring.outlineStyle).to.equal('solid');
      expect(parseFloat(ring.outlineWidth)).to.be.at.least(2);
      expect(getComputedStyle(launcher).borderStyle).to.equal('solid');
    } finally {
      await tryEmulate({ forcedColors: 'none' });
    }
  });
});
