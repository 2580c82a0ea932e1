import { expect, oneEvent } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, collect, input, mount, type, unmountAll, until } from '../support/element.js';
import { createKey, forgetStorage, keyStats, longThread, storageKeyFor } from '../support/server.js';

/*
 * Enter in the text field while a stored thread loads (a page opened on a `thread-id`, or
 * `persist="local"` restoring the last conversation) does what the element's send() does:
 * the question waits for the load and goes out, or the reader is told why it cannot, and
 * the text stays in the field. The load is held at one of its requests by the page's fetch
 * (the reference server has no knob that slows a transcript), so each press lands at a
 * known moment of the load, whatever the machine's speed.
 */

const REPLY = 'Answered.';
const QUESTION = 'Pressed while it loads';

type Moment = 'token' | 'welcome' | 'transcript' | 'answer';

/** Holds the page's requests that `match` until `release()`; `held` lists those waiting. */
function holdRequests(match: (url: URL) => boolean) {
  const original = window.fetch;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  window.fetch = async function (request: RequestInfo | URL, init?: RequestInit) {
    const url = new URL(request instanceof Request ? request.url : String(request), location.href);
    if (match(url)) {
      held.push(url.pathname);
      await gate;
    }
    return original.call(window, request, init);
  };
  return { held, release, restore: () => void (window.fetch = original) };
}

/** The request each moment holds the load at ('answer': the transcript, let go in the same task as Enter). */
function holdAt(moment: Moment, threadId: string) {
  return holdRequests((url) =>
    moment === 'token'
      ? url.pathname === '/management/v1/auth/token'
      : moment === 'welcome'
        ? url.pathname.endsWith('/welcome-message')
        : url.pathname.endsWith(`/threads/${threadId}/messages`),
  );
}

function pressEnter(el: AgentChat): void {
  input(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
}

/** Lets what the end of a load set off run (microtasks and the render), and no more. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

const transcriptShown = (el: AgentChat) => el.messages.some((m) => m.text === 'question 0');
const asked = (el: AgentChat, text: string) => el.messages.filter((m) => m.role === 'user' && m.text === text).length;

/** A 1×1 PNG, and the host's upload function as the demo page writes it (test/element/attachments.test.ts). */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);
async function uploadToDemo(file: File): Promise<string> {
  const res = await fetch('/__demo/uploads', { method: 'POST', headers: { 'content-type': file.type }, body: file });
  if (!res.ok) throw new Error(`upload ${res.status}`);
  return ((await res.json()) as { url: string }).url;
}

/** A key whose agent answers REPLY, and a thread of one turn ("question 0") of user u-long. */
async function storedThread(plan: Parameters<typeof createKey>[0] = {}): Promise<{ key: string; threadId: string }> {
  const key = await createKey({ paceMs: 0, replies: [{ text: REPLY }], ...plan });
  const threadId = await longThread(key, 1);
  if (!threadId) throw new Error('the reference server made no thread');
  return { key, threadId };
}

/** Ways a page opens a stored thread; the widget's load is under way when it resolves. */
const openings: Record<string, (key: string, threadId: string) => Promise<AgentChat>> = {
  'a thread-id attribute': (key, threadId) =>
    mount({ 'publishable-key': key, 'user-id': 'u-long', 'thread-id': threadId }, {}, { ready: false }),
  'persist="local" restoring the last conversation': (key, threadId) => {
    localStorage.setItem(storageKeyFor(key), JSON.stringify({ threadId, userId: 'u-long' }));
    return mount({ 'publishable-key': key, 'user-id': 'u-long', persist: 'local' }, {}, { ready: false });
  },
  'a launcher opened on a thread-id': async (key, threadId) => {
    const el = await mount({ 'publishable-key': key, 'user-id': 'u-long', 'thread-id': threadId, mode: 'launcher' });
    el.open();
    return el;
  },
};

describe('<agent-chat> Enter while a thread loads', function () {
  this.timeout(30_000);
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('12 presses at 4 moments of 3 ways to open a thread: each question waits for the load and goes out', async () => {
    const swallowed: string[] = [];
    for (const [opening, open] of Object.entries(openings)) {
      for (const moment of ['token', 'welcome', 'transcript', 'answer'] as const) {
        const { key, threadId } = await storedThread();
        const hold = holdAt(moment, threadId);
        try {
          const el = await open(key, threadId);
          const ready = oneEvent(el, 'agent-chat-ready');
          await until(() => hold.held.length && input(el), `${opening}, ${moment}: the load is not held`);
          await type(el, QUESTION);
          if (moment === 'answer') hold.release();
          pressEnter(el);
          expect(input(el).value, `${opening}, ${moment}: the text stays while the load runs`).to.equal(QUESTION);
          hold.release();
          await ready;
          await until(() => transcriptShown(el), `${opening}, ${moment}: the transcript is not shown`);
          await nextTask();
          if (!asked(el, QUESTION)) {
            swallowed.push(`${opening} at ${moment}`);
            expect(input(el).value, `${opening}, ${moment}: a swallowed question is still in the field`).to.equal(QUESTION);
            continue;
          }
          await until(() => el.status === 'idle' && el.messages.at(-1)?.text === REPLY, `${opening}, ${moment}: no reply`);
          expect(el.messages.map((m) => m.text)).to.deep.equal(['question 0', REPLY, QUESTION, REPLY]);
          expect(input(el).value, `${opening}, ${moment}: the field is empty once it went`).to.equal('');
          expect((await keyStats(key)).turnsRun, `${opening}, ${moment}: asked once`).to.equal(2);
        } finally {
          hold.restore();
          unmountAll();
        }
      }
    }
    expect(swallowed, `${swallowed.length} of 12 presses swallowed`).to.deep.equal([]);
  });

  it('Enter pressed three times while it loads: the question goes out once, with one agent-chat-send', async () => {
    const { key, threadId } = await storedThread();
    const hold = holdAt('transcript', threadId);
    try {
      const el = await openings['a thread-id attribute']!(key, threadId);
      const sends = collect<{ text: string }>(el, 'agent-chat-send');
      await until(() => hold.held.length && input(el), 'the load is not held');
      await type(el, QUESTION);
      for (let i = 0; i < 3; i++) pressEnter(el);
      hold.release();
      await until(() => el.status === 'idle' && el.messages.at(-1)?.text === REPLY && asked(el, QUESTION), 'no reply');
      expect(asked(el, QUESTION)).to.equal(1);
      expect(sends.map((s) => s.text)).to.deep.equal([QUESTION]);
      expect((await keyStats(key)).turnsRun).to.equal(2);
      await expect(el).to.be.accessible();
    } finally {
      hold.restore();
    }
  });

  it('an image attached: Enter while it loads sends text and image once loaded, and the attachment goes with it', async () => {
    const { key, threadId } = await storedThread();
    const hold = holdAt('transcript', threadId);
    try {
      const el = await mount(
        { 'publishable-key': key, 'user-id': 'u-long', 'thread-id': threadId },
        { uploadImage: uploadToDemo },
        { ready: false },
      );
      const sends = collect<{ text: string; imageUrl: string | null }>(el, 'agent-chat-send');
      await until(() => hold.held.length && $(el, 'input[type="file"]'), 'the load is not held');
      const field = $(el, 'input[type="file"]') as HTMLInputElement;
      const files = new DataTransfer();
      files.items.add(new File([PNG], 'boot.png', { type: 'image/png' }));
      field.files = files.files;
      field.dispatchEvent(new Event('change', { bubbles: true }));
      await type(el, QUESTION);
      pressEnter(el);
      // Uploaded while the transcript is held; the send waits for the load.
      await until(() => sends.length, 'the image is not sent');
      expect(!!$(el, '[part="attachment"]'), 'the attachment stays until its message is in the log').to.equal(true);
      hold.release();
      await until(() => el.status === 'idle' && el.messages.at(-1)?.text === REPLY && asked(el, QUESTION), 'no reply');
      expect(sends).to.have.length(1);
      expect(el.messages.find((m) => m.text === QUESTION)!.imageUrl).to.equal(sends[0]!.imageUrl);
      expect(!!$(el, '[part="attachment"]'), 'the attachment went with its message').to.equal(false);
      expect(input(el).value).to.equal('');
    } finally {
      hold.restore();
    }
  });

  it('a load that fails: its notice says so, the question stays in the field, and Enter sends it once Retry has loaded', async () => {
    const { key, threadId } = await storedThread({ fail: [{ status: 503, path: '/threads/' }] });
    const hold = holdAt('transcript', threadId);
    try {
      const el = await openings['a thread-id attribute']!(key, threadId);
      await until(() => hold.held.length && input(el), 'the load is not held');
      await type(el, QUESTION);
      pressEnter(el);
      hold.release();
      await until(() => $(el, '[part="error"]'), 'the failed load is not said');
      await nextTask();
      expect(input(el).value, 'the question stays in the field').to.equal(QUESTION);
      expect(asked(el, QUESTION)).to.equal(0);
      expect((await keyStats(key)).turnsRun).to.equal(1);
      ($(el, '[part="retry-button"]') as HTMLButtonElement).click();
      await until(() => transcriptShown(el) && !$(el, '[part="error"]'), 'Retry does not load the thread');
      pressEnter(el);
      await until(() => el.status === 'idle' && el.messages.at(-1)?.text === REPLY && asked(el, QUESTION), 'no reply');
      expect(input(el).value).to.equal('');
    } finally {
      hold.restore();
    }
  });

  it('a disclaimer not accepted yet: Enter while it loads says so, and the question stays in the field', async () => {
    const { key, threadId } = await storedThread();
    const hold = holdAt('transcript', threadId);
    try {
      const el = await mount(
        { 'publishable-key': key, 'user-id': 'u-long', 'thread-id': threadId, disclaimer: 'Answers may be wrong.' },
        {},
        { ready: false },
      );
      await until(() => hold.held.length && input(el) && $(el, '[part="disclaimer-accept"]'), 'the load is not held');
      await type(el, QUESTION);
      pressEnter(el);
      await until(() => $(el, '.announcer')!.textContent!.includes('Accept the notice above'), 'the hint is not said');
      expect(el.shadowRoot!.activeElement === $(el, '[part="disclaimer-accept"]'), 'focus on the accept button').to.equal(true);
      expect(input(el).value).to.equal(QUESTION);
      hold.release();
      await until(() => transcriptShown(el), 'the transcript is not shown');
      await nextTask();
      expect(asked(el, QUESTION)).to.equal(0);
      expect(input(el).value, 'the question stays in the field').to.equal(QUESTION);
    } finally {
      hold.restore();
    }
  });
});
