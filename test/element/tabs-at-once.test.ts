import { expect } from '@open-wc/testing';
import { createKey, forgetStorage, keyStats, serviceTranscript, storageKeyFor } from '../support/server.js';
import { input, until } from '../support/element.js';
import { type Tab, closeTabs, tab, texts } from '../support/tabs.js';

/**
 * Tabs of one conversation scope that send at the same instant (docs/protocol.md "Tabs
 * share one conversation": one tab's turn runs, the others' questions go back to their
 * composers with a notice). Whatever the timing, every question is either run once and
 * shown in every tab, in the thread it ran in, or back in its own composer; no tab shows
 * another thread's reply, the history lists the thread, and a reload shows the same.
 */
const settled = (tabs: Tab[]) => tabs.every(({ el }) => el.status === 'idle' && el.messages.every((m) => m.state !== 'streaming'));

async function sendAtOnce(tabs: Tab[]): Promise<string[]> {
  const questions = tabs.map((_, i) => `question ${i + 1} from tab ${String.fromCharCode(65 + i)}`);
  // One synchronous loop: no tab's send has got anywhere when the last one starts.
  await Promise.all(tabs.map(({ el }, i) => el.send(questions[i]!)));
  await until(() => settled(tabs), `every tab settled: ${JSON.stringify(tabs.map(({ el }) => [el.status, texts(el)]))}`, 15_000);
  return questions;
}

/** What every tab shows must be what the service has for the thread, and every question accounted for. */
async function expectAccounted(key: string, tabs: Tab[], questions: string[], earlier = 0): Promise<void> {
  const threadId = tabs[0]!.el.threadId;
  expect(threadId, 'a thread').to.be.a('string');
  const transcript = (await serviceTranscript(key, threadId!)).map((m) => m.text);
  for (const [i, { el }] of tabs.entries()) {
    expect(el.threadId, `tab ${i + 1}'s thread`).to.equal(threadId);
    expect(texts(el), `tab ${i + 1} shows the thread as the service has it`).to.deep.equal(transcript);
  }
  const stats = await keyStats(key);
  let run = 0;
  for (const [i, question] of questions.entries()) {
    const shown = transcript.filter((t) => t === question).length;
    const composer = input(tabs[i]!.el).value;
    if (shown) {
      expect(shown, `"${question}" ran once`).to.equal(1);
      expect(composer, `"${question}" ran: not in its composer`).to.equal('');
      run++;
    } else {
      expect(composer, `"${question}" did not run: back in its composer`).to.equal(question);
      expect(tabs[i]!.el.shadowRoot!.querySelector('[part="error"]')?.textContent, `tab ${i + 1} says why`).to.exist;
    }
    for (const [j, other] of tabs.entries())
      if (j !== i) expect(input(other.el).value, `"${question}" in no other composer`).to.not.include(question);
  }
  expect(run, 'at least one question ran').to.be.greaterThan(0);
  expect(stats.turnsRun, 'turns run on the service').to.equal(earlier + run);
  const stored = JSON.parse(localStorage.getItem(storageKeyFor(key))!) as { history?: Array<{ id: string }> };
  expect(
    stored.history?.map((h) => h.id),
    'the history lists the thread',
  ).to.include(threadId);
  // A reload (a new tab) shows the same conversation.
  const reloaded = await tab(key);
  await until(() => texts(reloaded.el).length === transcript.length, 'the reloaded tab shows the thread');
  expect(texts(reloaded.el)).to.deep.equal(transcript);
}

describe('<agent-chat> tabs sending at the same instant', function () {
  this.timeout(40_000);
  afterEach(() => {
    closeTabs();
    forgetStorage();
  });

  const cases: Array<[count: number, paceMs: number]> = [
    [2, 20],
    [5, 20],
    // A reply over before the other tabs heard of it: they follow the thread it created from storage alone.
    [5, 0],
  ];
  for (const [count, paceMs] of cases) {
    it(`${count} tabs, a new conversation (${paceMs} ms a token): one question runs, the others return to their composers`, async () => {
      const key = await createKey({ paceMs });
      const tabs: Tab[] = [];
      for (let i = 0; i < count; i++) tabs.push(await tab(key));
      const questions = await sendAtOnce(tabs);
      await expectAccounted(key, tabs, questions);
    });
  }

  it('2 tabs on one thread: one turn runs, the other question returns, nothing the service cancelled is lost', async () => {
    const key = await createKey({ paceMs: 20 });
    const tabs = [await tab(key), await tab(key)];
    await tabs[0]!.el.send('the first turn');
    await until(() => settled(tabs) && texts(tabs[1]!.el).length === 2, 'the first turn in both tabs');
    const questions = await sendAtOnce(tabs);
    await expectAccounted(key, tabs, questions, 1);
  });

  it('a question returned to its composer can be sent again once the other turn ended', async () => {
    const key = await createKey({ paceMs: 20 });
    const tabs = [await tab(key), await tab(key)];
    const questions = await sendAtOnce(tabs);
    const loser = tabs.findIndex(({ el }) => input(el).value !== '');
    expect(loser, 'one question returned').to.be.greaterThan(-1);
    await tabs[loser]!.el.send(questions[loser]!);
    await until(() => settled(tabs) && tabs.every(({ el }) => texts(el).length === 4), 'both turns in both tabs');
    for (const { el } of tabs) expect(texts(el).filter((t) => questions.includes(t))).to.have.members(questions);
  });
});
