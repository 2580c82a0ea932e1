import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

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
