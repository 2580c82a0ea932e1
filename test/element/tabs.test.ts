import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey, forgetStorage, keyStats, storageKeyFor } from '../support/server.js';
import { until } from '../support/element.js';
import { type Tab, agentText, closeTabs, storageWrites, streams, tab, texts } from '../support/tabs.js';

/**
 * Tabs share one conversation (`persist="local"`, docs/protocol.md "Tabs share one
 * conversation"); each tab is a frame of its own (test/support/tabs.ts).
 */
const field = (el: AgentChat) => el.shadowRoot?.querySelector('[part="input"]') as HTMLTextAreaElement | null as HTMLTextAreaElement;

/** Types into a tab's field as its reader does. */
async function typeIn(el: AgentChat, text: string): Promise<void> {
  field(el).value = text;
  field(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

const REPLY = Array.from({ length: 30 }, (_, i) => `token${i}`).join(' ');

describe('<agent-chat> tabs share one conversation', function () {
  // Every tab is a page of its own that loads the widget's modules: slower than one element.
  // A takeover waits out 6 s of silence and a claim's 0.5 s: under CI load, past 20 s once.
  this.timeout(40_000);
  afterEach(() => {
    closeTabs();
    forgetStorage();
  });

  it('a turn sent in one tab streams live in the other; one tab talks to the service', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
    const a = await tab(key);
    const b = await tab(key);
    void a.el.send('hello from A');
    await until(() => texts(b.el)[0] === 'hello from A', 'the question in B');
    // Tokens arrive in B while A is still streaming.
    await until(() => agentText(b.el).length > 20 && a.el.status === 'streaming', 'tokens in B mid-turn');
    await until(() => a.el.status === 'idle' && b.el.status === 'idle', 'both done', 8000);
    expect(texts(b.el)).to.deep.equal(['hello from A', REPLY]);
    expect(texts(a.el)).to.deep.equal(['hello from A', REPLY]);
    expect(b.el.threadId).to.equal(a.el.threadId);
    expect((await streams(key)).length).to.equal(1);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('both tabs send in turn into one thread; each keeps its own draft', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'one' }, { text: 'two' }] });
    const a = await tab(key);
    const b = await tab(key);
    const heard = storageWrites(b.frame, key);
    await typeIn(b.el, 'B typing');
    await typeIn(a.el, 'from A');
    // B hears A's draft written, and its field keeps what its reader typed.
    await until(() => heard.count > 0, 'B hears A’s write');
    await b.el.updateComplete;
    expect(field(b.el).value).to.equal('B typing');
    (a.el.shadowRoot!.querySelector('[part="send-button"]') as HTMLButtonElement).click();
    await until(() => texts(b.el).length === 2 && b.el.status === 'idle', 'A’s turn in B');
    expect(field(a.el).value, 'sent: cleared in A').to.equal('');
    expect(field(b.el).value, 'kept in B').to.equal('B typing');
    expect(b.el.threadId, 'B shows A’s thread').to.equal(a.el.threadId);
    // A reload of B shows what its reader typed: test/unit/saved.test.ts, as these frames
    // share one sessionStorage where tabs have one each.
    await typeIn(b.el, 'from B');
    (b.el.shadowRoot!.querySelector('[part="send-button"]') as HTMLButtonElement).click();
    await until(
      () => texts(a.el).length === 4 && a.el.status === 'idle',
      () => `B’s turn in A: ${JSON.stringify([texts(a.el), a.el.status, texts(b.el)])}`,
    );
    expect(texts(a.el)).to.deep.equal(['from A', 'one', 'from B', 'two']);
    expect(texts(b.el)).to.deep.equal(['from A', 'one', 'from B', 'two']);
    expect(a.el.threadId).to.equal(b.el.threadId);
  });

  it('two tabs that send at the same moment lose no question', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'one' }, { text: 'two' }] });
    const a = await tab(key);
    const b = await tab(key);
    await typeIn(a.el, 'from A');
    await typeIn(b.el, 'from B');
    for (const t of [a, b]) (t.el.shadowRoot!.querySelector('[part="send-button"]') as HTMLButtonElement).click();
    await until(() => a.el.status === 'idle' && b.el.status === 'idle' && texts(a.el).length >= 2, 'both settled');
    await a.el.updateComplete;
    await b.el.updateComplete;
    // Each question was asked, or is back in its own field with the reason said there.
    for (const [t, text] of [
      [a, 'from A'],
      [b, 'from B'],
    ] as const) {
      const asked = texts(a.el).includes(text);
      const back = field(t.el).value === text && !!t.el.shadowRoot!.querySelector('[part="error"]');
      expect(
        asked || back,
        `${text}: ${JSON.stringify([texts(a.el), texts(t.el), field(t.el).value, t.el.shadowRoot!.querySelector('[part="error"]')?.textContent])}`,
      ).to.equal(true);
    }
  });

  it('closing the streaming tab mid-turn: another tab resumes it, the turn runs once', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
    const a = await tab(key);
    const b = await tab(key);
    const c = await tab(key);
    void a.el.send('keep going');
    await until(() => agentText(b.el).length > 30 && agentText(c.el).length > 30, 'mirrored in B and C');
    a.frame.remove();
    await until(
      () => texts(b.el)[1] === REPLY && texts(c.el)[1] === REPLY && b.el.status === 'idle' && c.el.status === 'idle',
      'the whole reply in B and C',
      8000,
    );
    const requests = await streams(key);
    expect(requests.filter((r) => r.lastEventId !== null).length, 'exactly one tab resumed').to.equal(1);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('without Web Locks, a tab silent for a few seconds is taken over all the same, by one tab', async () => {
    const key = await createKey({ paceMs: 60, replies: [{ text: REPLY }] });
    const a = await tab(key, {}, { locks: false });
    const b = await tab(key, {}, { locks: false });
    const c = await tab(key, {}, { locks: false });
    void a.el.send('keep going');
    await until(() => agentText(b.el).length > 20 && agentText(c.el).length > 20, 'mirrored in B and C');
    a.frame.remove();
    const done = (el: AgentChat) => texts(el)[1] === REPLY && el.status === 'idle';
    await until(() => done(b.el) && done(c.el), 'the whole reply in B and C', 14_000);
    expect((await streams(key)).filter((r) => r.lastEventId !== null).length).to.equal(1);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('a new conversation in one tab starts one in the other; the history keeps both threads', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'first answer' }, { text: 'second answer' }] });
    const a = await tab(key);
    const b = await tab(key);
    await a.el.send('first thread');
    await until(() => texts(b.el)[1] === 'first answer' && b.el.status === 'idle', `in B: ${JSON.stringify([texts(b.el), b.el.status])}`);
    const first = a.el.threadId;
    const reasons: string[] = [];
    b.el.addEventListener('agent-chat-thread', (e) => reasons.push((e as CustomEvent<{ reason: string }>).detail.reason));
    a.el.newThread();
    await until(
      () => b.el.threadId === null && b.el.messages.length === 0,
      `B starts over: ${JSON.stringify([b.el.threadId, texts(b.el), b.el.status, a.el.threadId])}`,
    );
    expect(reasons).to.include('reset');
    await b.el.send('second thread');
    // What both tabs show, should this time out (it did once on a loaded CI machine, in Chromium).
    const state = (t: Tab) => [
      t.el.threadId,
      texts(t.el),
      t.el.status,
      t.el.shadowRoot!.querySelector('[part="error"]')?.textContent?.trim(),
    ];
    await until(
      () => a.el.threadId === b.el.threadId && texts(a.el).length === 2 && a.el.status === 'idle',
      () => `A follows B: ${JSON.stringify({ a: state(a), b: state(b) })}`,
    );
    // This test's scope: other test pages of the run write keys of their own.
    const stored = JSON.parse(localStorage.getItem(storageKeyFor(key))!) as { history: Array<{ id: string }> };
    const history = stored.history.map((h) => h.id);
    expect(history).to.include(first).and.to.include(b.el.threadId);
  });

  it('a tab opened mid-turn mirrors it, and shows the question once where the service recorded it at once', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }], transcriptAt: 'start' });
    const a = await tab(key);
    void a.el.send('asked once');
    await until(() => agentText(a.el).length > 20, 'streaming in A');
    const b = await tab(key);
    await until(() => texts(b.el)[1] === REPLY && b.el.status === 'idle', 'the whole reply in B', 8000);
    expect(texts(b.el)).to.deep.equal(['asked once', REPLY]);
    expect((await streams(key)).length).to.equal(1);
  });

  it('what a mirroring tab types is not overwritten by the running turn’s writes', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
    const a = await tab(key);
    const b = await tab(key);
    void a.el.send('long answer please');
    await until(() => agentText(b.el).length > 10, 'mirrored');
    const field = b.el.shadowRoot!.querySelector('[part="input"]') as HTMLTextAreaElement;
    field.value = 'typing meanwhile';
    field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    // Several of A's journal writes reach B meanwhile.
    const writes = storageWrites(b.frame, key);
    await until(() => writes.count >= 3, "A's journal writes heard in B");
    await b.el.updateComplete;
    expect(field.value).to.equal('typing meanwhile');
    await until(() => a.el.status === 'idle' && b.el.status === 'idle', 'done', 8000);
    expect(field.value).to.equal('typing meanwhile');
  });

  it('Stop in a mirroring tab stops the turn in the tab that runs it', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
    const a = await tab(key);
    const b = await tab(key);
    void a.el.send('stop me');
    await until(() => agentText(b.el).length > 10, 'mirrored');
    b.el.shadowRoot!.querySelector<HTMLElement>('[part="stop-button"]')!.click();
    await until(() => a.el.status === 'idle' && b.el.status === 'idle', 'stopped in both');
    expect(a.el.messages.at(-1)?.state).to.equal('stopped');
  });

  it('persist="session" tabs share nothing', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'private' }] });
    const a = await tab(key, { persist: 'session' });
    const b = await tab(key, { persist: 'session' });
    // Frames of one tab share its sessionStorage, so B hears A's writes: and follows none.
    const writes = storageWrites(b.frame, key);
    await a.el.send('only here');
    await until(() => writes.count >= 1, "A's writes heard in B");
    await b.el.updateComplete;
    expect(b.el.messages).to.have.length(0);
    expect(b.el.threadId).to.equal(null);
  });

  it('a launcher opened mid-turn shows the turn another tab is running', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
    const a = await tab(key);
    const b = await tab(key, { mode: 'launcher' });
    void a.el.send('from the inline tab');
    await until(() => agentText(a.el).length > 20, 'streaming in A');
    b.el.open();
    // Opening fetches the panel and the turns chunk in that frame first: on a loaded machine
    // (two browsers, files side by side) that alone took most of the default 8 s.
    await until(() => texts(b.el)[0] === 'from the inline tab' && agentText(b.el).length > 20, 'mirrored in the launcher', 15_000);
    await until(() => texts(b.el)[1] === REPLY && b.el.status === 'idle', 'the whole reply', 15_000);
    expect((await streams(key)).length).to.equal(1);
  });
});
