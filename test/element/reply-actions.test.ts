import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { AgentChat } from '../../src/agent-chat.js';
import type { FeedbackDetail } from '../../src/events.js';
import { $, $$, collect, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey, forgetStorage } from '../support/server.js';

/** Clicks like a reader (a trusted click: the clipboard wants one), at the middle of `node`. */
async function click(node: HTMLElement): Promise<void> {
  const box = node.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
}

const announced = (el: AgentChat) => $(el, '.announcer')!.textContent!.trim();

/**
 * What reaches the clipboard: read back where the browser lets a page read it (Chromium,
 * with the permission granted in web-test-runner.config.mjs); Firefox prompts on reading,
 * so there the write itself is watched.
 */
function clipboardWatch(): { text(): Promise<string>; restore(): void } {
  const clipboard = navigator.clipboard;
  const original = clipboard.writeText;
  let written = '';
  const reads = navigator.userAgent.includes('Chrome');
  if (!reads) {
    clipboard.writeText = function (text: string) {
      written = text;
      return original.call(clipboard, text);
    };
  }
  return {
    text: () => (reads ? clipboard.readText() : Promise.resolve(written)),
    restore: () => void (clipboard.writeText = original),
  };
}

describe('copy a reply', () => {
  afterEach(() => unmountAll());

  const REPLY = 'Two **tents** fit:\n\n| Tent | Price |\n|---|---|\n| Dome | $120 |';

  it('copies the markdown source of a finished reply, says and announces "Copied"', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: REPLY }] });
    const el = await mount({ 'publishable-key': key });
    el.style.width = '600px';
    await sendByUser(el, 'tents?');
    await until(() => $(el, '.message.agent:not(.welcome) [part="copy-button"]'), 'no copy button');
    const watch = clipboardWatch();
    try {
      const button = $(el, '.message.agent:not(.welcome) [part="copy-button"]')!;
      expect(button.getAttribute('aria-label')).to.equal('Copy reply');
      await click(button);
      await until(() => button.getAttribute('aria-label') === 'Copied', 'the button does not say Copied');
      expect(await watch.text()).to.equal(REPLY);
      expect(announced(el)).to.equal('Copied');
      // Back to its name after a moment.
      await until(() => button.getAttribute('aria-label') === 'Copy reply', 'the button keeps saying Copied', 4000);
    } finally {
      watch.restore();
    }
  });

  it('is on every finished reply, not on the welcome message or a reply still streaming', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }, { text: 'Two' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'a');
    await sendByUser(el, 'b');
    await until(() => $$(el, '[part="copy-button"]').length === 2, 'not one copy button per reply');
    expect($(el, '.welcome [part="copy-button"]')).to.equal(null);
    expect($$(el, '.message.user [part="copy-button"]')).to.have.length(0);
  });

  it('says so when the clipboard refuses', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Secret' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'a');
    await until(() => $(el, '[part="copy-button"]'), 'no copy button');
    const clipboard = navigator.clipboard;
    const original = clipboard.writeText;
    clipboard.writeText = () => Promise.reject(new DOMException('Denied', 'NotAllowedError'));
    try {
      $(el, '[part="copy-button"]')!.click();
      await until(() => announced(el) === 'Could not copy', 'no notice of the failure');
      expect($(el, '[part="copy-button"]')!.getAttribute('aria-label')).to.equal('Copy reply');
    } finally {
      clipboard.writeText = original;
    }
  });
});

describe('feedback', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  const thumbs = (el: AgentChat, which: 'up' | 'down') => $(el, `.message.agent:not(.welcome) [part="feedback-${which}"]`)!;
  const pressed = (el: AgentChat) =>
    ['up', 'down'].filter((which) => thumbs(el, which as 'up' | 'down').getAttribute('aria-pressed') === 'true');

  it('is off unless asked for', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Fine.' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'a');
    await until(() => $(el, '[part="copy-button"]'), 'no turn controls');
    expect($(el, '[part="feedback"]')).to.equal(null);
  });

  it('rates a reply up, takes it back, and fires agent-chat-feedback each time', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Fine.' }] });
    const el = await mount({ 'publishable-key': key, feedback: '' });
    const events = collect<FeedbackDetail>(el, 'agent-chat-feedback');
    await sendByUser(el, 'a');
    await until(() => $(el, '.message.agent:not(.welcome) [part="feedback"]'), 'no thumbs');
    expect($(el, '.welcome [part="feedback"]')).to.equal(null);
    expect($(el, '[part="feedback"]')!.getAttribute('role')).to.equal('group');
    const messageId = el.messages.at(-1)!.id;
    thumbs(el, 'up').click();
    await el.updateComplete;
    expect(pressed(el)).to.deep.equal(['up']);
    thumbs(el, 'up').click();
    await el.updateComplete;
    expect(pressed(el)).to.deep.equal([]);
    expect(events).to.deep.equal([
      { messageId, threadId: el.threadId, rating: 'up' },
      { messageId, threadId: el.threadId, rating: null },
    ]);
  });

  it('asks why after a thumbs-down, and sends the reason with the rating', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'The tent weighs 9 kg.' }] });
    const el = await mount({ 'publishable-key': key, feedback: '' });
    const events = collect<FeedbackDetail>(el, 'agent-chat-feedback');
    await sendByUser(el, 'How heavy?');
    await until(() => $(el, '.message.agent:not(.welcome) [part="feedback"]'), 'no thumbs');
    thumbs(el, 'down').click();
    await until(() => $(el, '.feedback-form'), 'no reason form');
    const reasons = $$(el, '.feedback-reasons button');
    expect(reasons.map((b) => b.textContent!.trim())).to.deep.equal(['Not accurate', 'Not helpful', 'Harmful or offensive']);
    reasons[0]!.click();
    await el.updateComplete;
    expect(reasons[0]!.getAttribute('aria-pressed')).to.equal('true');
    const text = $(el, '.feedback-text') as HTMLInputElement;
    text.value = 'It weighs 2 kg';
    text.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    ($(el, '.feedback-form button[type="submit"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect($(el, '.feedback-form')).to.equal(null);
    expect(pressed(el)).to.deep.equal(['down']);
    const messageId = el.messages.at(-1)!.id;
    expect(events).to.deep.equal([
      { messageId, threadId: el.threadId, rating: 'down' },
      { messageId, threadId: el.threadId, rating: 'down', reason: 'It weighs 2 kg', category: 'inaccurate' },
    ]);
    expect(announced(el)).to.equal('Thanks for your feedback');
  });

  it('puts the reason form under the row of actions, which stays one row', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'The tent weighs 9 kg.' }] });
    const el = await mount({ 'publishable-key': key, feedback: '' });
    await sendByUser(el, 'How heavy?');
    await until(() => $(el, '.message.agent:not(.welcome) [part="regenerate-button"]'), 'no turn controls');
    thumbs(el, 'down').click();
    await until(() => $(el, '.feedback-form'), 'no reason form');
    const row = ['copy-button', 'feedback-up', 'feedback-down', 'regenerate-button'].map((part) =>
      $(el, `.message.agent:not(.welcome) [part="${part}"]`)!.getBoundingClientRect(),
    );
    const form = $(el, '.feedback-form')!.getBoundingClientRect();
    for (const box of row) {
      expect(Math.abs(box.top - row[0]!.top), 'the actions share one row').to.be.below(2);
      expect(form.top, 'the form is under the actions').to.be.at.least(box.bottom);
    }
    // Tab order follows: Regenerate, then the form.
    const regenerate = $(el, '.message.agent:not(.welcome) [part="regenerate-button"]')!;
    expect(regenerate.compareDocumentPosition($(el, '.feedback-form')!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
  });

  it('closes the reason form with Escape, and keeps the rating', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hm.' }] });
    const el = await mount({ 'publishable-key': key, feedback: '', mode: 'launcher', open: '' });
    await sendByUser(el, 'a');
    await until(() => $(el, '.message.agent:not(.welcome) [part="feedback"]'), 'no thumbs');
    thumbs(el, 'down').click();
    await until(() => $(el, '.feedback-form'), 'no reason form');
    $(el, '.feedback-text')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '.feedback-form')).to.equal(null);
    expect(el.isOpen, 'the launcher stays open').to.equal(true);
    expect(pressed(el)).to.deep.equal(['down']);
  });

  it('shows the ratings again after a reload', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }, { text: 'Two' }] });
    const first = await mount({ 'publishable-key': key, feedback: '', persist: 'local' });
    await sendByUser(first, 'a');
    await sendByUser(first, 'b');
    await until(() => $$(first, '[part="feedback-up"]').length === 2, 'no thumbs');
    $$(first, '[part="feedback-up"]')[1]!.click();
    await first.updateComplete;
    first.remove();

    const again = await mount({ 'publishable-key': key, feedback: '', persist: 'local' });
    await until(() => $$(again, '[part="feedback-up"]').length === 2, 'no thumbs after the reload');
    expect($$(again, '[part="feedback-up"]').map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['false', 'true']);
  });
});
