import { expect, oneEvent } from '@open-wc/testing';
import { createKey, forgetStorage, keyStats } from '../support/server.js';
import { $, element, mount, unmountAll, until } from '../support/element.js';

/** The shell before and around its panel (docs/architecture.md "Shell and panel"). */
describe('<agent-chat> shell', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('an unopened launcher renders its button only and calls no service', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    // A task after its first render: what the shell would fetch or call at load has started.
    await new Promise((resolve) => setTimeout(resolve));
    await el.updateComplete;
    expect($(el, '[part="launcher"]')).to.exist;
    expect($(el, '[part="panel"]')).to.equal(null);
    expect(el.status).to.equal('idle');
    expect((await keyStats(key)).requests).to.have.length(0);
  });

  it('send() on an unopened launcher waits for the panel, then sends; settings set early apply', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Got it.' }] });
    const el = document.createElement('agent-chat');
    el.setAttribute('base-url', location.origin);
    el.setAttribute('persist', 'none');
    el.setAttribute('mode', 'launcher');
    el.setAttribute('publishable-key', key);
    el.strings = { send: 'Go' };
    document.body.append(el);
    const sent = oneEvent(el, 'agent-chat-send');
    const done = oneEvent(el, 'agent-chat-message');
    void el.send('hello early');
    expect((await sent).detail.text).to.equal('hello early');
    await done;
    expect(el.messages.map((m) => m.text)).to.deep.equal(['hello early', 'Got it.']);
    el.open();
    await el.updateComplete;
    expect($(el, '[part="send-button"]')!.getAttribute('aria-label')).to.equal('Go');
    el.remove();
  });

  it('a reply pending or unread in storage loads the conversation at once, and shows the dot', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'First.' }] });
    const first = await mount({ 'publishable-key': key, mode: 'launcher', persist: 'local', open: '' });
    await first.send('hi');
    await until(() => first.messages.length === 2 && first.status === 'idle');
    first.close();
    // A reply that lands while the panel is closed: unread, kept for the next page view.
    (first as unknown as { requestUpdate(): void }).requestUpdate();
    first.dispatchEvent(new CustomEvent('agent-chat-message', { detail: {} }));
    await first.updateComplete;
    expect($(first, '.unread')).to.exist;
    first.remove();

    const before = (await keyStats(key)).requests.length;
    const again = element({ 'publishable-key': key, mode: 'launcher', persist: 'local' });
    const ready = oneEvent(again, 'agent-chat-ready');
    document.body.append(again);
    await ready;
    await again.updateComplete;
    expect($(again, '.unread'), 'the dot survives the reload').to.exist;
    expect(again.messages.map((m) => m.text)).to.deep.equal(['hi', 'First.']);
    expect((await keyStats(key)).requests.length).to.be.greaterThan(before);
    again.open();
    await again.updateComplete;
    expect($(again, '.unread')).to.equal(null);
    again.remove();
  });

  it('reuses an exchanged token on the next page view of the tab; a host token is never stored', async () => {
    const key = await createKey({});
    const exchanges = async () => (await keyStats(key)).requests.filter((r) => r.path === '/management/v1/auth/token').length;
    const first = await mount({ 'publishable-key': key, persist: 'session' });
    expect(await exchanges()).to.equal(1);
    first.remove();
    // The next page view of the tab: a new element, the same scope.
    const second = await mount({ 'publishable-key': key, persist: 'session' });
    expect(await exchanges(), 'no second exchange').to.equal(1);
    expect((await keyStats(key)).requests.length).to.be.greaterThan(1);
    second.remove();
    const stored = Object.keys(sessionStorage).filter((k) => k.startsWith('agent-chat:v1:token:'));
    expect(stored).to.have.length(1);
    sessionStorage.clear();
    const minted = element({ 'access-token': 'host-minted-token', persist: 'session' });
    // The service refuses the made-up token: the load ends in an error, after the token was used.
    const refused = oneEvent(minted, 'agent-chat-error');
    document.body.append(minted);
    await refused;
    minted.remove();
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('agent-chat:v1:token:'))).to.have.length(0);
  });
});
