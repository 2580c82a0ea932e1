import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey } from '../support/server.js';
import { $, input, sendByUser, until } from '../support/element.js';

/**
 * A chunk that failed is fetched again on the next need, whatever failed (src/lazy.ts,
 * scripts/vite-chunk-retry.ts): a 404, or a module that does not parse or throws as it
 * runs, which a browser keeps failed for that URL as long as the page lives. The built
 * script is loaded from /dist-broken-<how>-<part>/, where that part's chunk is broken until
 * it is asked for again (web-test-runner.config.mjs), on a page with a strict CSP.
 */
describe('a chunk that failed is tried again', function () {
  this.timeout(20_000);
  const frames: HTMLIFrameElement[] = [];
  afterEach(() => {
    for (const f of frames.splice(0)) f.remove();
  });

  async function openPage(query: Record<string, string>): Promise<AgentChat> {
    const frame = document.createElement('iframe');
    frame.style.width = '480px';
    frame.style.height = '640px';
    frame.src = `/__demo/csp/retry-${Math.random().toString(36).slice(2)}?${new URLSearchParams(query)}`;
    document.body.append(frame);
    frames.push(frame);
    await until(
      () => (frame.contentWindow as (Window & { cspReady?: boolean }) | null)?.cspReady,
      'the page did not load the widget',
      10_000,
    );
    return frame.contentDocument!.querySelector('agent-chat') as AgentChat;
  }

  const notice = (el: AgentChat) => $(el, '[part="error"]')?.textContent ?? '';
  const retry = (el: AgentChat) => $(el, '[part="retry-button"]') as HTMLButtonElement | null;

  for (const how of ['404', 'syntax', 'throws'] as const) {
    it(`the panel (${how}): "Part of the chat could not load", and Retry brings the chat`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Here I am.' }] });
      const el = await openPage({ key, bundle: `dist-broken-${how}-panel`, mode: 'launcher' });
      ($(el, '[part="launcher"]') as HTMLButtonElement).click();
      await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
      retry(el)!.click();
      await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'the panel after Retry');
      expect(notice(el)).to.equal('');
      await sendByUser(el, 'and now?');
      await until(() => el.messages.at(-1)?.text === 'Here I am.' || notice(el), 'a reply or a notice');
      expect(notice(el)).to.equal('');
    });

    it(`the turns (${how}): the question back in the text field, and Retry sends it`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Sent after all.' }] });
      const el = await openPage({ key, bundle: `dist-broken-${how}-turns` });
      await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'not ready');
      await sendByUser(el, 'keep this');
      await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
      expect(input(el).value).to.equal('keep this');
      retry(el)!.click();
      await until(() => el.messages.at(-1)?.text === 'Sent after all.', 'the reply after Retry');
      expect(input(el).value).to.equal('');
    });

    it(`the streaming code (${how}): the question back, and Retry sends it`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Streamed after all.' }] });
      const el = await openPage({ key, bundle: `dist-broken-${how}-stream` });
      await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'not ready');
      await sendByUser(el, 'keep this too');
      await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
      retry(el)!.click();
      await until(() => el.messages.at(-1)?.text === 'Streamed after all.', 'the reply after Retry');
    });

    it(`the markdown lexer (${how}): markdown as its text, said, and Retry draws it`, async () => {
      const key = await createKey({ welcome: 'Ask me about **shoes**.' });
      const el = await openPage({ key, bundle: `dist-broken-${how}-lex` });
      await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
      const welcome = () => $(el, '[part~="welcome"] [part="text"]');
      expect(welcome()!.textContent).to.equal('Ask me about **shoes**.');
      retry(el)!.click();
      await until(() => welcome()?.querySelector('strong'), 'the welcome drawn after Retry');
      expect(welcome()!.textContent).to.equal('Ask me about shoes.');
      expect(notice(el)).to.equal('');
    });

    it(`a feature (feedback, ${how}): said, not silently gone, and Retry brings the thumbs`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Rate me.' }] });
      const el = await openPage({ key, bundle: `dist-broken-${how}-feedback`, feedback: '' });
      await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'not ready');
      await sendByUser(el, 'hello');
      await until(() => el.messages.at(-1)?.text === 'Rate me.', 'the reply');
      await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
      expect($(el, '[part~="feedback-up"]')).to.equal(null);
      retry(el)!.click();
      await until(() => $(el, '[part~="feedback-up"]'), 'the thumbs after Retry');
      expect(notice(el)).to.equal('');
    });
  }

  it("a chunk that feature chunks share (the small buttons' stylesheet, 404): said, and Retry brings the thumbs", async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Rate me.' }] });
    const el = await openPage({ key, bundle: 'dist-broken-404-small-buttons', feedback: '' });
    await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'not ready');
    await sendByUser(el, 'hello');
    await until(() => el.messages.at(-1)?.text === 'Rate me.', 'the reply');
    await until(() => notice(el).includes('Part of the chat could not load'), `the notice: ${notice(el)}`);
    retry(el)!.click();
    await until(() => $(el, '[part~="feedback-up"]'), 'the thumbs after Retry');
    // Each feature that shares it (the thumbs, the copy button, the turn controls) arrives on its own.
    await until(
      () => notice(el) === '' && $(el, '[part="copy-button"]') && $(el, '[part="regenerate-button"]'),
      `all of them: ${notice(el)}`,
    );
  });

  it('the export (404): exportTranscript() rejects saying so, a later call after the pause succeeds, and the chat goes on', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Still here.' }] });
    const el = await openPage({ key, bundle: 'dist-broken-404-export' });
    await until(() => el.status === 'idle' && $(el, '[part="input"]'), 'not ready');
    // Asked before any message (which would fetch it too): this call's fetch is the one that fails.
    const error = await el.exportTranscript().then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('agent-chat: the export could not be loaded.');
    await sendByUser(el, 'hello');
    await until(() => el.messages.at(-1)?.text === 'Still here.', 'the reply');
    // Past the pause after a failure (src/lazy.ts), a call fetches it again (`?retry=1`, served).
    await until(async () => (await el.exportTranscript().catch(() => ''))?.includes('Still here.'), 'the export after the pause');
  });
});
