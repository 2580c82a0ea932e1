import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { AgentClient } from '../../src/client/index.js';
import { MAX_SUGGESTIONS } from '../../src/client/guards.js';
import { createKey } from '../support/server.js';
import { $, $$, collect, mount, sendByUser, unmountAll, until } from '../support/element.js';
import {
  corpusMarkdown,
  HOSTILE_GROUP,
  HOSTILE_IMAGE_URLS,
  HOSTILE_ITEM,
  HOSTILE_KEY,
  HOSTILE_TITLE,
  HOSTILE_VALUE,
  hostileCards,
  JSX_MARKER,
  PAYLOADS,
} from './corpus.js';
import { afterLateTriggers, allStrings, installTrap, problemsIn, visibleText, watch } from './inspect.js';

/**
 * Hostile agent output, end to end through the reference server, through every channel the
 * agent controls. After each: nothing ran, no handler attribute, no dangerous URL, no
 * form/embedding/script/style element from agent content, and the text after a hostile
 * fragment is still there to read.
 */
describe('hostile agent content', () => {
  let trap: ReturnType<typeof installTrap>;
  const corpus = corpusMarkdown();

  beforeEach(() => {
    trap = installTrap();
  });
  afterEach(() => {
    unmountAll();
    delete window.__xss;
  });

  async function expectSafe(el: AgentChat, watcher?: ReturnType<typeof watch>): Promise<void> {
    // Late triggers (image errors, toggles, focus) have had their chance before judging.
    await afterLateTriggers(el.shadowRoot!);
    const root = el.shadowRoot!;
    expect(problemsIn(root), 'final DOM').to.deep.equal([]);
    if (watcher) expect(watcher.stop(), 'DOM at any moment while rendering').to.deep.equal([]);
    expect(trap.calls(), 'payload executed').to.equal(0);
    expect(allStrings(root)).not.to.contain(JSX_MARKER);
  }

  function expectMarkers(el: AgentChat, { inline }: { inline: boolean }): void {
    const root = el.shadowRoot!;
    const missing = [...corpus.block, ...(inline ? corpus.inline : []), 'THE-END'].filter((m) => !visibleText(root, m));
    expect(missing, 'text after a hostile fragment is not visible').to.deep.equal([]);
  }

  async function converse(attrs: Record<string, string>, chunkChars?: number): Promise<AgentChat> {
    const key = await createKey({ paceMs: 0, ...(chunkChars ? { chunkChars } : {}), replies: [{ text: corpus.text }] });
    const el = await mount({ 'publishable-key': key, ...attrs });
    const watcher = watch(el.shadowRoot!);
    await sendByUser(el, 'show me everything');
    await until(() => el.messages.some((m) => m.role === 'agent' && m.state === 'done'), 'reply did not finish');
    await expectSafe(el, watcher);
    return el;
  }

  it('streamed reply (SSE, small chunks): every intermediate DOM is safe too', async () => {
    const el = await converse({}, 16);
    expectMarkers(el, { inline: true });
    // Raw HTML is literal text by default: readable as written.
    const text = $(el, '.message.agent:not(.welcome) [part="text"]')!.textContent!;
    expect(text).to.contain('<img src=x onerror=__xss()>');
    expect(text).to.contain('<iframe srcdoc=');
  });

  it("a transcript's image_url passes the URL policy: a hostile one is no image, a good one shows", async () => {
    const good = 'https://images.example/boots.png';
    const transcript = [
      ...HOSTILE_IMAGE_URLS.map((image_url, i) => ({
        id: `${i}`.padStart(24, '0'),
        text: `with image ${i}`,
        sender: { type: 'user' },
        image_url,
      })),
      { id: 'f'.repeat(24), text: 'with a good image', sender: { type: 'user' }, image_url: good },
    ];
    const key = await createKey({ paceMs: 0, rawTranscript: transcript, replies: [{ text: 'Made the thread.' }] });
    const made = await new AgentClient({ baseUrl: location.origin, publishableKey: key }).send({ text: 'Start', user_id: 'u' });
    const el = await mount({ 'publishable-key': key, 'thread-id': made.thread_id });
    await until(() => el.messages.length === transcript.length, 'transcript not loaded');
    await el.updateComplete;
    const sources = Array.from(el.shadowRoot!.querySelectorAll('img')).map((img) => img.getAttribute('src'));
    expect(sources).to.deep.equal([good]);
    await expectSafe(el);
  });

  it('final message (REST), then the same thread restored from its transcript', async () => {
    const first = await converse({ transport: 'rest' });
    expectMarkers(first, { inline: true });
    const threadId = first.threadId!;
    const key = first.publishableKey;
    first.remove();

    const restored = await mount({ 'publishable-key': key, 'thread-id': threadId });
    await until(() => restored.messages.length === 2, 'transcript not loaded');
    await restored.updateComplete;
    await expectSafe(restored);
    expectMarkers(restored, { inline: true });
  });

  it('welcome message', async () => {
    const key = await createKey({ welcome: corpus.text });
    const el = await mount({ 'publishable-key': key });
    await expectSafe(el);
    expect($(el, '.welcome [part="text"]')!.textContent).to.contain('<script>__xss()</script>');
    expectMarkers(el, { inline: true });
  });

  // A service's suggestions are shown up to MAX_SUGGESTIONS at a time, so the payloads go in
  // groups of that many: every one of them is shown, one group per key or per reply.
  const groups: string[][] = [];
  for (let i = 0; i < PAYLOADS.length; i += MAX_SUGGESTIONS) groups.push(PAYLOADS.slice(i, i + MAX_SUGGESTIONS));

  it('starter suggestions: shown as the very text, still clickable as text', async () => {
    for (const [g, group] of groups.entries()) {
      const key = await createKey({ suggestions: group, replies: [{ text: 'ok' }], paceMs: 0 });
      const el = await mount({ 'publishable-key': key });
      await until(() => $$(el, '[part="suggestion"]').length > 0, 'no starters');
      await expectSafe(el);
      expect(
        $$(el, '[part="suggestion"]').map((b) => b.textContent),
        `group ${g}`,
      ).to.deep.equal(group);
      if (g > 0) continue;
      const sent = collect<{ text: string }>(el, 'agent-chat-send');
      $$(el, '[part="suggestion"]')[1]!.click();
      await until(() => sent.length === 1 && el.status === 'idle');
      expect(sent[0]!.text).to.equal(group[1]);
      await expectSafe(el);
      expect($(el, '.message.user [part="text"]')!.textContent).to.equal(group[1]);
    }
  });

  it('follow-up suggestions of a reply', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: groups.map((group) => ({ text: 'Pick one', suggestions: group })),
    });
    const el = await mount({ 'publishable-key': key });
    const watcher = watch(el.shadowRoot!);
    for (const [g, group] of groups.entries()) {
      await sendByUser(el, `hi ${g}`);
      await until(() => el.status === 'idle' && $$(el, '[part="suggestion"]').length > 0, 'no follow-ups');
      await expectSafe(el, watcher);
      expect(
        $$(el, '[part="suggestion"]').map((b) => b.textContent),
        `group ${g}`,
      ).to.deep.equal(group);
    }
  });

  it('cards: hostile entity values and keys, sub-entity names and items, rendered_jsx', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Cards below. after-cards', cards: hostileCards() }] });
    const el = await mount({ 'publishable-key': key });
    const watcher = watch(el.shadowRoot!);
    await sendByUser(el, 'cards');
    await until(() => $$(el, '[part~="card"]').length === 3, 'cards not shown');
    await expectSafe(el, watcher);
    const [first, second, third] = $$(el, '[part~="card"]');
    // Readable as text, exactly as the agent wrote it.
    expect(first!.querySelector('[part="card-title"]')!.textContent!.trim()).to.equal(HOSTILE_TITLE);
    expect(first!.querySelector('[part="card-price"]')!.textContent).to.contain('<svg onload=__xss()>9');
    expect(first!.querySelector('.card-description')!.textContent).to.contain('<script>__xss()</script>description');
    const fields = first!.querySelector('[part="card-fields"]')!.textContent!;
    expect(fields).to.contain(HOSTILE_VALUE);
    expect(fields).to.contain(HOSTILE_KEY.split('__')[0]); // the hostile key, humanised, as text
    expect(fields).to.contain('proto');
    expect(fields).to.contain('ctor');
    const variants = first!.querySelector('[part="card-variants"]')!.textContent!;
    expect(variants).to.contain(HOSTILE_GROUP.replace('__', ' ')); // humanised, as text
    expect(variants).to.contain(HOSTILE_ITEM);
    // No link or image from a dangerous URL; the safe card text is still there.
    expect(first!.querySelector('a[href], img')).to.equal(null);
    expect(second!.querySelector('a[href], img')).to.equal(null);
    expect(third!.querySelector('a[href], img')).to.equal(null);
    expect(second!.textContent).to.contain('Second card');
    expect(visibleText(el.shadowRoot!, 'after-cards')).to.equal(true);
    // The prototype of nothing was touched on the way.
    expect(({} as Record<string, unknown>).ctor).to.equal(undefined);
  });

  it('error envelope with a hostile message and details', async () => {
    const body = JSON.stringify({
      error: {
        code: '<img src=x onerror=__xss()>',
        message: '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>message',
        request_id: '<script>__xss()</script>',
        details: [
          { field: '<svg onload=__xss()>', message: '<a href="javascript:__xss()">detail</a>' },
          { field: null, message: '[md](javascript:__xss()) <form><input></form>' },
        ],
      },
    });
    const key = await createKey({ fail: [{ status: 422, path: '/messages/stream', rawBody: body }] });
    const el = await mount({ 'publishable-key': key });
    const errors = collect<{ message: string; code: string }>(el, 'agent-chat-error');
    await sendByUser(el, 'hi');
    await until(() => $(el, '[part="error"]'), 'no notice');
    await expectSafe(el);
    const notice = $(el, '[part="error"]')!.textContent!;
    expect(notice).to.contain('<svg onload=__xss()>: <a href="javascript:__xss()">detail</a>');
    expect(notice).to.contain('[md](javascript:__xss()) <form><input></form>');
    expect(errors[0]!.message).to.contain('<iframe srcdoc=');
  });

  it('an HTML error page and a hostile error frame mid-stream', async () => {
    const key = await createKey({
      paceMs: 0,
      fail: [
        { status: 502, path: '/messages/stream', rawBody: '<html><body><img src=x onerror=__xss()><script>__xss()</script></body></html>' },
      ],
      errorFrame: { after: 3, status: 500, message: '<img src=x onerror=__xss()>frame' },
      replies: [{ text: 'one two three four <img src=x onerror=__xss()> five' }],
    });
    const el = await mount({ 'publishable-key': key });
    const watcher = watch(el.shadowRoot!);
    await sendByUser(el, 'hi');
    await until(() => $(el, '[part="error"]'), 'no notice');
    await expectSafe(el);
    $(el, '[part="retry-button"]')!.click();
    await until(() => el.status !== 'connecting' && el.status !== 'streaming' && el.status !== 'reconnecting');
    await expectSafe(el, watcher);
  });

  describe('with allow-html (the opt-in subset)', () => {
    it('streamed reply: no forms, embeds, handlers or bad URLs; each next block still shows', async () => {
      const el = await converse({ 'allow-html': '' }, 16);
      expectMarkers(el, { inline: false });
      // The subset really is on: harmless formatting renders as elements.
      expect($(el, '.message.agent:not(.welcome) [part="text"] details')).to.exist;
    });

    it('welcome message', async () => {
      const key = await createKey({ welcome: corpus.text });
      const el = await mount({ 'publishable-key': key, 'allow-html': '' });
      await expectSafe(el);
      expectMarkers(el, { inline: false });
    });

    it('unclosed raw-text and comment openers do not swallow the rest of the reply', async () => {
      const openers = ['<textarea>', '<!--', '<title>', '<xmp>', '<plaintext>', '<script>', '<style>', '<noembed>', '<iframe>'];
      const text = openers.map((o, i) => `${o} swallowed${i}?\n\nkept${i}`).join('\n\n');
      const key = await createKey({ welcome: text });
      const el = await mount({ 'publishable-key': key, 'allow-html': '' });
      await expectSafe(el);
      const lost = openers.filter((_, i) => !visibleText(el.shadowRoot!, `kept${i}`));
      expect(lost, 'openers whose next block was swallowed').to.deep.equal([]);
    });
  });

  it('without allow-html, unclosed openers are literal text and swallow nothing', async () => {
    const openers = ['<textarea>', '<!--', '<title>', '<xmp>', '<plaintext>', '<script>', '<style>', '<noembed>', '<iframe>'];
    const text = openers.map((o, i) => `${o} same-line${i}\nkept${i}`).join('\n\n');
    const key = await createKey({ welcome: text });
    const el = await mount({ 'publishable-key': key });
    await expectSafe(el);
    const lost = openers.filter((_, i) => !visibleText(el.shadowRoot!, `same-line${i}`) || !visibleText(el.shadowRoot!, `kept${i}`));
    expect(lost).to.deep.equal([]);
    expect($(el, '.welcome [part="text"]')!.textContent).to.contain('<plaintext>');
  });
});
