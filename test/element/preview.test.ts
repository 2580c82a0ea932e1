import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AgentChat } from '../../src/agent-chat.js';
import { feature as previewFeature } from '../../src/preview/feature.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { advanceClocks, createKey, forgetStorage, loginToken, tokenFor } from '../support/server.js';

/**
 * Whether this page has requested the preview's chunk: a module of src/preview/ besides
 * feature.ts, the panel's side (the dev server serves the sources, one request per module).
 */
const previewRequested = () =>
  performance.getEntriesByType('resource').some((entry) => /\/src\/preview\/(?!feature\.)/.test(new URL(entry.name).pathname));

/** The requests the widget makes, watched at `fetch`: method, path and body. */
function watchRequests(): { seen: Array<{ method: string; path: string; body: unknown }>; restore(): void } {
  const original = window.fetch;
  const seen: Array<{ method: string; path: string; body: unknown }> = [];
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    seen.push({ method: init?.method ?? 'GET', path: url.pathname, body });
    return original.call(window, input, init);
  };
  return { seen, restore: () => void (window.fetch = original) };
}

const lastReply = (el: AgentChat) => $$(el, '.message.agent:not(.welcome)').at(-1)!;

// First in the file: the page has not fetched the preview yet (test/support/element.ts does not).
describe('builder preview: a page without `preview`', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('fetches none of its code, with a login session token and a finished reply', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Hello' }] });
    const el = await mount({}, { tokenProvider: () => loginToken(key) });
    await sendByUser(el, 'hi');
    await until(() => $(el, '.message.agent:not(.welcome) [part="copy-button"]'), 'no finished reply');
    expect(previewFeature.load.module === undefined, 'the preview chunk arrived').to.equal(true);
    expect(previewRequested()).to.equal(false);
    expect($(el, '[part="trace-button"]')).to.equal(null);
    expect(el.hasAttribute('preview')).to.equal(false);
  });
});

describe('builder preview', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('reflects `preview` and fetches its chunk once it is set', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({}, { tokenProvider: () => loginToken(key) });
    el.preview = true;
    await el.updateComplete;
    expect(el.getAttribute('preview')).to.equal('');
    await until(() => previewFeature.load.module, 'the preview chunk did not arrive');
  });

  it("shows a reply's trace as readable steps in a dialog: focus moves in, Escape closes and gives it back", async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ preview: '' }, { tokenProvider: () => loginToken(key) });
    await sendByUser(el, 'I need a rain jacket under $150');
    await until(() => lastReply(el).querySelector('[part="trace-button"]'), 'no Trace button on the finished reply');
    const button = lastReply(el).querySelector<HTMLButtonElement>('[part="trace-button"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Trace');
    expect($(el, '.welcome [part="trace-button"]')).to.equal(null);
    button.focus();
    button.click();
    const dialog = () => $(el, 'dialog[part="trace"]') as HTMLDialogElement | null;
    await until(() => dialog()?.open && dialog()!.querySelector('.trace-step'), 'the trace is not shown');
    const d = dialog()!;
    expect(d.querySelector('h3')!.textContent).to.equal('Trace');
    expect(d.getAttribute('aria-labelledby')).to.equal('trace-heading');
    const types = [...d.querySelectorAll('.trace-step-type')].map((n) => n.textContent);
    // The scripted agent's steps: its intent, its pretend tools, its rules.
    expect(types).to.include.members(['intent', 'tool', 'rule']);
    const names = [...d.querySelectorAll('.trace-step-name')].map((n) => n.textContent);
    expect(names).to.include('catalog.search');
    expect(names).to.include('budget_limit');
    // A rule's outcome is a fact beside its name; JSON is text, never markup.
    expect(d.textContent).to.match(/outcome\s*(fired|blocked|passed)/);
    expect(d.querySelector('pre')!.children).to.have.length(0);
    expect(el.shadowRoot!.activeElement?.closest('dialog')).to.equal(d);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await until(() => !dialog(), 'Escape did not close the trace');
    await until(() => el.shadowRoot!.activeElement === lastReply(el).querySelector('[part="trace-button"]'), 'focus did not go back');
    // The chat was not closed or cleared by that Escape.
    expect(lastReply(el).isConnected).to.equal(true);
  });

  it('with a publishable key token says why once, offers no trace, and the chat works', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Still here' }] });
    const el = await mount({ preview: '' }, { tokenProvider: () => tokenFor(key) });
    await until(() => $(el, '[part="preview-note"]'), 'the preview does not say why it is off');
    expect($(el, '[part="preview-note"]')!.textContent).to.contain('messaging only');
    await sendByUser(el, 'hi');
    await until(() => $(el, '.message.agent:not(.welcome) [part="copy-button"]'), 'the chat does not work');
    expect(lastReply(el).textContent).to.contain('Still here');
    expect($(el, '[part="trace-button"]')).to.equal(null);
    expect($$(el, '[part="preview-note"]')).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('turns off, saying why, when the service refuses management later (a session gone); the chat goes on', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One' }, { text: 'Two' }] });
    // The session ends: once its token has expired, the page can only get a visitor's.
    let session = true;
    const el = await mount({ preview: '' }, { tokenProvider: () => (session ? loginToken(key) : tokenFor(key)) });
    await sendByUser(el, 'a');
    await until(() => lastReply(el).querySelector('[part="trace-button"]'), 'no Trace button');
    session = false;
    const restore = await advanceClocks(key, 2 * 3600_000);
    try {
      lastReply(el).querySelector<HTMLButtonElement>('[part="trace-button"]')!.click();
      await until(() => $(el, '[part="preview-note"]'), 'the refusal is not said');
      expect($(el, '[part="preview-note"]')!.textContent).to.contain('refused');
      // Focus was in the trace dialog, which went with the preview: it is in the text field now.
      await until(() => el.shadowRoot!.activeElement === $(el, '[part="input"]'), 'focus was lost with the trace');
      expect($(el, '[part="trace-button"]')).to.equal(null);
      expect($(el, 'dialog[part="trace"]')).to.equal(null);
      await sendByUser(el, 'b');
      await until(() => lastReply(el).textContent!.includes('Two'), 'the chat does not go on');
      expect($$(el, '[part="preview-note"]')).to.have.length(1);
    } finally {
      restore();
    }
  });

  it('reruns a reply on a chosen version: the rerun carries its version_id and the branch shows its tag', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ preview: '' }, { tokenProvider: () => loginToken(key) });
    await sendByUser(el, 'hello');
    await until(() => lastReply(el).querySelector('[part="version-button"]'), 'no version menu button');
    const watch = watchRequests();
    try {
      lastReply(el).querySelector<HTMLButtonElement>('[part="version-button"]')!.click();
      await until(() => $(el, '[part="version-menu"] button'), 'the menu did not open');
      // Escape closes the menu and gives focus back to its button; the menu opens again.
      await until(() => el.shadowRoot!.activeElement === $(el, '[part="version-menu"] button'), 'focus did not move into the menu');
      await sendKeys({ press: 'Escape' });
      await until(() => !$(el, '[part="version-menu"]'), 'Escape did not close the menu');
      await until(() => el.shadowRoot!.activeElement === lastReply(el).querySelector('[part="version-button"]'), 'focus did not go back');
      // Focus going elsewhere (the reader clicks the text field) closes it too, focus left where it went.
      // Only where the page has system focus, as the focus-ring tests: Firefox runs files side
      // by side in background pages, where this step ran out in a full run (focus() moved
      // activeElement; the menu's focusout did not come).
      if (document.hasFocus()) {
        lastReply(el).querySelector<HTMLButtonElement>('[part="version-button"]')!.click();
        await until(() => el.shadowRoot!.activeElement === $(el, '[part="version-menu"] button'), 'the menu did not open again');
        ($(el, '[part="input"]') as HTMLTextAreaElement).focus();
        await until(() => !$(el, '[part="version-menu"]'), 'the menu stays open with focus elsewhere');
        expect(el.shadowRoot!.activeElement).to.equal($(el, '[part="input"]'));
      }
      lastReply(el).querySelector<HTMLButtonElement>('[part="version-button"]')!.click();
      await until(() => $(el, '[part="version-menu"] button'), 'the menu did not open again');
      const choices = $$(el, '[part="version-menu"] button');
      expect(choices.map((b) => b.textContent!.trim())).to.deep.equal(['v1.0 (live)', 'v1.1-preview']);
      await expect(el).to.be.accessible();
      const pinned = choices[1]!.dataset.version!;
      choices[1]!.click();
      await until(() => watch.seen.some((r) => r.path.endsWith('/rerun')), 'no rerun sent');
      const rerun = watch.seen.find((r) => r.path.endsWith('/rerun'))!;
      expect(rerun.body).to.include({ version_id: pinned });
      await until(() => el.status === 'idle' && $(el, '[part="version-label"]'), 'the branch is not labelled');
      expect(lastReply(el).querySelector('[part="version-label"]')!.textContent).to.equal('v1.1-preview');
      expect(lastReply(el).textContent).to.contain('v1.1-preview');
    } finally {
      watch.restore();
    }
  });

  it('shows the thread title in the header and renames it: Enter saves (PATCH), Escape cancels, a failure is said in place', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ preview: '' }, { tokenProvider: () => loginToken(key) });
    await sendByUser(el, 'hello');
    await until(() => $(el, '[part="thread-title"]'), 'no title in the header');
    const renames: Array<{ threadId: string; title: string | null }> = [];
    el.addEventListener('agent-chat-preview-rename', (e) =>
      renames.push((e as CustomEvent<{ threadId: string; title: string | null }>).detail),
    );
    const watch = watchRequests();
    try {
      // Escape cancels.
      $(el, '[part="rename-button"]')!.click();
      await until(() => el.shadowRoot!.activeElement === $(el, '[part="rename-input"]'), 'the field is not focused');
      await sendKeys({ type: 'Ignored' });
      await sendKeys({ press: 'Escape' });
      await until(() => !$(el, '[part="rename-input"]'), 'Escape did not cancel');
      expect(watch.seen.some((r) => r.method === 'PATCH')).to.equal(false);
      expect(el.isConnected).to.equal(true);
      // Enter saves.
      $(el, '[part="rename-button"]')!.click();
      await until(() => el.shadowRoot!.activeElement === $(el, '[part="rename-input"]'), 'the field is not focused');
      await sendKeys({ type: 'Rain jackets' });
      await sendKeys({ press: 'Enter' });
      await until(() => !$(el, '[part="rename-input"]'), 'Enter did not save');
      const patch = watch.seen.find((r) => r.method === 'PATCH')!;
      expect(patch.path).to.equal(`/management/v1/threads/${el.threadId}`);
      expect(patch.body).to.deep.equal({ title: 'Rain jackets' });
      expect($(el, '[part="thread-title"]')!.textContent).to.contain('Rain jackets');
      expect(renames).to.deep.equal([{ threadId: el.threadId, title: 'Rain jackets' }]);
      // Too long for the service (more than 200 characters): said in place, the text kept.
      $(el, '[part="rename-button"]')!.click();
      await until(() => $(el, '[part="rename-input"]'), 'the field did not open');
      const field = $(el, '[part="rename-input"]') as HTMLInputElement;
      field.value = 'x'.repeat(201);
      field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      field.form!.requestSubmit();
      await until(() => $(el, '.rename-error'), 'the failure is not said');
      expect($(el, '.rename-error')!.textContent).to.contain('The title could not be saved.');
      expect(($(el, '[part="rename-input"]') as HTMLInputElement).value).to.equal('x'.repeat(201));
      expect(renames).to.have.length(1);
      await expect(el).to.be.accessible();
    } finally {
      watch.restore();
    }
  });
});
