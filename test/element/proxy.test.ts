import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { AgentChat } from '../../src/agent-chat.js';
import { agentTexts, mount, type, unmountAll, until, $ } from '../support/element.js';
import { createKey, keyStats } from '../support/server.js';

/**
 * Replies through a real nginx (Debian's package, started by the runner:
 * web-test-runner.config.mjs "nginx"), issue #39 item 4. nginx as installed buffers every
 * response; the stream's `X-Accel-Buffering: no` is what lets its deltas through as they
 * are written. An idle timeout that cuts a quiet reply is survived by resume, and a proxy
 * that buffers anyway still shows the reply whole, and the page's developer is told once.
 */

const WORDS = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
const NOTE = /arrived all at once/;

describe('a reply through a real nginx', function () {
  // nginx starts once for the run; a reply here takes about 2 s.
  this.timeout(30_000);
  let ports: { defaults: number; idle: number; buffering: number };
  let notes: string[];
  let debug: typeof console.debug;

  before(async () => {
    ports = (await executeServerCommand('nginx')) as typeof ports;
  });
  beforeEach(() => {
    notes = [];
    debug = console.debug;
    console.debug = (...args: unknown[]) => void notes.push(args.map(String).join(' '));
  });
  afterEach(() => {
    console.debug = debug;
    unmountAll();
  });

  const through = (port: number, key: string) =>
    mount({ 'base-url': `http://127.0.0.1:${port}`, 'publishable-key': key, transport: 'sse' });

  /** Sends `text` and records, each animation frame until the turn is over, how much of the reply shows. */
  async function ask(el: AgentChat, text: string): Promise<number[]> {
    await type(el, text);
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    const shown: number[] = [];
    await until(
      () => {
        const reply = el.messages.at(-1);
        if (reply?.role === 'agent' && reply.text.length && shown.at(-1) !== reply.text.length) shown.push(reply.text.length);
        return el.status === 'idle' && reply?.state === 'done';
      },
      () => `the reply to end: ${JSON.stringify([el.status, agentTexts(el)])}`,
      20_000,
    );
    return shown;
  }

  it('with its default settings: the deltas show as they are sent', async () => {
    const key = await createKey({ paceMs: 100, replies: [{ text: WORDS }] });
    const el = await through(ports.defaults, key);
    const shown = await ask(el, 'tell me');
    // 20 words 100 ms apart: a buffered reply would show once, whole.
    expect(shown.length, `lengths shown: ${shown.join(', ')}`).to.be.greaterThan(8);
    expect(agentTexts(el)).to.deep.equal([WORDS]);
    expect(notes.filter((n) => NOTE.test(n))).to.deep.equal([]);
  });

  it('an idle timeout that cuts a quiet reply: resumed, shown whole, run once', async () => {
    // The first connection falls silent after 6 frames; nginx closes it a second later.
    const key = await createKey({ paceMs: 50, stallAfter: 6, replies: [{ text: WORDS }] });
    const el = await through(ports.idle, key);
    await ask(el, 'tell me');
    expect(agentTexts(el)).to.deep.equal([WORDS]);
    const stats = await keyStats(key);
    const streams = stats.requests.filter((r) => r.path === '/messaging/v1/messages/stream');
    expect(streams.map((r) => r.lastEventId !== null)).to.deep.equal([false, true]);
    expect(stats.turnsRun).to.equal(1);
  });

  it('a proxy that buffers anyway: the reply shows whole, and the console says why once', async () => {
    const key = await createKey({ paceMs: 100, replies: [{ text: WORDS }, { text: WORDS }] });
    const el = await through(ports.buffering, key);
    expect(await ask(el, 'tell me')).to.deep.equal([WORDS.length]);
    expect(await ask(el, 'and again')).to.deep.equal([WORDS.length]);
    expect(agentTexts(el)).to.deep.equal([WORDS, WORDS]);
    expect(notes.filter((n) => NOTE.test(n))).to.have.length(1);
  });
});
