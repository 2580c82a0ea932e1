import { expect } from '@open-wc/testing';
import { html } from 'lit';
import { advancePageClock, createKey, keyStats, BASE_URL } from '../support/server.js';
import { $, $$, agentTexts, collect, element, input, mount, sendByUser, unmountAll, until } from '../support/element.js';
import type { AgentChat } from '../../src/agent-chat.js';

/**
 * No reply, card or setting may break the widget: each case is a way a broken or hostile
 * service, or a careless host page, froze or misled 0.1. After each, the widget must still
 * send a message and show the next reply.
 */

const NEXT = 'The next reply arrived.';

/** The widget still works: a message goes out and its reply shows, with no notice left. */
async function stillWorks(el: AgentChat, reply = NEXT): Promise<void> {
  await sendByUser(el, 'Still there?');
  await until(() => agentTexts(el).at(-1) === reply, `the next reply "${reply}" did not show`);
  expect(el.status).to.equal('idle');
  expect($(el, '[part="stop-button"]'), 'Stop is gone').to.equal(null);
}

/** Console warnings during `run`, and whether anything was thrown at the window. */
async function watchConsole<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[]; uncaught: unknown[] }> {
  const warnings: string[] = [];
  const uncaught: unknown[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  const onError = (e: ErrorEvent) => uncaught.push(e.error ?? e.message);
  const onRejection = (e: PromiseRejectionEvent) => uncaught.push(e.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  try {
    return { result: await run(), warnings, uncaught };
  } finally {
    console.warn = original;
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  }
}

// 5,000 levels: beyond what marked's recursion survives in either browser.
const DEEP_REPLY = `Before the deep part.\n\n${'> '.repeat(5000)}deep\n\n${'**a '.repeat(3000)}x${' a**'.repeat(3000)}\n\n${'1. '.repeat(5000)}z\n\nAfter the deep part.`;

describe('<agent-chat> robustness: replies', () => {
  afterEach(unmountAll);

  it('a deeply nested reply renders (the deep parts as text), ends the turn, and later replies show', async () => {
    const key = await createKey({ paceMs: 0, chunkChars: 400, replies: [{ text: DEEP_REPLY }, { text: NEXT }] });
    const { uncaught } = await watchConsole(async () => {
      const el = await mount({ 'publishable-key': key });
      await sendByUser(el, 'Go deep');
      const reply = $$(el, '.message.agent:not(.welcome) [part="text"]')[0]!;
      expect(reply.textContent).to.contain('Before the deep part.');
      expect(reply.textContent).to.contain('After the deep part.');
      expect(reply.querySelector('.plain')).not.to.equal(null);
      await stillWorks(el);
    });
    expect(uncaught).to.deep.equal([]);
  });

  it('the same reply after a reload (restored from the transcript) and as the welcome message', async () => {
    const key = await createKey({ paceMs: 0, chunkChars: 400, welcome: DEEP_REPLY, replies: [{ text: DEEP_REPLY }, { text: NEXT }] });
    const first = await mount({ 'publishable-key': key });
    await sendByUser(first, 'Go deep');
    const thread = first.threadId!;
    unmountAll();
    const el = await mount({ 'publishable-key': key, 'thread-id': thread });
    expect($(el, '.welcome [part="text"]')!.textContent).to.contain('After the deep part.');
    expect(agentTexts(el)[0]).to.contain('After the deep part.');
    await stillWorks(el);
  });

  it('a delimiter-dense reply (quadratic for the lexer) renders and the widget goes on', async function () {
    // 80 KB of each: marked alone spent ~7.5 s in one task on such a paragraph. Well under
    // that is all this asserts; the figures are in the benchmark (BENCHMARKS.md).
    this.timeout(6000);
    const key = await createKey({
      paceMs: 0,
      chunkChars: 20_000,
      replies: [{ text: `${'a_b_'.repeat(20_000)}\n\n</${'<!--'.repeat(20_000)}` }, { text: NEXT }],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Dense');
    expect(agentTexts(el)[0]!.length).to.be.greaterThan(150_000);
    await stillWorks(el);
  });

  it('a complete reply whose stream closes without [DONE]: shown once, no notice, agent-chat-message fires', async () => {
    const key = await createKey({ paceMs: 0, omitDone: true, replies: [{ text: 'Complete, no DONE.' }, { text: NEXT }] });
    const el = await mount({ 'publishable-key': key });
    const messages = collect(el, 'agent-chat-message');
    await sendByUser(el, 'Hi');
    expect(agentTexts(el)).to.deep.equal(['Complete, no DONE.']);
    expect($(el, '[part="error"]')).to.equal(null);
    expect(messages).to.have.length(1);
    expect(el.messages.at(-1)!.state).to.equal('done');
    await stillWorks(el);
    expect((await keyStats(key)).streamConnections).to.equal(2);
  });

  for (const [name, id] of [
    ['not 24 hex digits', '../../not-a-thread'],
    ['a second, different thread', 'a1b2c3d4e5f6a1b2c3d4e5f6'],
  ]) {
    it(`a thread frame naming ${name} within a turn does not move the conversation`, async () => {
      const other = JSON.stringify({ type: 'thread', data: { thread_id: id } });
      const token = JSON.stringify({ type: 'event', seq: 1, data: { text: 'Partial' } });
      const key = await createKey({ paceMs: 0, rawTurns: [[token, other]], replies: [{ text: 'First' }, { text: NEXT }] });
      const el = await mount({ 'publishable-key': key });
      const threads = collect<{ threadId: string | null }>(el, 'agent-chat-thread');
      await sendByUser(el, 'One');
      expect(threads.map((t) => t.threadId)).to.have.length(1);
      expect(el.threadId).to.match(/^[0-9a-f]{24}$/);
      expect(el.threadId).not.to.equal(id);
      expect($(el, '[part="error"]'), 'a notice').not.to.equal(null);
      const thread = el.threadId;
      await stillWorks(el);
      expect(el.threadId).to.equal(thread);
    });
  }

  it('a streamed answer the page may not read (no CORS on the stream): the turn runs once, the text is kept', async () => {
    const page = new URL(BASE_URL);
    page.hostname = page.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const key = await createKey({ paceMs: 0, streamWithoutCors: true, replies: [{ text: 'Unreadable' }] });
    const el = await mount({ 'publishable-key': key, 'base-url': page.origin });
    await sendByUser(el, 'Will you run twice?');
    expect($(el, '[part="error"]')).not.to.equal(null);
    expect(input(el).value).to.equal('Will you run twice?');
    const stats = await keyStats(key);
    expect(stats.turnsRun, 'turns run').to.equal(1);
    expect(
      stats.requests.filter((r) => r.path.endsWith('/messages/stream')),
      'POSTs',
    ).to.have.length(1);
  });

  it('Stop ends a turn the service never answers, and the text stays', async () => {
    const key = await createKey({ paceMs: 0, holdStream: true });
    const el = await mount({ 'publishable-key': key });
    input(el).value = 'Silent?';
    input(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => $(el, '[part="stop-button"]'));
    ($(el, '[part="stop-button"]') as HTMLButtonElement).click();
    await until(() => el.status === 'idle');
    expect($(el, '[part="stop-button"]')).to.equal(null);
  });

  it('a bidi override before a link cannot reorder what the link shows', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Pay at \u202e[elpmaxe.knab](https://evil.example) now.' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Where do I pay?');
    const link = $(el, '.message.agent:not(.welcome) [part="text"] a')!;
    expect(getComputedStyle(link).unicodeBidi).to.equal('isolate');
    expect(link.textContent).to.equal('elpmaxe.knab (evil.example)');
  });

  it('a host strings function that throws costs that text, not the widget', async () => {
    // 60 s is beyond what a turn waits out by itself: the notice shows the wait.
    const key = await createKey({ paceMs: 0, fail: [{ status: 429, retryAfter: 60, path: '/messages/stream' }] });
    const el = await mount(
      { 'publishable-key': key },
      {
        strings: {
          errorRateLimited: () => {
            throw new Error('host bug');
          },
        },
      },
    );
    await sendByUser(el, 'Too fast?');
    expect($(el, '[part="error"]')!.textContent).to.contain('Try again in');
  });

  it('announces a bounded summary of a long reply, and nothing after New conversation', async () => {
    const long = 'This reply goes on and on. '.repeat(40_000); // ~1 MB
    const key = await createKey({ paceMs: 0, chunkChars: 100_000, replies: [{ text: long }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Long one');
    const region = $(el, '.announcer')!;
    expect(region.textContent!.length).to.be.within(50, 500);
    expect(region.textContent).to.contain('…');
    ($(el, '[part="new-button"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(region.textContent!.trim()).to.equal('');
  });

  it('Retry-After values that are huge, far off or unreadable never print absurd waits', async () => {
    for (const retryAfter of [10 ** 12, 200_000]) {
      const key = await createKey({ paceMs: 0, fail: [{ status: 429, retryAfter, path: '/messages/stream' }] });
      const el = await mount({ 'publishable-key': key });
      await sendByUser(el, 'Too fast?');
      const text = $(el, '[part="error"]')!.textContent!;
      expect(text, String(retryAfter)).not.to.match(/Infinity|NaN|\d{4,}/);
      unmountAll();
    }
  });
});

describe('<agent-chat> robustness: cards', () => {
  afterEach(unmountAll);

  const real = (title: string, index?: number) => ({
    json_data: { entity: { title, price: 10 } },
    ...(index === undefined ? {} : { index }),
  });

  it('cards that are not objects are left out; the real ones render, every time', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [{ text: 'Cards', cards: [null, 7, 'card', [], real('Real one', 1), true, real('Real two', 0)] }, { text: NEXT }],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Cards please');
    expect($$(el, '[part~="card-title"]').map((t) => t.textContent!.trim())).to.deep.equal(['Real two', 'Real one']);
    expect($$(el, '[part~="card"]')).to.have.length(2);
    await stillWorks(el);
  });

  it('a cardRenderer that throws, returns nonsense or something that cannot be inserted: the built-in card instead', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [{ text: 'Cards', cards: [real('A', 0), real('B', 1), real('C', 2)] }, { text: NEXT }],
    });
    const { warnings, uncaught } = await watchConsole(async () => {
      const el = await mount({ 'publishable-key': key });
      el.cardRenderer = (card) => {
        const title = String(card.json_data.entity.title);
        if (title === 'A') throw new Error('host bug');
        if (title === 'B') return 42 as unknown as null;
        return el as unknown as HTMLElement; // an ancestor of where it would go
      };
      await sendByUser(el, 'Cards please');
      expect($$(el, '[part~="card-title"]').map((t) => t.textContent!.trim())).to.deep.equal(['A', 'B', 'C']);
      await stillWorks(el);
    });
    expect(uncaught).to.deep.equal([]);
    expect(warnings.filter((w) => w.includes('cardRenderer'))).to.have.length(1);
  });

  it('a cardRenderer that is not a function is reported once and ignored', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Cards', cards: [real('A')] }, { text: NEXT }] });
    const { warnings } = await watchConsole(async () => {
      const el = await mount({ 'publishable-key': key }, { cardRenderer: 'renderCard' as never });
      await sendByUser(el, 'Cards please');
      expect($(el, '[part~="card-title"]')!.textContent!.trim()).to.equal('A');
      await stillWorks(el);
    });
    expect(warnings.filter((w) => w.includes('cardRenderer must be a function'))).to.have.length(1);
  });

  it('a host template renders in place of the built-in card', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Cards', cards: [real('A')] }] });
    const el = await mount(
      { 'publishable-key': key },
      { cardRenderer: (card) => html`<p class="mine">${String(card.json_data.entity.title)}</p>` },
    );
    await sendByUser(el, 'Cards please');
    expect($(el, '.cards .mine')!.textContent).to.equal('A');
  });

  it('2,000 cards: a dozen at first, more on request', async () => {
    const cards = Array.from({ length: 2000 }, (_, i) => ({
      json_data: { entity: { title: `Card ${i}`, url: `https://shop.example/${i}` } },
      index: i,
    }));
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Many', cards }, { text: NEXT }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'Everything');
    await until(() => $$(el, '[part~="card"]').length === 12, 'the cards did not show');
    const more = $(el, '[part="cards-more"]')!;
    expect(more.textContent).to.contain('12');
    more.click();
    await el.updateComplete;
    expect($$(el, '[part~="card"]')).to.have.length(24);
    expect(el.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Card 12');
    await stillWorks(el);
  });

  it('an unbroken megabyte of title keeps the card its usual width; prices keep every digit', async () => {
    const cards = [
      { json_data: { entity: { title: 'x'.repeat(1_000_000), price: '19.999', currency: 'USD' } } },
      { json_data: { entity: { title: 'Big', price: '12345678901234567890.5', currency: 'EUR' } } },
    ];
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Wide', cards }] });
    const el = await mount({ 'publishable-key': key, lang: 'en-US' });
    await sendByUser(el, 'Wide card');
    // A render waits at most 3 s for the cards' chunk, then shows them when it comes (a
    // loaded CI machine parsing the megabyte has been that slow once).
    await until(() => $$(el, '[part~="card"]').length === 2, 'the cards did not show');
    const [first, second] = $$(el, '[part~="card"]');
    expect(first!.getBoundingClientRect().width).to.be.below(400);
    expect(first!.querySelector('[part="card-title"]')!.textContent!.length).to.be.below(300);
    expect($$(el, '[part="card-price"]').map((p) => p.textContent)).to.deep.equal(['$19.999', '€12,345,678,901,234,567,890.50']);
    expect(second).not.to.equal(undefined);
  });
});

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

/** An object nested `levels` deep: more than Firefox's JSON.stringify can walk. */
function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('<agent-chat> robustness: settings', () => {
  afterEach(unmountAll);

  it('welcome placeholders read only own keys of agent_variables.static', async () => {
    const key = await createKey({ paceMs: 0, welcome: 'Hi {{name}}{{constructor}}{{toString}}{{__proto__}}{{nested}}{{dyn}}!' });
    const el = await mount({
      'publishable-key': key,
      'agent-variables': JSON.stringify({ static: { name: 'Ada', nested: { a: 1 } }, dynamic: { dyn: 'no' } }),
    });
    expect($(el, '.welcome [part="text"]')!.textContent!.trim()).to.equal('Hi Ada!');
  });

  const BAD: Array<[string, Record<string, string>, Partial<Record<keyof AgentChat, unknown>>, RegExp]> = [
    ['unknown mode', { mode: 'floating' }, {}, /mode "floating" is not one of inline, launcher/],
    ['unknown theme', { theme: 'blue' }, {}, /theme "blue" is not one of/],
    [
      'static that is not an object',
      { 'agent-variables': '{"static": 5, "dynamic": {"a": 1}}' },
      {},
      /agent-variables.static must be an object/,
    ],
    ['dynamic that is not an object', { 'agent-variables': '{"dynamic": "x"}' }, {}, /agent-variables.dynamic must be an object/],
    ['agentVariables of the wrong type', {}, { agentVariables: 42 }, /agent-variables must be an object/],
    ['agentVariables with a cycle', {}, { agentVariables: { static: cyclic() } }, /cannot be sent as JSON \(a cycle/],
    [
      'agentVariables nested too deep',
      {},
      { agentVariables: { static: deep(300_000) } },
      /cannot be sent as JSON \(nested deeper than 32\)/,
    ],
    ['agentVariables too large', {}, { agentVariables: { static: { blob: 'x'.repeat(100_000) } } }, /larger than 32 KB/],
    ['userId that is a number', {}, { userId: 42 }, /user-id must be a string/],
    ['threadIdAttribute that is an object', {}, { threadIdAttribute: {} }, /thread-id must be a string/],
    ['channels that is an array', {}, { channels: ['sms'] }, /channels must be a string/],
    ['uploadImage that is not a function', {}, { uploadImage: 'upload' }, /uploadImage must be a function/],
    ['strings that is not an object', {}, { strings: 'Hallo' }, /strings must be an object/],
    ['suggestionContext that is a string', {}, { suggestionContext: 'home' }, /suggestionContext must be an object/],
  ];

  for (const [name, attrs, props, warning] of BAD) {
    it(`${name}: warns once, falls back, and the widget works`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: NEXT }] });
      const { warnings, uncaught } = await watchConsole(async () => {
        const el = await mount({ 'publishable-key': key, ...attrs }, props as Partial<AgentChat>);
        el.requestUpdate();
        await el.updateComplete;
        expect($(el, '[part="input"]'), 'the composer is there').not.to.equal(null);
        await stillWorks(el);
        expect($(el, '[part="attach-button"]')).to.equal(null);
      });
      expect(uncaught).to.deep.equal([]);
      expect(
        warnings.filter((w) => warning.test(w)),
        warnings.join('\n'),
      ).to.have.length(1);
    });
  }

  it('a base-url still missing after the moment a framework may take to set it is said then, not at once', async () => {
    let restoreClock = () => {};
    const { warnings } = await watchConsole(async () => {
      try {
        const el = element({ 'publishable-key': 'pk_demo_shop' });
        el.removeAttribute('base-url');
        document.body.append(el);
        await el.updateComplete;
        expect($(el, '[part="error"]'), 'nothing said yet').to.equal(null);
        // The moment is over (the page's clock moved on): what the element's timer then does.
        restoreClock = advancePageClock(3001);
        (el as unknown as { __applyConfig(): void }).__applyConfig();
        el.requestUpdate();
        await el.updateComplete;
        expect($(el, '[part="error"]')?.textContent ?? '').to.match(/not configured correctly|unavailable/);
        el.remove();
      } finally {
        restoreClock();
      }
    });
    expect(warnings.filter((w) => /base-url is required/.test(w))).to.have.length(1);
  });

  it('a baseUrl of the wrong type is reported, not thrown', async () => {
    const { warnings, uncaught } = await watchConsole(async () => {
      const el = await mount({}, { baseUrl: 42 as unknown as string }, { ready: false });
      await el.updateComplete;
      expect($(el, '[part="error"]')).not.to.equal(null);
    });
    expect(uncaught).to.deep.equal([]);
    expect(warnings.some((w) => /base-url must be a string/.test(w))).to.equal(true);
  });

  for (const url of ['javascript:alert(1)', 'data:text/plain,hi', 'http://agents.example']) {
    it(`base-url="${url}": said once, no request made, the visitor told the chat is unavailable`, async () => {
      const requests: string[] = [];
      const observer = new PerformanceObserver((list) => requests.push(...list.getEntries().map((e) => e.name)));
      observer.observe({ type: 'resource', buffered: false });
      const { warnings, uncaught } = await watchConsole(async () => {
        const el = await mount({ 'base-url': url, 'publishable-key': 'pk_demo_shop' }, {}, { ready: false });
        await el.updateComplete;
        await el.send('anyone there?');
        await el.updateComplete;
        expect($(el, '[part="error"]')?.textContent ?? '').to.match(/not configured correctly|unavailable/);
      });
      observer.disconnect();
      expect(uncaught).to.deep.equal([]);
      expect(
        warnings.filter((w) => /must be an https address/.test(w)),
        warnings.join('\n'),
      ).to.have.length(1);
      expect(requests.filter((name) => /messaging|auth\/token/.test(name))).to.deep.equal([]);
    });
  }

  it('lang="constructor" shows English, not a prototype', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: NEXT }] });
    const el = await mount({ 'publishable-key': key, lang: 'constructor' });
    expect(input(el).getAttribute('aria-label'))
      .to.be.a('string')
      .and.not.to.match(/function|native code/);
    expect($(el, '[part="send-button"]')!.getAttribute('aria-label')).to.equal('Send');
    await stillWorks(el);
  });

  it('agent_variables parts that are not objects are not sent', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: NEXT }] });
    const el = await mount({ 'publishable-key': key, 'agent-variables': '{"static": [1], "dynamic": {"page": "home"}}' });
    await stillWorks(el);
    const sent = (await keyStats(key)).requests.find((r) => r.path.endsWith('/messages/stream'))!.body as Record<string, unknown>;
    expect(sent.agent_variables).to.deep.equal({ dynamic: { page: 'home' } });
  });
});
