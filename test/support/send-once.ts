import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { FaultPlan } from '../../server/src/faults/plan.js';
import { createKey, keyStats, serviceTranscript, storageKeyFor } from './server.js';
import { input, until } from './element.js';

/**
 * The steps of test/element/send-once.test.ts.
 * A send is exactly-once across a reload at any moment (docs/protocol.md "A send and a
 * reload"): a page reloaded 0 to 20 ms after Enter shows the turn, run once on the service,
 * or has the question back in its composer, the service having run nothing. Fault knobs
 * hold the windows open (server/src/faults/plan.ts): a request the service took but whose
 * `thread` frame has not left yet, and a request still on its way. Each sweep ends with a
 * reload at the moment its window opens (the turn stored, the question received), which a
 * loaded machine may not reach within 20 ms.
 */
export const QUESTION = 'Is this sent exactly once?';
const FIRST = 'An earlier question';
const FIRST_REPLY = 'An earlier reply.';
export const REPLY = 'Once, and only once.';

/** A page of the host site in a same-origin frame (it shares storage), with the turn's code fetched up front as a reader's focus would. */
const page = (key: string) => `<!doctype html><title>shop</title>
  <agent-chat base-url="${location.origin}" publishable-key="${key}" persist="local"></agent-chat>
  <script type="module">
    import '/src/agent-chat.ts';
    const chunks = await import('/src/chunks.ts');
    await Promise.all([chunks.turns(), chunks.stream(), chunks.recovery()]);
    window.codeReady = true;
  </script>`;

export type Frame = HTMLIFrameElement & { contentWindow: Window & { codeReady?: boolean } };

/** The widget of the page in `frame` once its code is there (a page other than `after`). */
async function widgetIn(frame: Frame, after?: Document): Promise<AgentChat> {
  let el: AgentChat | null = null;
  await until(() => {
    const doc = frame.contentDocument;
    if (!doc || doc === after || !frame.contentWindow.codeReady) return false;
    el = doc.querySelector('agent-chat') as AgentChat | null;
    return !!el?.shadowRoot?.querySelector('[part="input"]');
  }, 'the widget on the page');
  return el!;
}

export const settled = (el: AgentChat) =>
  el.status !== 'connecting' &&
  el.status !== 'streaming' &&
  el.status !== 'reconnecting' &&
  el.messages.every((m) => m.state !== 'streaming');

/**
 * When the page goes after Enter: `delay` ms later (-1: in the same task), or as soon as the
 * turn is stored (`stored`) or the service has its question (`received`), windows a
 * loaded machine may not open within 20 ms.
 */
export type Moment = number | 'stored' | 'received';

/** Types `text` and presses Enter, then reloads the page at `moment`. Returns the reloaded widget. */
export async function sendThenReload(frame: Frame, el: AgentChat, key: string, text: string, moment: Moment): Promise<AgentChat> {
  const field = input(el);
  field.focus();
  field.value = text;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  const before = frame.contentDocument!;
  const run = (await keyStats(key)).turnsRun;
  field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
  if (moment === 'stored') while (!localStorage.getItem(storageKeyFor(key))?.includes('"turn"')) await tick();
  else if (moment === 'received') while ((await keyStats(key)).turnsRun === run) await tick();
  else if (moment >= 0) await new Promise((resolve) => setTimeout(resolve, moment));
  frame.contentWindow.location.reload();
  return widgetIn(frame, before);
}

export type Outcome = 'ran once' | 'never ran' | 'told not received';

/** What the reloaded page and the service say: the turn ran once and shows, or never ran and the question is in the composer. */
async function outcome(key: string, el: AgentChat, runBefore: number, label: string): Promise<Outcome> {
  const seen = () => JSON.stringify({ status: el.status, log: el.messages.map((m) => [m.text, m.state]), composer: input(el).value });
  await until(
    () => settled(el) && (input(el).value.includes(QUESTION) || el.messages.at(-1)?.text === REPLY),
    () => `${label}: the page settles with the turn shown or the question in the composer: ${seen()}`,
    15_000,
  );
  const run = (await keyStats(key)).turnsRun - runBefore;
  const asked = el.messages.filter((m) => m.role === 'user' && m.text === QUESTION).length;
  if (run === 1) {
    expect(asked, `${label}: ran once, shown once: ${seen()}`).to.equal(1);
    expect(el.messages.at(-1)?.text, `${label}: its reply shows`).to.equal(REPLY);
    expect(input(el).value, `${label}: ran: not back in the composer`).to.not.include(QUESTION);
    const transcript = await serviceTranscript(key, el.threadId!);
    expect(transcript.filter((m) => m.text === QUESTION).length, `${label}: once in the service's thread`).to.equal(1);
    return 'ran once';
  }
  expect(run, `${label}: turns the service ran: ${seen()}`).to.equal(0);
  expect(asked, `${label}: never ran: not in the log`).to.equal(0);
  expect(input(el).value, `${label}: never ran: back in the composer`).to.include(QUESTION);
  // The page went after storing the turn: the service was asked, and said it never had it.
  const notice = el.shadowRoot!.querySelector('[part="error"]')?.textContent ?? '';
  return notice.includes('did not reach the service') ? 'told not received' : 'never ran';
}

/** One page of the host site in a frame, reloaded at chosen moments after Enter. */
export class Reloads {
  frame: Frame | null = null;

  remove(): void {
    this.frame?.remove();
    this.frame = null;
  }

  /** A new page with `key`'s widget, its conversation loaded. */
  async open(key: string): Promise<AgentChat> {
    this.frame?.remove();
    this.frame = document.createElement('iframe') as Frame;
    this.frame.srcdoc = page(key);
    document.body.append(this.frame);
    const el = await widgetIn(this.frame);
    await until(() => el.status === 'idle', 'the conversation loaded');
    return el;
  }

  /** One reload per moment, each with a key (and so a service agent) of its own. */
  async sweep(plan: FaultPlan, moments: Moment[], known: boolean): Promise<Record<Outcome, number>> {
    const tally: Record<Outcome, number> = { 'ran once': 0, 'never ran': 0, 'told not received': 0 };
    for (const moment of moments) {
      const key = await createKey({ paceMs: 2, replies: known ? [{ text: FIRST_REPLY }, { text: REPLY }] : [{ text: REPLY }], ...plan });
      let el = await this.open(key);
      if (known) {
        void el.send(FIRST);
        await until(() => settled(el) && el.messages.length === 2, 'the first turn');
      }
      const before = (await keyStats(key)).turnsRun;
      el = await sendThenReload(this.frame!, el, key, QUESTION, moment);
      const label = moment === -1 ? 'in the same task as' : typeof moment === 'number' ? `${moment} ms after` : `once ${moment} after`;
      tally[await outcome(key, el, before, `reloaded ${label} Enter`)] += 1;
    }
    return tally;
  }
}

// 0 to 20 ms after Enter (-1: in the same task): every millisecond for a new conversation, a spread for the others.
export const every: Moment[] = [-1, ...Array.from({ length: 21 }, (_, ms) => ms)];
export const spread: Moment[] = [-1, 0, 2, 4, 7, 10, 14, 20];
