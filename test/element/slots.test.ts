import { expect, oneEvent } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, element, mount, openLauncher, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/** The slot named `name` in the widget, and what the host put in it. */
function slotted(el: AgentChat, name: string): { slot: HTMLSlotElement | null; assigned: Element[] } {
  const slot = el.shadowRoot!.querySelector<HTMLSlotElement>(`slot[name="${name}"]`);
  return { slot, assigned: slot ? slot.assignedElements() : [] };
}

function hostContent(el: HTMLElement, slot: string, text: string): HTMLElement {
  const node = document.createElement('span');
  node.slot = slot;
  node.textContent = text;
  el.append(node);
  return node;
}

/** Whether `node` is laid out (a slot inside something hidden, or a hidden slot, shows nothing). */
const shown = (node: Element) => node.getClientRects().length > 0;

describe('slots', () => {
  afterEach(() => unmountAll());

  it('shows host content beside the title and under the composer', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = element({ 'publishable-key': key, persist: 'none' });
    const logo = hostContent(el, 'header', 'LOGO');
    const note = hostContent(el, 'footer', 'Answers may be wrong.');
    const ready = oneEvent(el, 'agent-chat-ready');
    document.body.append(el);
    await ready;
    await el.updateComplete;
    expect(slotted(el, 'header').assigned).to.deep.equal([logo]);
    expect(slotted(el, 'header').slot!.closest('[part="header"]')).to.not.equal(null);
    expect(slotted(el, 'footer').assigned).to.deep.equal([note]);
    // Under the composer: after it in the panel, and drawn below it.
    const composer = $(el, '[part="composer"]')!.getBoundingClientRect();
    expect(note.getBoundingClientRect().top >= composer.bottom - 1).to.equal(true);
    expect(shown(logo) && shown(note)).to.equal(true);
    el.remove();
  });

  it('shows the empty slot until the first message', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hi' }] });
    const el = element({ 'publishable-key': key, persist: 'none' });
    const intro = hostContent(el, 'empty', 'Ask about sizes.');
    const ready = oneEvent(el, 'agent-chat-ready');
    document.body.append(el);
    await ready;
    await el.updateComplete;
    expect(slotted(el, 'empty').assigned).to.deep.equal([intro]);
    expect(shown(intro)).to.equal(true);
    await sendByUser(el as AgentChat, 'hello');
    expect(slotted(el, 'empty').slot).to.equal(null);
    expect(shown(intro)).to.equal(false);
    el.remove();
  });

  it('puts the host icon on the launcher, and the close icon while open', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    const avatar = hostContent(el, 'launcher-icon', 'AV');
    await el.updateComplete;
    const launcher = $(el, '[part="launcher"]')!;
    const { slot } = slotted(el, 'launcher-icon');
    expect(slot!.closest('[part="launcher"]')).to.equal(launcher);
    expect(slot!.assignedElements()).to.deep.equal([avatar]);
    expect(shown(avatar)).to.equal(true);
    await openLauncher(el);
    await until(() => !shown(avatar), 'the host icon still shows while open');
    expect(Array.from(launcher.querySelectorAll(':scope > svg')).filter(shown)).to.have.length(1);
  });

  it('keeps the chat bubble when the host gives no icon', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, mode: 'launcher' });
    const { slot } = slotted(el, 'launcher-icon');
    const fallback = slot!.querySelector('svg')!;
    expect(shown(fallback)).to.equal(true);
  });
});
