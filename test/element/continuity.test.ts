import { expect, oneEvent } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { FaultPlan } from '../../server/src/faults/plan.js';
import { createKey, forgetStorage, keyStats, replied, storageKeyFor, tokenFor } from '../support/server.js';
import { $, $$, element, mount, unmountAll, until } from '../support/element.js';

/**
 * A turn survives the page (docs/protocol.md "A turn survives the page"): the element leaves
 * mid-reply (as a reload or a navigation takes it away) and a new one on the same storage
 * shows the rest of the reply, once, without running the turn again.
 */
const REPLY = Array.from({ length: 24 }, (_, i) => `word${i}`).join(' ');

const streamRequests = async (key: string) => (await keyStats(key)).requests.filter((r) => r.path === '/messaging/v1/messages/stream');
const agentText = (el: AgentChat) => el.messages.filter((m) => m.role === 'agent').map((m) => m.text);

/** Sends `text`, waits for `when` to hold mid-turn, then takes the element away. Returns its thread. */
async function leaveMidTurn(key: string, when: (el: AgentChat) => boolean, attrs: Record<string, string> = {}): Promise<string | null> {
  const el = await mount({ 'publishable-key': key, persist: 'local', ...attrs });
  void el.send('tell me everything');
  await until(() => when(el));
  const threadId = el.threadId;
  el.remove();
  return threadId;
}

async function comeBack(key: string, attrs: Record<string, string> = {}): Promise<AgentChat> {
  return mount({ 'publishable-key': key, persist: 'local', ...attrs });
}

describe('<agent-chat> continuity: a turn survives the page', function () {
  // A test leaves a page mid-turn, comes back and gives the reply 8 s to end: mocha's 10 s
  // for the whole would cut a slow run short of the wait's own message.
  this.timeout(30_000);
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  const plan: FaultPlan = { paceMs: 40, replies: [{ text: REPLY }] };

  for (const [name, when] of [
    ['after the thread frame, before the first token', (el: AgentChat) => el.threadId !== null],
    ['mid-reply', (el: AgentChat) => (agentText(el)[0]?.length ?? 0) > 40],
  ] as const) {
    it(`resumes ${name}: the whole reply, once, the turn run once`, async () => {
      const key = await createKey(plan);
      await leaveMidTurn(key, when);
      const again = await comeBack(key);
      // The question shows at once, with whatever of the reply had arrived.
      await until(() => again.messages[0]?.text === 'tell me everything', 'the question');
      await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done', 'the reply to end', 8000);
      expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
      const stats = await keyStats(key);
      expect(stats.turnsRun).to.equal(1);
      const streams = await streamRequests(key);
      expect(streams.length).to.equal(2);
      expect(streams[1]!.lastEventId, 'resumed, not sent again').to.not.equal(null);
      // Nothing is left to resume: a third page view only loads the transcript.
      again.remove();
      const third = await comeBack(key);
      expect(third.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
      expect((await streamRequests(key)).length).to.equal(2);
    });
  }

  it('after the last token the resume delivers the final message', async () => {
    const key = await createKey({ paceMs: 60, replies: [{ text: 'one two three' }] });
    await leaveMidTurn(key, (el) => agentText(el)[0] === 'one two three');
    const again = await comeBack(key);
    await until(() => again.messages.at(-1)?.state === 'done' && again.status === 'idle', 'the reply to end', 8000);
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', 'one two three']);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('a turn that finished meanwhile: the resume finds it over, it shows once, nothing runs again', async () => {
    const key = await createKey({ paceMs: 15, replies: [{ text: 'short answer here' }] });
    const threadId = await leaveMidTurn(key, (el) => el.threadId !== null);
    // The service finishes the turn on its own.
    await until(() => replied(key, threadId!, 'short answer here'), 'the turn to end on the service');
    const again = await comeBack(key);
    await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done');
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', 'short answer here']);
    const streams = await streamRequests(key);
    expect(streams.map((r) => r.lastEventId !== null)).to.deep.equal([false, true]);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  describe('recovery knows the turn by identity, not by its text', () => {
    const LONG = Array.from({ length: 40 }, (_, i) => `part${i}`).join(' ');

    it('the same question asked before, and the marker gone from the transcript (ids re-issued): resumed, not taken as over', async () => {
      const key = await createKey({ paceMs: 30, replies: [{ text: 'the first answer' }, { text: LONG }] });
      const el = await mount({ 'publishable-key': key, persist: 'local' });
      await el.send('same question');
      void el.send('same question');
      await until(() => (agentText(el)[1]?.length ?? 0) > 20, 'the second reply under way');
      el.remove();
      // What the service's ids were when the turn began are not what it shows now.
      const storageKey = storageKeyFor(key);
      const state = JSON.parse(localStorage.getItem(storageKey)!) as { turn: { after: string } };
      state.turn.after = 'f'.repeat(24);
      localStorage.setItem(storageKey, JSON.stringify(state));
      const again = await comeBack(key);
      await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done', 'the reply to end', 8000);
      expect(again.messages.map((m) => m.text)).to.deep.equal(['same question', 'the first answer', 'same question', LONG]);
      expect((await keyStats(key)).turnsRun).to.equal(2);
    });

    it('another client asked the same in the thread meanwhile: this turn is resumed, both show', async () => {
      const key = await createKey({
        paceMs: 30,
        replies: [{ text: 'the first answer' }, { text: 'the other client’s answer' }, { text: LONG }],
      });
      const el = await mount({ 'publishable-key': key, persist: 'local', 'user-id': 'u-two-devices' });
      await el.send('first question');
      const threadId = el.threadId!;
      // Another client (another device of the visitor) asks the same in the same thread; this page does not know.
      const token = await tokenFor(key, 'u-two-devices');
      const other = await fetch('/messaging/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ text: 'same question', user_id: 'u-two-devices', thread_id: threadId }),
      });
      expect(other.status).to.equal(200);
      void el.send('same question');
      await until(() => (agentText(el)[1]?.length ?? 0) > 20, 'the reply under way');
      el.remove();
      const again = await comeBack(key, { 'user-id': 'u-two-devices' });
      await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done', 'the reply to end', 8000);
      expect(again.messages.map((m) => m.text)).to.deep.equal([
        'first question',
        'the first answer',
        'same question',
        'the other client’s answer',
        'same question',
        LONG,
      ]);
    });
  });

  it('a service that records the question at once does not show it twice', async () => {
    const key = await createKey({ ...plan, transcriptAt: 'start' });
    await leaveMidTurn(key, (el) => (agentText(el)[0]?.length ?? 0) > 20);
    const again = await comeBack(key);
    await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done', 'the reply to end', 8000);
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
  });

  it('a turn the service can no longer resume is awaited in the transcript', async () => {
    const key = await createKey({ ...plan, paceMs: 20, unresumable: true });
    await leaveMidTurn(key, (el) => (agentText(el)[0]?.length ?? 0) > 10);
    const again = await comeBack(key);
    const message = oneEvent(again, 'agent-chat-message');
    await message;
    await until(() => again.status === 'idle');
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('the REST transport has no stream to resume: the reply comes from the transcript', async () => {
    const key = await createKey({ replies: [{ text: 'a considered answer' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local', transport: 'rest' });
    await el.send('first');
    void el.send('second question');
    // Gone once the request reached the service (the turn runs there whoever listens).
    const posted = async () => (await keyStats(key)).requests.filter((r) => r.path === '/messaging/v1/messages').length === 2;
    await until(posted, 'the second question did not reach the service');
    el.remove();
    const again = await comeBack(key, { transport: 'rest' });
    await until(() => again.messages.length === 4 && again.status === 'idle', 'the reply to end', 8000);
    expect(again.messages.map((m) => m.text)).to.deep.equal(['first', 'a considered answer', 'second question', 'a considered answer']);
    expect((await keyStats(key)).turnsRun).to.equal(2);
  });

  it('the WebSocket transport resumes as SSE does', async () => {
    const key = await createKey(plan);
    await leaveMidTurn(key, (el) => (agentText(el)[0]?.length ?? 0) > 30, { transport: 'websocket' });
    const again = await comeBack(key, { transport: 'websocket' });
    await until(
      () => again.status === 'idle' && again.messages.at(-1)?.state === 'done',
      () =>
        `the reply to end: ${JSON.stringify({ status: again.status, messages: again.messages.map((m) => [m.text.slice(0, 20), m.state]) })}`,
      8000,
    );
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('a launcher with a turn running loads at once and shows the dot when the reply lands', async () => {
    const key = await createKey(plan);
    await leaveMidTurn(key, (el) => (agentText(el)[0]?.length ?? 0) > 20, { mode: 'launcher', open: '' });
    // A page that goes lets go of its turn's lock at once; a widget taken off a page that
    // stays (this test page) lets go as its stream's abort settles, later under load. Until
    // then a launcher, which loads at once, takes the turn for another tab's, whose storage
    // events this same page never hears.
    await until(async () => !(await navigator.locks.query()).held?.length, 'the widget taken off still holds its turn');
    const again = element({ 'publishable-key': key, mode: 'launcher', persist: 'local' });
    const landed = oneEvent(again, 'agent-chat-message');
    document.body.append(again);
    await landed;
    await again.updateComplete;
    expect(!!$(again, '.unread'), 'the unread dot').to.equal(true);
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
    again.remove();
  });

  it('persist="session" resumes within the tab; persist="none" keeps nothing to resume', async () => {
    const key = await createKey(plan);
    await leaveMidTurn(key, (el) => (agentText(el)[0]?.length ?? 0) > 20, { persist: 'session' });
    const again = await comeBack(key, { persist: 'session' });
    await until(() => again.status === 'idle' && again.messages.at(-1)?.state === 'done', 'the reply to end', 8000);
    expect(again.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);

    const other = await createKey(plan);
    await leaveMidTurn(other, (el) => (agentText(el)[0]?.length ?? 0) > 20, { persist: 'none' });
    const fresh = await comeBack(other, { persist: 'none' });
    // A stored turn would keep the status `connecting` until recovery decided about it.
    await until(() => fresh.status === 'idle');
    expect(fresh.messages).to.have.length(0);
    expect((await streamRequests(other)).length, 'nothing resumed').to.equal(1);
  });

  it('Stop ends the turn here: nothing is resumed on the next page', async () => {
    const key = await createKey(plan);
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    void el.send('tell me everything');
    await until(() => (agentText(el)[0]?.length ?? 0) > 10);
    $(el, '[part="stop-button"]')!.click();
    await until(() => el.status === 'idle');
    el.remove();
    const again = await comeBack(key);
    // A stored turn would keep the status `connecting` until recovery decided about it.
    await until(() => again.status === 'idle');
    expect((await streamRequests(key)).length).to.equal(1);
  });

  it('a stored turn that cannot be read is ignored', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    const storageKey = storageKeyFor(key);
    el.remove();
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}');
    localStorage.setItem(storageKey, JSON.stringify({ ...stored, turn: { body: { text: 5 }, lastSeq: -1 } }));
    const again = await comeBack(key);
    expect(again.status).to.equal('idle');
    expect(again.messages).to.have.length(0);
  });
});

describe('<agent-chat> continuity: a lost thread', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('a stored thread the service does not know is dropped with a short notice', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Fresh start.' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local', 'thread-id': '0123456789abcdef01234567' });
    await until(() => !!$(el, '[part="error"]'));
    expect($(el, '[part="error"]')!.textContent).to.contain('no longer available');
    expect(el.threadId).to.equal(null);
    await el.send('hello again');
    await until(() => el.status === 'idle' && el.messages.length === 2);
    expect(el.threadId).to.match(/^[0-9a-f]{24}$/);
    expect(el.threadId).to.not.equal('0123456789abcdef01234567');
  });

  it('a message sent into a thread the service deleted starts a new conversation', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [{ text: 'Answer.' }],
      fail: [{ status: 404, code: 'not_found', path: '/messages/stream', times: 1 }],
    });
    const el = await mount({ 'publishable-key': key, persist: 'local', transport: 'rest' });
    await el.send('first');
    const first = el.threadId;
    el.setAttribute('transport', 'sse');
    await el.updateComplete;
    await el.send('second');
    await until(
      () => el.status === 'idle' && el.threadId !== first && el.messages.at(-1)?.text === 'Answer.',
      JSON.stringify([el.status, el.threadId, first, el.messages.map((m) => m.text), $(el, '[part="error"]')?.textContent]),
    );
    expect(el.messages.map((m) => m.text)).to.deep.equal(['second', 'Answer.']);
    expect($(el, '[part="error"]')!.textContent).to.contain('no longer available');
  });
});

describe('<agent-chat> continuity: hand-off', () => {
  afterEach(() => unmountAll());

  it('shows the thread the service bound to the channel', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp' });
    expect(el.threadId).to.equal(null);
    $(el, '[part="channel-button"]')!.click();
    await until(() => !!$(el, '#channel-phone'));
    const phone = $(el, '#channel-phone') as HTMLInputElement;
    phone.value = '+14155550123';
    phone.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    const handed = oneEvent(el, 'agent-chat-channel');
    ($(el, '[part="channel-form"] button[type="submit"]') as HTMLButtonElement).click();
    const { detail } = await handed;
    await until(() => el.threadId === detail.threadId && el.messages.length === 1);
    expect(el.messages[0]!.text).to.contain('WhatsApp');
    expect($$(el, '[part~="message"]').length).to.be.greaterThan(0);
  });
});

describe('<agent-chat> continuity: real page loads', () => {
  let frame: HTMLIFrameElement | null = null;
  afterEach(() => {
    frame?.remove();
    frame = null;
    forgetStorage();
  });

  /** A page of the host site with the widget on it, in a same-origin frame (shares storage). */
  const page = (key: string, title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>
    <agent-chat base-url="${location.origin}" publishable-key="${key}" persist="local"></agent-chat>
    <script type="module">import '/src/agent-chat.ts';</script>`;

  async function widgetIn(f: HTMLIFrameElement, title: string, after?: Document): Promise<AgentChat> {
    let el: AgentChat | null = null;
    await until(() => {
      const doc = f.contentDocument;
      if (doc?.title !== title || doc === after) return false;
      el = doc.querySelector('agent-chat') as AgentChat | null;
      return !!el && !!el.shadowRoot && el.status !== undefined;
    }, 'the widget on the page');
    return el!;
  }

  for (const how of ['reload', 'navigation'] as const) {
    it(`a ${how} mid-reply ends with the whole reply, once`, async () => {
      const key = await createKey({ paceMs: 40, replies: [{ text: REPLY }] });
      frame = document.createElement('iframe');
      frame.srcdoc = page(key, 'Shoes');
      document.body.append(frame);
      const first = await widgetIn(frame, 'Shoes');
      await until(() => first.status === 'idle');
      void first.send('tell me everything');
      await until(() => (first.messages.find((m) => m.role === 'agent')?.text.length ?? 0) > 30);
      const before = frame.contentDocument!;
      if (how === 'reload') frame.contentWindow!.location.reload();
      else frame.srcdoc = page(key, 'Jackets');
      const second = await widgetIn(frame, how === 'reload' ? 'Shoes' : 'Jackets', before);
      await until(() => second.messages.at(-1)?.state === 'done' && second.status === 'idle', 'the reply to end', 8000);
      expect(second.messages.map((m) => m.text)).to.deep.equal(['tell me everything', REPLY]);
      expect((await keyStats(key)).turnsRun).to.equal(1);
    });
  }
});
