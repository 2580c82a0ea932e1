import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { FaultPlan } from '../../server/src/faults/plan.js';
import { createKey, keyStats } from '../support/server.js';
import { $, $$, agentTexts, collect, mount, sendByUser, type, unmountAll, until } from '../support/element.js';

const userTexts = (el: HTMLElement & { shadowRoot: ShadowRoot | null }) =>
  Array.from(el.shadowRoot!.querySelectorAll('.message.user [part="text"]')).map((n) => n.textContent!.trim());

/** A widget whose first turn ('tell me') the reader stopped mid-reply; `next` answers the reruns. */
async function stoppedTurn(next: Array<{ text: string }>, plan: FaultPlan = {}): Promise<AgentChat> {
  const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  const key = await createKey({ paceMs: 30, replies: [{ text: long }, ...next], ...plan });
  const el = await mount({ 'publishable-key': key });
  await type(el, 'tell me');
  ($(el, '[part="send-button"]') as HTMLButtonElement).click();
  await until(() => el.status === 'streaming' && agentTexts(el)[0]);
  ($(el, '[part="stop-button"]') as HTMLButtonElement).click();
  await until(() => el.status === 'idle' && !!$(el, '.message.agent.stopped'), 'not stopped');
  return el;
}

describe('<agent-chat> regenerate, edit, branches and history', () => {
  afterEach(() => {
    unmountAll();
  });

  it('regenerates a reply into a new thread and navigates between the versions, across a reload', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'First answer' }, { text: 'Second answer' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local', 'version-tag': 'v1.1-preview' });
    await sendByUser(el, 'question');
    const original = el.threadId!;
    const replyId = el.messages[1]!.id;
    const threads = collect<{ threadId: string; previousThreadId: string; reason: string }>(el, 'agent-chat-thread');

    $(el, '[part="regenerate-button"]')!.click();
    await until(() => el.status === 'idle' && agentTexts(el)[0] === 'Second answer');
    expect(userTexts(el)).to.deep.equal(['question']);
    expect(el.threadId).not.to.equal(original);
    expect(threads[0]).to.include({ reason: 'rerun', previousThreadId: original, threadId: el.threadId });
    const rerun = (await keyStats(key)).requests.find((r) => r.path.endsWith('/rerun'))!;
    expect(rerun.path).to.equal(`/messaging/v1/threads/${original}/rerun`);
    expect(rerun.body).to.deep.include({ interaction_id: replyId, text: 'question', version_tag: 'v1.1-preview' });
    expect(rerun.body).not.to.have.property('agent_id');
    await el.updateComplete;
    expect($(el, '[part="branch-nav"]')!.textContent!.replace(/\s+/g, ' ')).to.contain('2 / 2');

    // Back to the original version, and the navigator still knows both after a reload.
    ($(el, '[part="branch-nav"] button') as HTMLButtonElement).click();
    await until(() => el.threadId === original && agentTexts(el)[0] === 'First answer');
    el.remove();
    const again = await mount({ 'publishable-key': key, persist: 'local' });
    expect(again.threadId).to.equal(original);
    expect($(again, '[part="branch-nav"]')!.textContent!.replace(/\s+/g, ' ')).to.contain('1 / 2');
    ($(again, '[part="branch-nav"] button:last-of-type') as HTMLButtonElement).click();
    await until(() => agentTexts(again)[0] === 'Second answer');
  });

  it('edits a user message: Enter resends as a rerun of the reply that followed', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }, { text: 'Two' }, { text: 'Edited reply' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'first');
    await sendByUser(el, 'second');
    const secondReply = el.messages[3]!.id;
    const source = el.threadId;

    $$(el, '[part="edit-button"]')[1]!.click();
    await el.updateComplete;
    const editor = $(el, '.edit-input') as HTMLTextAreaElement;
    expect(el.shadowRoot!.activeElement).to.equal(editor);
    editor.value = 'second, edited';
    editor.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await until(() => el.status === 'idle' && agentTexts(el)[1] === 'Edited reply');
    expect(userTexts(el)).to.deep.equal(['first', 'second, edited']);
    expect(el.threadId).not.to.equal(source);
    const rerun = (await keyStats(key)).requests.find((r) => r.path.endsWith('/rerun'))!;
    expect(rerun.body).to.deep.include({ interaction_id: secondReply, text: 'second, edited' });
  });

  it('Escape cancels an edit without sending', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'keep me');
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    const editor = $(el, '.edit-input') as HTMLTextAreaElement;
    editor.value = 'changed';
    editor.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '.edit-input')).to.be.null;
    expect(userTexts(el)).to.deep.equal(['keep me']);
    expect((await keyStats(key)).requests.some((r) => r.path.endsWith('/rerun'))).to.be.false;
  });

  it('lists earlier conversations, opens one and removes one', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(el, 'About shoes');
    const first = el.threadId;
    el.newThread();
    await until(() => el.status === 'idle' && el.messages.length === 0);
    await sendByUser(el, 'About jackets');

    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    const titles = () => $$(el, '.history-title').map((n) => n.textContent!.trim());
    expect(titles()).to.deep.equal(['About jackets', 'About shoes']);
    expect(el.shadowRoot!.activeElement?.closest('[part="history"]')).to.exist;

    const threads = collect<{ reason: string; threadId: string }>(el, 'agent-chat-thread');
    $$(el, '.history-open')[1]!.click();
    await until(() => el.threadId === first && userTexts(el)[0] === 'About shoes');
    expect(threads[0]).to.include({ reason: 'switched', threadId: first });

    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    ($$(el, '[part="history"] li .icon-button')[0] as HTMLButtonElement).click();
    await el.updateComplete;
    expect(titles()).to.have.length(1);
    el.shadowRoot!.querySelector('[part="history"]')!.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect($(el, '[part="history"]')).to.be.null;
  });

  it('lists a conversation once however many times its turns were regenerated or edited', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply one' }, { text: 'Reply two' }, { text: 'Reply three' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(el, 'About tents');
    const root = el.threadId;
    $(el, '[part="regenerate-button"]')!.click();
    await until(() => el.status === 'idle' && el.threadId !== root, 'no rerun');
    const branch = el.threadId;
    $(el, '[part="regenerate-button"]')!.click();
    await until(() => el.status === 'idle' && el.threadId !== branch, 'no second rerun');
    const latest = el.threadId;

    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    const titles = () => $$(el, '.history-title').map((n) => n.textContent!.trim());
    expect(titles()).to.deep.equal(['About tents']);
    // The entry is the conversation in use, and opens its branch last active.
    expect(!!$(el, '.history [aria-current="true"]')).to.equal(true);
    ($$(el, '[part="history"] li .icon-button')[0] as HTMLButtonElement).click();
    await el.updateComplete;
    expect(titles()).to.deep.equal([]);
    expect(latest).to.not.equal(root);
  });

  it('titles a conversation in the history by the branch shown: an edited first question retitles it', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Reply one' }, { text: 'Reply two' }] });
    const el = await mount({ 'publishable-key': key, persist: 'local' });
    await sendByUser(el, 'About tents');
    const root = el.threadId;
    $(el, '[part="edit-button"]')!.click();
    await el.updateComplete;
    const editor = $(el, '.edit-input') as HTMLTextAreaElement;
    editor.value = 'About sleeping bags';
    editor.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await until(() => el.status === 'idle' && el.threadId !== root, 'no rerun');
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    const titles = () => $$(el, '.history-title').map((n) => n.textContent!.trim());
    expect(titles()).to.deep.equal(['About sleeping bags']);
    // Back on the first version, the entry says what that version asked.
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    ($(el, '[part="branch-nav"] button') as HTMLButtonElement).click();
    await until(() => el.threadId === root && el.status === 'idle', 'not back on the first version');
    $(el, '[part="history-button"]')!.click();
    await el.updateComplete;
    expect(titles()).to.deep.equal(['About tents']);
  });

  it('regenerates a stopped reply (its question offers Edit too), as any other turn', async function () {
    this.timeout(30_000);
    const el = await stoppedTurn([{ text: 'Second version' }, { text: 'Edited answer' }]);
    const source = el.threadId;
    await until(
      () => $(el, '.message.agent.stopped [part="regenerate-button"]') && $(el, '.message.user [part="edit-button"]'),
      'no turn controls on a stopped turn',
    );

    const threads = collect<{ reason: string }>(el, 'agent-chat-thread');
    $(el, '.message.agent.stopped [part="regenerate-button"]')!.click();
    await until(() => agentTexts(el).at(-1) === 'Second version' && el.status === 'idle', 'the stopped reply was not regenerated', 20_000);
    expect(threads.map((t) => t.reason)).to.include('rerun');
    expect(el.threadId).to.not.equal(source);
    expect(!!$(el, '[part="branch-nav"]')).to.equal(true);
  });

  it('asks a stopped turn again when the service never records it', async function () {
    // The transcript never shows the turn (a service that lost it): after waiting for it
    // (30 s), Regenerate sends the question again in the same thread instead of failing.
    this.timeout(60_000);
    const el = await stoppedTurn([{ text: 'Asked again' }], { rawTranscript: [] });
    const thread = el.threadId;
    await until(() => $(el, '.message.agent.stopped [part="regenerate-button"]'), 'no Regenerate on the stopped turn');
    $(el, '.message.agent.stopped [part="regenerate-button"]')!.click();
    await until(() => agentTexts(el).at(-1) === 'Asked again' && el.status === 'idle', 'the turn was not asked again', 45_000);
    expect(el.threadId).to.equal(thread);
    expect(userTexts(el)).to.deep.equal(['tell me']);
    expect($(el, '[part="error"]')).to.equal(null);
  });

  it('edits the question of a stopped reply into a new branch', async function () {
    this.timeout(30_000);
    const el = await stoppedTurn([{ text: 'Edited answer' }]);
    await until(() => $(el, '.message.user [part="edit-button"]'), 'no Edit on the stopped turn');
    $(el, '.message.user [part="edit-button"]')!.click();
    await until(() => $(el, '.edit-input'), 'no editor');
    const editor = $(el, '.edit-input') as HTMLTextAreaElement;
    editor.value = 'tell me briefly';
    editor.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    ($(el, '.edit-form button[type="submit"]') as HTMLButtonElement).click();
    await until(() => agentTexts(el).at(-1) === 'Edited answer' && el.status === 'idle', 'the edited turn was not answered', 20_000);
    expect(el.messages.filter((m) => m.role === 'user').map((m) => m.text)).to.deep.equal(['tell me briefly']);
  });
});
