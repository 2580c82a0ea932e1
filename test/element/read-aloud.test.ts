import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, $$, mount, openLauncher, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/** An utterance as the fake speaks it: what the widget set on it. */
class FakeUtterance {
  lang = '';
  onend: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly text: string) {}
}

/**
 * A fake of the browser's speech synthesis: it speaks one utterance at a time, as the real
 * one does, and the test says when it has finished. `cancel()` ends what it speaks with an
 * `interrupted` error, as Chromium and Firefox do.
 */
class FakeSynthesis {
  spoken: FakeUtterance[] = [];
  speaking: FakeUtterance | null = null;
  cancels = 0;
  speak(utterance: FakeUtterance): void {
    this.spoken.push(utterance);
    this.speaking = utterance;
  }
  cancel(): void {
    this.cancels++;
    const utterance = this.speaking;
    this.speaking = null;
    utterance?.onerror?.({ error: 'interrupted' });
  }
  /** The utterance being spoken reaches its end. */
  finish(): void {
    const utterance = this.speaking;
    this.speaking = null;
    utterance?.onend?.({});
  }
}

const REPLY = 'The **Dome** tent sleeps two. See [the list](https://example.com/tents) for `more`.';

describe('read a reply aloud (read-aloud)', () => {
  let synth: FakeSynthesis;
  const w = window as unknown as Record<string, unknown>;
  const native = {
    speechSynthesis: Object.getOwnPropertyDescriptor(window, 'speechSynthesis'),
    SpeechSynthesisUtterance: Object.getOwnPropertyDescriptor(window, 'SpeechSynthesisUtterance'),
  };

  /** Speech synthesis as the page has it for a test: the fake, or none at all. */
  function install(value: FakeSynthesis | undefined): void {
    Object.defineProperty(window, 'speechSynthesis', { value, configurable: true, writable: true });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: value && FakeUtterance, configurable: true, writable: true });
  }

  beforeEach(() => install((synth = new FakeSynthesis())));
  afterEach(() => {
    unmountAll();
    for (const [name, descriptor] of Object.entries(native)) {
      if (descriptor) Object.defineProperty(window, name, descriptor);
      else delete w[name];
    }
  });

  async function conversation(attrs: Record<string, string>, replies: string[]): Promise<AgentChat> {
    const key = await createKey({ paceMs: 0, replies: replies.map((text) => ({ text })) });
    const el = await mount({ 'publishable-key': key, 'read-aloud': '', ...attrs });
    for (const [i] of replies.entries()) await sendByUser(el, `question ${i}`);
    await until(() => $$(el, '[part="read-aloud-button"]').length === replies.length, 'not one read-aloud button per reply');
    return el;
  }

  const buttons = (el: AgentChat) => $$(el, '.message.agent:not(.welcome) [part="read-aloud-button"]');

  it("reads a finished reply's plain text in the widget's language; pressing again stops", async () => {
    const el = await conversation({ lang: 'de' }, [REPLY]);
    const [button] = buttons(el);
    expect(button!.getAttribute('aria-label')).to.equal('Vorlesen');
    expect(button!.getAttribute('aria-pressed')).to.equal('false');
    button!.click();
    await until(() => synth.speaking, 'nothing spoken');
    expect(synth.spoken.map((u) => u.text)).to.deep.equal(['The Dome tent sleeps two. See the list for more.']);
    expect(synth.spoken[0]!.lang).to.equal('de');
    expect(button!.getAttribute('aria-pressed')).to.equal('true');
    expect(button!.getAttribute('title')).to.equal('Vorlesen beenden');

    button!.click();
    await el.updateComplete;
    expect(synth.speaking, 'still speaking').to.equal(null);
    expect(button!.getAttribute('aria-pressed')).to.equal('false');
    expect(synth.spoken).to.have.length(1);
  });

  it('reads a long reply as short utterances, one after the other, and is done after the last', async () => {
    const sentence = 'This sentence is about the tent and what it is good for in the rain. ';
    const el = await conversation({}, [sentence.repeat(8)]);
    const [button] = buttons(el);
    button!.click();
    await until(() => synth.speaking, 'nothing spoken');
    expect(synth.spoken, 'the whole reply queued at once').to.have.length(1);
    while (synth.speaking) synth.finish();
    await el.updateComplete;
    expect(synth.spoken.length).to.be.greaterThan(2);
    for (const u of synth.spoken) expect(u.text.length).to.be.at.most(200);
    expect(synth.spoken.map((u) => u.text).join(' ')).to.equal(sentence.repeat(8).trim());
    expect(button!.getAttribute('aria-pressed'), 'still shown as reading').to.equal('false');
  });

  it('reads one reply at a time: another one stops the first', async () => {
    const el = await conversation({}, ['First reply.', 'Second reply.']);
    const [first, second] = buttons(el);
    first!.click();
    await until(() => synth.speaking, 'nothing spoken');
    second!.click();
    await until(() => synth.speaking?.text === 'Second reply.', 'the second reply is not read');
    expect(synth.spoken.map((u) => u.text)).to.deep.equal(['First reply.', 'Second reply.']);
    expect(synth.speaking!.text).to.equal('Second reply.');
    expect(first!.getAttribute('aria-pressed')).to.equal('false');
    expect(second!.getAttribute('aria-pressed')).to.equal('true');
    // The first one's end (its cancellation) does not end the second.
    synth.finish();
    await el.updateComplete;
    expect(second!.getAttribute('aria-pressed')).to.equal('false');
  });

  it('stops when the launcher panel closes, and when the conversation changes', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'A reply to hear.' }] });
    const el = await mount({ 'publishable-key': key, 'read-aloud': '', mode: 'launcher' });
    await openLauncher(el);
    await sendByUser(el, 'hello');
    await until(() => buttons(el).length === 1, 'no read-aloud button');
    buttons(el)[0]!.click();
    await until(() => synth.speaking, 'nothing spoken');
    el.close();
    await el.updateComplete;
    expect(synth.speaking, 'still speaking with the panel closed').to.equal(null);

    el.open();
    await el.updateComplete;
    buttons(el)[0]!.click();
    await until(() => synth.speaking, 'nothing spoken');
    el.newThread();
    await el.updateComplete;
    expect(synth.speaking, 'still speaking in a new conversation').to.equal(null);
  });

  it('is not offered without read-aloud, nor where the browser has no speech synthesis', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'One.' }, { text: 'Two.' }] });
    const off = await mount({ 'publishable-key': key });
    await sendByUser(off, 'hi');
    await until(() => $(off, '[part="copy-button"]'), 'no reply');
    expect($(off, '[part="read-aloud-button"]')).to.equal(null);
    unmountAll();

    install(undefined);
    const el = await mount({ 'publishable-key': key, 'read-aloud': '' });
    await sendByUser(el, 'hi');
    await until(() => $(el, '[part="copy-button"]'), 'no reply');
    await el.updateComplete;
    expect($(el, '[part="read-aloud-button"]')).to.equal(null);
  });
});
