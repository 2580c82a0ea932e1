import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { input, mount, sendByUser, type, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * Prompt recall in the text field. The keys are dispatched as the browser would deliver
 * them; whether the widget took one is whether it prevented its default (the caret's move).
 */
describe('prompt recall (ArrowUp in an empty text field)', () => {
  afterEach(unmountAll);

  /** Presses `key` in the text field: whether the widget took it (prevented the caret's move). */
  async function press(el: AgentChat, key: string): Promise<boolean> {
    const field = input(el);
    field.focus();
    const taken = !field.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    return taken;
  }

  async function asked(...questions: string[]): Promise<AgentChat> {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Noted.' }] });
    const el = await mount({ 'publishable-key': key });
    for (const question of questions) await sendByUser(el, question);
    return el;
  }

  it('ArrowUp brings back the questions sent, newest first; ArrowDown goes forward and past the newest empties the field', async () => {
    const el = await asked('first question', 'second question');
    const field = input(el);
    expect(await press(el, 'ArrowUp')).to.equal(true);
    expect(field.value).to.equal('second question');
    expect(field.selectionStart, 'the caret after the text').to.equal('second question'.length);
    await press(el, 'ArrowUp');
    expect(field.value).to.equal('first question');
    expect(await press(el, 'ArrowUp'), 'nothing older: the key keeps its meaning').to.equal(false);
    expect(field.value).to.equal('first question');
    await press(el, 'ArrowDown');
    expect(field.value).to.equal('second question');
    await press(el, 'ArrowDown');
    expect(field.value).to.equal('');
    expect(await press(el, 'ArrowDown')).to.equal(false);
    // The recalled question is the draft as if typed: the send button takes it.
    await press(el, 'ArrowUp');
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[part="send-button"]')!.disabled).to.equal(false);
  });

  it('recall keeps a draft: typed text, or a recalled question once edited, keeps ArrowUp and ArrowDown for the caret', async () => {
    const el = await asked('first question', 'second question');
    const field = input(el);
    await type(el, 'my draft');
    expect(await press(el, 'ArrowUp')).to.equal(false);
    expect(await press(el, 'ArrowDown')).to.equal(false);
    expect(field.value).to.equal('my draft');

    await type(el, '');
    await press(el, 'ArrowUp');
    expect(field.value).to.equal('second question');
    await type(el, 'second question, edited');
    expect(await press(el, 'ArrowUp')).to.equal(false);
    expect(await press(el, 'ArrowDown')).to.equal(false);
    expect(field.value).to.equal('second question, edited');
  });

  it("recalls only the shown conversation's questions", async () => {
    const el = await asked('first question', 'second question');
    el.newThread();
    await until(() => el.status === 'idle' && el.messages.length === 0, 'a new thread');
    expect(await press(el, 'ArrowUp'), 'a new conversation has nothing to recall').to.equal(false);
    await sendByUser(el, 'a new question');
    expect(await press(el, 'ArrowUp')).to.equal(true);
    expect(input(el).value).to.equal('a new question');
    expect(await press(el, 'ArrowUp'), "not the other conversation's").to.equal(false);
    expect(input(el).value).to.equal('a new question');
  });
});
