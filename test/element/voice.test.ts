import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, input, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/**
 * A fake of the Web Speech API's recogniser: the test says what was heard. Installed as
 * `window.SpeechRecognition` for a test (Firefox has none of its own, so the button shows
 * there only with the fake).
 */
class FakeRecognition {
  static last: FakeRecognition | null = null;
  lang = '';
  continuous = false;
  interimResults = false;
  started = false;
  onresult: ((event: unknown) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  private results: Array<{ transcript: string; isFinal: boolean }> = [];

  start(): void {
    this.started = true;
    FakeRecognition.last = this;
  }
  stop(): void {
    setTimeout(() => this.onend?.(), 0);
  }
  aborted = false;
  abort(): void {
    this.aborted = true;
    setTimeout(() => this.onend?.(), 0);
  }
  /** Heard `transcript`: final, or interim (replaced by the next result). */
  hear(transcript: string, isFinal: boolean): void {
    const from = this.results.findIndex((r) => !r.isFinal);
    const index = from < 0 ? this.results.length : from;
    this.results.splice(index, this.results.length - index, { transcript, isFinal });
    const results = this.results.map((r) => Object.assign([{ transcript: r.transcript }], { isFinal: r.isFinal }));
    this.onresult?.({ resultIndex: index, results });
  }
  fail(error: string): void {
    this.onerror?.({ error });
    this.onend?.();
  }
}

type SpeechWindow = { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };

describe('dictation (voice)', () => {
  const w = window as unknown as SpeechWindow;
  const native = { SpeechRecognition: w.SpeechRecognition, webkitSpeechRecognition: w.webkitSpeechRecognition };

  beforeEach(() => {
    w.SpeechRecognition = FakeRecognition;
    FakeRecognition.last = null;
  });
  afterEach(() => {
    unmountAll();
    for (const [name, value] of Object.entries(native)) {
      if (value === undefined) delete (w as Record<string, unknown>)[name];
      else (w as Record<string, unknown>)[name] = value;
    }
  });

  async function widget(attrs: Record<string, string> = {}): Promise<AgentChat> {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Heard you.' }] });
    const el = await mount({ 'publishable-key': key, voice: '', ...attrs });
    await until(() => $(el, '[part="mic-button"]'), 'no mic button');
    return el;
  }

  it('puts what is heard into the text field as it is recognised, and sends nothing', async () => {
    const el = await widget({ lang: 'de' });
    const sent: unknown[] = [];
    el.addEventListener('agent-chat-send', (e) => sent.push(e));
    input(el).value = 'Hallo,';
    input(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    const mic = $(el, '[part="mic-button"]')!;
    expect(mic.getAttribute('aria-label')).to.equal('Diktieren');
    mic.click();
    await el.updateComplete;
    const recognition = FakeRecognition.last!;
    expect(recognition.started && recognition.interimResults && recognition.continuous).to.equal(true);
    expect(recognition.lang).to.equal('de');
    expect(mic.getAttribute('aria-pressed')).to.equal('true');

    recognition.hear('ich such', false);
    await el.updateComplete;
    expect(input(el).value).to.equal('Hallo, ich such');
    recognition.hear('ich suche Schuhe', true);
    recognition.hear('in Größe', false);
    await el.updateComplete;
    expect(input(el).value).to.equal('Hallo, ich suche Schuhe in Größe');

    mic.click(); // stop
    await until(() => mic.getAttribute('aria-pressed') === 'false', 'still listening');
    expect(sent).to.have.length(0);
  });

  it('stops with Escape, without closing the launcher', async () => {
    const el = await widget({ mode: 'launcher', open: '' });
    $(el, '[part="mic-button"]')!.click();
    await el.updateComplete;
    input(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => $(el, '[part="mic-button"]')!.getAttribute('aria-pressed') === 'false', 'Escape did not stop dictation');
    expect(el.isOpen).to.equal(true);
  });

  it('stops listening when the launcher closes or the conversation changes', async () => {
    const el = await widget({ mode: 'launcher', open: '' });
    $(el, '[part="mic-button"]')!.click();
    await el.updateComplete;
    const first = FakeRecognition.last!;
    el.close();
    await el.updateComplete;
    expect(first.aborted, 'the microphone is released when the panel closes').to.equal(true);

    el.open();
    await until(() => $(el, '[part="mic-button"]')!.getAttribute('aria-pressed') === 'false', 'still shown as listening');
    await sendByUser(el, 'hello');
    $(el, '[part="mic-button"]')!.click();
    await el.updateComplete;
    const second = FakeRecognition.last!;
    el.newThread();
    await el.updateComplete;
    expect(second.aborted, 'a new conversation ends dictation into the old draft').to.equal(true);
  });

  it('says so when the microphone is denied', async () => {
    const el = await widget();
    $(el, '[part="mic-button"]')!.click();
    await el.updateComplete;
    FakeRecognition.last!.hear('a few words first', true);
    FakeRecognition.last!.fail('not-allowed');
    await el.updateComplete;
    await el.updateComplete;
    const notice = $(el, '.voice-error')!;
    expect(notice.getAttribute('role')).to.equal('alert');
    expect(notice.textContent).to.match(/microphone is blocked/);
    expect($(el, '[part="mic-button"]')!.getAttribute('aria-pressed')).to.equal('false');
    // It stays until the reader moves on: typing clears it.
    input(el).value = 'typed';
    input(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '.voice-error')).to.equal(null);
  });

  it('drops words still to come once the reader sends', async () => {
    const el = await widget();
    $(el, '[part="mic-button"]')!.click();
    await el.updateComplete;
    const recognition = FakeRecognition.last!;
    recognition.hear('two tents', true);
    await el.updateComplete;
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => el.messages.some((m) => m.role === 'user' && m.text === 'two tents'), 'not sent');
    recognition.hear('please', false);
    await el.updateComplete;
    expect(input(el).value).to.equal('');
  });

  it('is not offered where the browser has no speech recognition, or without voice', async () => {
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, voice: '' });
    expect($(el, '[part="mic-button"]')).to.equal(null);
    w.SpeechRecognition = FakeRecognition;
    const other = await mount({ 'publishable-key': key });
    expect($(other, '[part="mic-button"]')).to.equal(null);
  });
});
