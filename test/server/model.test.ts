import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { ErrorEventDetail, MessageDetail } from '../../src/index.js';
import { $, agentTexts, collect, mount, unmountAll, until } from '../support/element.js';
import { forgetStorage } from '../support/server.js';
import { english } from '../support/english.js';

/**
 * The reference server answering through an OpenAI-compatible model (server/src/agents/model-agent.ts),
 * against a fake one the test starts on the loopback address (test/support/fake-openai.ts),
 * driven through the widget as a visitor would. Both browsers share the fake: every
 * question carries a marker of its own, and a test reads only the requests with it. What a
 * REST caller gets of a model's failure is tested in Node (server/test/http-model.test.ts).
 */

interface ModelRequest {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  authorization: string | undefined;
}

const { base } = (await executeServerCommand('model-agent')) as { base: string };
const BASE = `${location.origin}${base}`;

let serial = 0;
const marker = () => `m${Date.now().toString(36)}${++serial}${Math.random().toString(36).slice(2, 6)}`;

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('') : '';

async function requestsWith(mark: string): Promise<ModelRequest[]> {
  const all = ((await executeServerCommand('model-agent-requests')) ?? []) as ModelRequest[];
  return all.filter((r) => textOf(r.messages.at(-1)?.content).includes(mark));
}

async function modelKey(plan: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${BASE}/__demo/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  return ((await res.json()) as { publishable_key: string }).publishable_key;
}

async function chat(plan: Record<string, unknown> = {}, attrs: Record<string, string> = {}) {
  return mount({ 'base-url': BASE, 'publishable-key': await modelKey(plan), ...attrs });
}

describe('the reference server with a model', () => {
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  it('streams the model’s reply, with the welcome and static variables as its system prompt and its usage counted', async () => {
    const el = await chat({}, { 'agent-variables': JSON.stringify({ static: { name: 'Ada', plan: 'gold' }, dynamic: { page: '/cart' } }) });
    const messages = collect<MessageDetail>(el, 'agent-chat-message');
    const mark = marker();
    await el.send(`Hello model ${mark}`);
    await until(() => messages.length === 1, 'the reply did not complete');
    const reply = messages[0]!.message;
    expect(reply.text).to.equal(`Echo: Hello model ${mark}`);
    expect([reply.input_tokens, reply.output_tokens]).to.deep.equal([42, 7]);
    expect(agentTexts(el).at(-1)).to.contain(`Echo: Hello model ${mark}`);

    const [request] = await requestsWith(mark);
    expect(request!.model).to.equal('fake-model');
    expect(request!.authorization).to.equal('Bearer sk-test');
    const system = textOf(request!.messages[0]!.content);
    expect(request!.messages[0]!.role).to.equal('system');
    expect(system).to.contain('Hi Ada!');
    expect(system).to.contain('- plan: gold');
    expect(system).not.to.contain('/cart');
  });

  it('sends the thread’s earlier turns along as context', async () => {
    const el = await chat();
    const messages = collect<MessageDetail>(el, 'agent-chat-message');
    const first = marker();
    await el.send(`first ${first}`);
    await until(() => messages.length === 1);
    const second = marker();
    await el.send(`second ${second}`);
    await until(() => messages.length === 2);
    const [request] = await requestsWith(second);
    const turns = request!.messages.slice(1).map((m) => [m.role, textOf(m.content)]);
    expect(turns).to.deep.equal([
      ['user', `first ${first}`],
      ['assistant', `Echo: first ${first}`],
      ['user', `second ${second}`],
    ]);
  });

  it('resumes a dropped stream from the buffer: the model is asked once and no text repeats', async () => {
    const el = await chat({ dropAfter: [3] });
    const messages = collect<MessageDetail>(el, 'agent-chat-message');
    const mark = marker();
    await el.send(`one two three four five six ${mark}`);
    await until(() => messages.length === 1, 'the resumed reply did not complete');
    expect(agentTexts(el).at(-1)).to.contain(`Echo: one two three four five six ${mark}`);
    expect(messages[0]!.message.text).to.equal(`Echo: one two three four five six ${mark}`);
    expect((await requestsWith(mark)).length).to.equal(1);
  });

  it('regenerates a reply by asking the model again with the thread up to that question', async () => {
    const el = await chat();
    const messages = collect<MessageDetail>(el, 'agent-chat-message');
    const mark = marker();
    await el.send(`again ${mark}`);
    await until(() => messages.length === 1);
    await until(() => $(el, '[part="regenerate-button"]'), 'no Regenerate button');
    $(el, '[part="regenerate-button"]')!.click();
    await until(() => messages.length === 2, 'the regenerated reply did not complete');
    const requests = await requestsWith(mark);
    expect(requests.length).to.equal(2);
    expect(requests[1]!.messages.slice(1).map((m) => m.role)).to.deep.equal(['user']);
    expect(messages[1]!.message.text).to.equal(`Echo: again ${mark}`);
  });

  it('turns a rate-limited model into an error frame the widget offers to retry', async () => {
    const el = await chat();
    const errors = collect<ErrorEventDetail>(el, 'agent-chat-error');
    await el.send(`busy ${marker()}`);
    await until(() => errors.length === 1, 'no error');
    expect(errors[0]!.status).to.equal(429);
    expect(errors[0]!.code).to.equal('agents.model_rate_limited');
    expect(errors[0]!.retryable).to.equal(true);
    expect(errors[0]!.requestId, 'the request that started the turn').to.match(/^req_/);
    await until(() => $(el, '[part="error"]'), 'no notice');
    // The assistant is busy: not "too many messages", which blames a visitor who sent one; and
    // for as long as the model's Retry-After said (20 s, a second or so gone by now).
    expect($(el, '[part="error"]')!.textContent).to.match(/The assistant is busy right now\. Try again in (19|20) s\./);
  });

  for (const [what, question, code, text] of [
    ['cannot be reached', 'down', 'agents.model_unavailable', english.errorModelUnavailable],
    ['answers 200 with an HTML page', 'html', 'agents.model_error', english.errorModelFailed],
  ] as const) {
    it(`a model that ${what} before any text: the notice names the assistant, the console the service's words`, async () => {
      const el = await chat();
      const errors = collect<ErrorEventDetail>(el, 'agent-chat-error');
      const warned: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
      try {
        await el.send(`${question} ${marker()}`);
        await until(() => errors.length === 1, 'no error');
        await until(() => $(el, '[part="error"]'), 'no notice');
      } finally {
        console.warn = warn;
      }
      expect(errors[0]!.code).to.equal(code);
      expect($(el, '[part="error"]')!.textContent).to.contain(text).and.not.contain(english.errorStreamInterrupted);
      expect(warned.some((line) => line.includes(code))).to.equal(true);
    });
  }

  it('turns a model that drops mid-reply into a cut reply, with a Retry that works now', async () => {
    const el = await chat();
    const errors = collect<ErrorEventDetail>(el, 'agent-chat-error');
    await el.send(`broken ${marker()}`);
    await until(() => errors.length === 1, 'no error');
    expect(errors[0]).to.include({ status: 502, code: 'agents.model_interrupted' });
    expect(errors[0]!.requestId).to.match(/^req_/);
    expect(el.status).to.equal('error');
    await until(() => $(el, '[part="error"]'), 'no notice');
    // Not "unavailable, try again later" beside a Retry that works at once.
    expect($(el, '[part="error"]')!.textContent).to.contain(english.errorStreamInterrupted).and.not.contain('later');
    expect($(el, '[part="retry-button"]')).not.to.equal(null);
  });

  for (const [what, question, code, status] of [
    ['answers with headers, then nothing', 'hangs', 'agents.model_timeout', 504],
    ['never answers', 'silent', 'agents.model_timeout', 504],
    ['answers 200 with an HTML page', 'html', 'agents.model_error', 502],
    ['ends its stream without a finish reason', 'unfinished', 'agents.model_interrupted', 502],
  ] as const) {
    it(`a model that ${what}: an error frame with its code, a notice, no reply recorded as complete`, async () => {
      const el = await chat();
      const errors = collect<ErrorEventDetail>(el, 'agent-chat-error');
      const replies = collect<MessageDetail>(el, 'agent-chat-message');
      await el.send(`${question} ${marker()}`);
      await until(() => errors.length === 1, 'no error', 10_000);
      expect(errors[0]).to.include({ code, status });
      await until(() => $(el, '[part="error"]'), 'no notice');
      expect(replies, 'no reply completed').to.have.length(0);
      expect(el.messages.filter((m) => m.role === 'agent' && m.state === 'done')).to.have.length(0);
    });
  }
});
