import { expect, oneEvent } from '@open-wc/testing';
import type { Card } from '../../src/client/types.js';
import { createKey, keyStats } from '../support/server.js';
import { $, $$, agentTexts, collect, input, mount, sendByUser, type, unmountAll, until } from '../support/element.js';

const card = (index: number, title: string, recommended = false): Card => ({
  index,
  is_recommended: recommended,
  rendered_jsx: '<Card onClick={() => alert(1)} />',
  json_data: {
    entity: {
      title,
      price: 129.5,
      currency: 'EUR',
      url: `https://shop.example/${index}`,
      image_url: `https://img.example/${index}.jpg`,
      weight: '280 g',
    },
    sub_entities: [{ name: 'Sizes', items: [{ size: '42' }, { size: '43' }] }],
  },
});

describe('<agent-chat> conversation', () => {
  afterEach(unmountAll);

  it('shows the welcome message with placeholders filled, and starter suggestions', async () => {
    const key = await createKey({ welcome: 'Hello **{{name}}**, how can I help?', suggestions: ['Track my order', 'Returns'] });
    const el = await mount({ 'publishable-key': key, 'agent-variables': '{"static": {"name": "Ada"}}' });
    const welcome = $(el, '[part~="welcome"] [part="text"]')!;
    expect(welcome.textContent!.trim()).to.equal('Hello Ada, how can I help?');
    expect(welcome.querySelector('strong')!.textContent).to.equal('Ada');
    expect($$(el, '[part="suggestion"]').map((b) => b.textContent!.trim())).to.deep.equal(['Track my order', 'Returns']);
  });

  it('streams a reply: typing indicator first, text growing, then the final message', async () => {
    const key = await createKey({ paceMs: 30, replies: [{ text: 'One **two** three four five six', suggestions: ['More'] }] });
    const el = await mount({ 'publishable-key': key });
    const sends = collect<{ text: string; threadId: string | null }>(el, 'agent-chat-send');
    const messages = collect<{ message: { text: string }; threadId: string }>(el, 'agent-chat-message');
    const threads = collect<{ threadId: string; reason: string }>(el, 'agent-chat-thread');

    await type(el, 'Hello there');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => $(el, '[part="typing"]'), 'typing indicator');
    await until(() => el.status === 'streaming' && agentTexts(el)[0], 'first tokens');
    const partial = agentTexts(el)[0]!;
    expect($(el, '.message.agent[aria-busy="true"]')).to.exist;
    expect($(el, '[part="stop-button"]')).to.exist;
    await until(() => el.status === 'idle', 'turn end');
    await el.updateComplete;

    expect(partial.length).to.be.lessThan('One two three four five six'.length);
    expect(agentTexts(el)).to.deep.equal(['One two three four five six']);
    expect($(el, '.message.agent:not(.welcome) strong')!.textContent).to.equal('two');
    expect($(el, '.message.agent[aria-busy="true"]')).to.be.null;
    expect($(el, '[part="typing"]')).to.be.null;
    expect(sends).to.deep.equal([{ text: 'Hello there', threadId: null, imageUrl: null }]);
    expect(messages).to.have.length(1);
    expect(messages[0]!.message.text).to.equal('One **two** three four five six');
    expect(threads).to.have.length(1);
    expect(threads[0]!.reason).to.equal('created');
    expect(messages[0]!.threadId).to.equal(threads[0]!.threadId);
    expect(el.threadId).to.equal(threads[0]!.threadId);
    expect(input(el).value).to.equal('');
    // One polite announcement for the whole reply, not one per token.
    expect($(el, '[role="status"][aria-live="polite"]')!.textContent).to.contain('One two three four five six');
  });

  it('keeps the user message and continues the same thread on the next turn', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'First' }, { text: 'Second' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'one');
    const thread = el.threadId;
    await sendByUser(el, 'two');
    expect(el.threadId).to.equal(thread);
    expect($$(el, '.message.user [part="text"]').map((n) => n.textContent!.trim())).to.deep.equal(['one', 'two']);
    expect(agentTexts(el)).to.deep.equal(['First', 'Second']);
    const stats = await keyStats(key);
    const streamBodies = stats.requests.filter((r) => r.path.endsWith('/messages/stream')).map((r) => r.body as Record<string, unknown>);
    expect(streamBodies[1]!.thread_id).to.equal(thread);
    expect(streamBodies.every((b) => !('agent_id' in b))).to.be.true;
  });

  it('stops a streaming reply and keeps what arrived', async () => {
    const key = await createKey({ paceMs: 60, replies: [{ text: 'a b c d e f g h i j k l m n o p' }] });
    const el = await mount({ 'publishable-key': key });
    await type(el, 'go');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => agentTexts(el)[0], 'tokens');
    ($(el, '[part="stop-button"]') as HTMLButtonElement).click();
    await until(() => el.status === 'idle');
    await el.updateComplete;
    const text = agentTexts(el)[0]!;
    expect(text.length).to.be.within(1, 30);
    expect($(el, '.message.agent.stopped [part="meta"]')).to.exist;
    expect($(el, '[part="send-button"]')).to.exist;
  });

  it('renders cards ordered by index with one visible Recommended badge, as text', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [{ text: 'Here you go', cards: [card(2, 'Third'), card(0, '<b>First</b>'), card(1, 'Second', true)] }],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'shoes');
    const cards = $$(el, '[part~="card"]');
    expect(cards.map((c) => c.querySelector('[part="card-title"]')!.textContent!.trim())).to.deep.equal([
      '<b>First</b>',
      'Second',
      'Third',
    ]);
    expect(cards[0]!.querySelector('b')).to.be.null;
    const recommended = $$(el, '[part~="card-recommended"]');
    expect(recommended).to.have.length(1);
    expect(recommended[0]!.textContent).to.contain('Recommended');
    const image = cards[0]!.querySelector('img')!;
    expect(image.getAttribute('loading')).to.equal('lazy');
    expect(image.alt).to.equal('<b>First</b>');
    expect(cards[0]!.querySelector('[part="card-price"]')!.textContent).to.match(/129[.,]50/);
    expect(cards[0]!.querySelector('[part="card-variants"]')!.textContent).to.contain('42');
    expect(el.shadowRoot!.innerHTML).not.to.contain('alert(1)');
  });

  it('fires a cancelable agent-chat-card-click with the card and its URL', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One card', cards: [card(0, 'Only')] }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'shoes');
    const clicks: Array<{ card: Card; url: string }> = [];
    el.addEventListener('agent-chat-card-click', (e) => {
      clicks.push((e as CustomEvent).detail);
      e.preventDefault();
    });
    const link = $(el, '[part~="card"] a[href]') as HTMLAnchorElement;
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.contain('noopener');
    link.click();
    expect(clicks).to.have.length(1);
    expect(clicks[0]!.url).to.equal('https://shop.example/0');
    expect(clicks[0]!.card.json_data.entity.title).to.equal('Only');
  });

  it('uses cardRenderer when it returns something, the built-in card otherwise', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Two', cards: [card(0, 'Custom'), card(1, 'Builtin')] }] });
    const el = await mount(
      { 'publishable-key': key },
      {
        cardRenderer: (c: Card) => {
          if (c.json_data.entity.title !== 'Custom') return null;
          const div = document.createElement('div');
          div.className = 'mine';
          div.textContent = 'custom card';
          return div;
        },
      },
    );
    await sendByUser(el, 'x');
    expect($(el, '.mine')!.textContent).to.equal('custom card');
    expect($$(el, '[part~="card"]')).to.have.length(1);
  });

  it('shows follow-up suggestions under the latest reply; a click sends it', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hi', suggestions: ['Tell me more', 'Thanks'] }, { text: 'More' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hello');
    const chips = $$(el, '[part="suggestion"]');
    expect(chips.map((c) => c.textContent!.trim())).to.deep.equal(['Tell me more', 'Thanks']);
    const picked = collect<{ text: string }>(el, 'agent-chat-suggestion');
    chips[0]!.click();
    await until(() => agentTexts(el).length === 2 && el.status === 'idle');
    expect(picked).to.deep.equal([{ text: 'Tell me more' }]);
    expect($$(el, '.message.user [part="text"]').map((n) => n.textContent!.trim())).to.deep.equal(['hello', 'Tell me more']);
  });

  it('lets the host veto a suggestion and a send', async () => {
    const key = await createKey({ paceMs: 0, suggestions: ['Starter'] });
    const el = await mount({ 'publishable-key': key });
    el.addEventListener('agent-chat-suggestion', (e) => e.preventDefault());
    $(el, '[part="suggestion"]')!.click();
    const vetoed = oneEvent(el, 'agent-chat-send');
    el.addEventListener('agent-chat-send', (e) => e.preventDefault());
    await type(el, 'blocked');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    // The send stops where the host said no: at the event, before anything reaches the log.
    expect((await vetoed).defaultPrevented).to.equal(true);
    await el.updateComplete;
    expect(el.messages).to.have.length(0);
    expect((await keyStats(key)).requests.filter((r) => r.path.includes('/messages'))).to.have.length(0);
    expect(input(el).value).to.equal('blocked');
  });

  it('restores the thread after a reload, keeping user and reply apart though they share an id', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Stored **reply**' }] });
    const first = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(first, 'remember me');
    const thread = first.threadId;
    first.remove();

    const threads: Array<{ reason: string; threadId: string }> = [];
    document.addEventListener('agent-chat-thread', (e) => threads.push((e as CustomEvent).detail), { once: true });
    const second = await mount({ 'publishable-key': key, persist: 'local' });
    expect(second.threadId).to.equal(thread);
    expect($$(second, '.message.user [part="text"]').map((n) => n.textContent!.trim())).to.deep.equal(['remember me']);
    expect(agentTexts(second)).to.deep.equal(['Stored reply']);
    expect(second.messages[0]!.id).to.equal(second.messages[1]!.id);
    expect(threads[0]).to.include({ reason: 'restored', threadId: thread });
  });

  it('opens the thread named by thread-id', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'In that thread' }] });
    const first = await mount({ 'publishable-key': key, 'user-id': 'u-thread' });
    await sendByUser(first, 'start');
    const thread = first.threadId!;
    const other = await mount({ 'publishable-key': key, 'user-id': 'u-thread', 'thread-id': thread });
    expect(other.threadId).to.equal(thread);
    expect(agentTexts(other)).to.deep.equal(['In that thread']);
  });

  it('opens another visitor’s thread as an unknown one (issue #45)', async () => {
    const key = await createKey({ paceMs: 0, welcome: 'Hi there', replies: [{ text: 'Only for Ada' }] });
    const ada = await mount({ 'publishable-key': key, 'user-id': 'visitor-ada' });
    await sendByUser(ada, 'my order number is 4411');
    const thread = ada.threadId!;
    const eve = await mount({ 'publishable-key': key, 'user-id': 'visitor-eve', 'thread-id': thread });
    // The service answers her as it would for a thread it never had: gone, start afresh.
    await until(() => eve.threadId === null);
    expect(eve.messages).to.have.length(0);
    expect(eve.shadowRoot!.textContent).not.to.contain('4411');
    const exchanges = (await keyStats(key)).requests.filter((r) => r.path === '/management/v1/auth/token');
    expect(exchanges.map((r) => (r.body as { user_id?: string }).user_id)).to.have.members(['visitor-ada', 'visitor-eve']);
  });

  it('starts a new conversation from the header', async () => {
    const key = await createKey({ paceMs: 0, suggestions: ['Starter'], replies: [{ text: 'Reply' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hello');
    const before = el.threadId;
    const threads = collect<{ reason: string; previousThreadId: string }>(el, 'agent-chat-thread');
    $(el, '[part="new-button"]')!.click();
    await until(() => $(el, '[part="suggestion"]'));
    expect(el.messages).to.have.length(0);
    expect(el.threadId).to.equal(null);
    expect(threads[0]).to.include({ reason: 'reset', previousThreadId: before });
  });

  it('generates an anonymous user id once and keeps it', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'ok' }] });
    const a = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(a, 'one');
    a.remove();
    const b = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(b, 'two');
    const bodies = (await keyStats(key)).requests
      .filter((r) => r.path.endsWith('/stream'))
      .map((r) => (r.body as { user_id: string }).user_id);
    expect(bodies).to.have.length(2);
    expect(bodies[0]).to.match(/^anon_[0-9a-f]{24}$/);
    expect(bodies[1]).to.equal(bodies[0]);
  });

  it('sends the user-id attribute as user_id', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'ok' }] });
    const el = await mount({ 'publishable-key': key, 'user-id': 'customer-42' });
    await sendByUser(el, 'hi');
    const body = (await keyStats(key)).requests.find((r) => r.path.endsWith('/stream'))!.body as { user_id: string };
    expect(body.user_id).to.equal('customer-42');
  });

  it('shows raw HTML from the agent as text', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'before <img src=x onerror="window.__pwned=1"> after' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'x');
    expect(agentTexts(el)[0]).to.equal('before <img src=x onerror="window.__pwned=1"> after');
    expect($(el, '.message.agent img')).to.be.null;
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('works with transport="rest"', async () => {
    const key = await createKey({ replies: [{ text: 'Whole *reply*' }] });
    const el = await mount({ 'publishable-key': key, transport: 'rest' });
    await sendByUser(el, 'hi');
    expect(agentTexts(el)).to.deep.equal(['Whole reply']);
    const paths = (await keyStats(key)).requests.map((r) => r.path);
    expect(paths).to.include('/messaging/v1/messages');
    expect(paths.some((p) => p.endsWith('/stream'))).to.be.false;
  });
});
