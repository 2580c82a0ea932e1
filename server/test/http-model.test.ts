import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, reference } from './support.js';
import { retryAfterOf } from '../src/agents/model-agent.js';

/**
 * The reference server answering through an OpenAI-compatible model, seen by a REST caller,
 * in Node through `app.fetch` (moved from test/server/model.test.ts, issue #38 item 8: the
 * widget's side of a model's failures stays in the browser). The model is scripted through
 * the `fetch` the `openai` client is handed, as in management.test.ts, and answers as
 * test/support/fake-openai.ts does: "busy" is a 429, anything else `Echo: <question>`.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const FAKE_USAGE = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };

async function scriptedModel(_url: unknown, init?: RequestInit): Promise<Response> {
  const request = JSON.parse(String(init?.body)) as { model: string; messages: Array<{ content: string }> };
  const question = request.messages.at(-1)!.content;
  if (question.includes('busy')) {
    return new Response(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '20' },
    });
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const words = `Echo: ${question}`.match(/\s*\S+/g) ?? [];
  const frames = [
    chunk({ role: 'assistant', content: '' }),
    ...words.map((word) => chunk({ content: word })),
    chunk({}, 'stop'),
    { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: request.model, choices: [], usage: FAKE_USAGE },
  ];
  const body = frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('');
  return new Response(`${body}data: [DONE]\n\n`, { headers: { 'content-type': 'text/event-stream' } });
}

describe('the reference server with a model', () => {
  it('answers a REST caller with the error envelope of the model’s failure', async () => {
    // The server tells its operator of the model's failure on the console: not this test's output.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ref = await reference({
      model: { baseURL: 'http://model.test/v1', apiKey: 'sk-test', model: 'fake-model', fetch: scriptedModel },
    });
    const { token } = await ref.mint();
    const send = (text: string) => ref.call('/messaging/v1/messages', { token, body: { text, user_id: 'u1' } });
    const busy = await send('busy');
    // The model's Retry-After, passed on.
    expect(busy.headers.get('retry-after')).toBe('20');
    await envelope(busy, 429, 'agents.model_rate_limited');
    const ok = await send('fine');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { message: { text: string } }).message.text).toBe('Echo: fine');
  });

  it('streams the model’s failure as an error frame with its wait and the request that started the turn', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ref = await reference({
      model: { baseURL: 'http://model.test/v1', apiKey: 'sk-test', model: 'fake-model', fetch: scriptedModel },
    });
    const { token } = await ref.mint();
    const res = await ref.call('/messaging/v1/messages/stream', { token, body: { text: 'busy', user_id: 'u1' } });
    const error = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; data: Record<string, unknown> })
      .find((frame) => frame.type === 'error');
    expect(error?.data).toEqual({
      message: 'The model is busy. Try again in a moment.',
      status: 429,
      code: 'agents.model_rate_limited',
      request_id: res.headers.get('x-request-id'),
      retry_after: 20,
    });
  });

  it('reads a model’s Retry-After as whole seconds, bounded', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    expect(retryAfterOf('20', now)).toBe(20);
    expect(retryAfterOf(' 0 ', now)).toBe(0);
    expect(retryAfterOf('Mon, 07 Dec 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterOf('999999', now)).toBe(3600);
    for (const odd of [null, undefined, '', 'soon', '-5', '1.5', 'Mon, 07 Dec 2026 09:00:00 GMT'])
      expect(retryAfterOf(odd, now), String(odd)).toBe(null);
  });
});
