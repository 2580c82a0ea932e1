import { describe, expect, it } from 'vitest';
import type { Message, SendMessageResponse } from '@agent-chat/wire';
import { envelope, ORIGIN, reference } from './support.js';

/**
 * REST messaging (a whole turn, the transcript, the welcome and the suggestions) and how
 * the service refuses what it cannot take, in Node through `app.fetch` (moved from the
 * browser suite, issue #38 item 8). What needs a real browser's fetch, a cross-origin
 * request's preflight and exposed headers, stays there (test/server/cross-origin.test.ts).
 */

const HEX = /^[0-9a-f]{24}$/;

/** `value` lies within [low, high], as chai's `within`. */
function expectWithin(value: number, low: number, high: number): void {
  expect(value).toBeGreaterThanOrEqual(low);
  expect(value).toBeLessThanOrEqual(high);
}

/** A server and a minted key's token; `send` posts a whole turn and insists on a 200. */
async function setup(plan: Record<string, unknown> = {}) {
  const ref = await reference();
  const minted = await ref.mint(plan);
  const send = (body: Record<string, unknown>, token = minted.token) =>
    ref.json<SendMessageResponse>('/messaging/v1/messages', { token, body });
  return { ref, ...minted, send };
}

describe('reference server: REST messaging', () => {
  it('runs a whole turn and returns {thread_id, message}', async () => {
    const { ref, key, send } = await setup({ paceMs: 0 });
    const { thread_id, message } = await send({ text: 'Show me running shoes', user_id: 'u-1' });
    expect(thread_id).toMatch(HEX);
    expect(message.id).toMatch(HEX);
    expect(message.sender).toEqual({ type: 'agent' });
    expect(message.receiver).toMatchObject({ type: 'user', id: 'u-1' });
    expect(Math.abs(Date.parse(message.created_at!) - Date.now())).toBeLessThanOrEqual(60_000);
    expect(message.text).toContain('**');
    expectWithin(message.cards!.length, 2, 4);
    expect(message.cards!.filter((c) => c.is_recommended)).toHaveLength(1);
    expect(message.cards!.map((c) => c.index)).toEqual(message.cards!.map((_, i) => i));
    const card = message.cards![0]!;
    expect(Object.keys(card.json_data.entity)).toEqual(
      expect.arrayContaining(['title', 'image_url', 'price', 'url', 'description', 'brand', 'rating']),
    );
    // Absolute, on the origin the request reached, and actually served.
    const image = String(card.json_data.entity['image_url']);
    expect(image.startsWith(`${ORIGIN}/__demo/images/`)).toBe(true);
    const picture = await ref.call(image.slice(ORIGIN.length));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toContain('image/svg+xml');
    expect(card.json_data.sub_entities!.map((g) => g.name)).toEqual(['Sizes', 'Colours']);
    expect(card.rendered_jsx).toMatch(/^<ProductCard /);
    expectWithin(message.followup_suggestions!.length, 2, 4);
    expect(message.input_tokens).toBeGreaterThan(0);
    expect(message.output_tokens).toBeGreaterThan(0);
    expect((await ref.stats(key)).turnsRun).toBe(1);
  });

  it('continues a thread and keeps a chronological transcript with shared interaction ids', async () => {
    const { ref, token, send } = await setup({ paceMs: 0 });
    const first = await send({ text: 'hello', user_id: 'u-2' });
    const second = await send({ text: 'compare jackets', user_id: 'u-2', thread_id: first.thread_id });
    expect(second.thread_id).toBe(first.thread_id);
    expect(second.message.text).toContain('|---|');

    const res = await ref.call(`/messaging/v1/threads/${first.thread_id}/messages`, { token });
    expect(res.status).toBe(200);
    const transcript = (await res.json()) as Message[];
    expect(transcript.map((m) => m.sender.type)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(transcript.map((m) => m.text)).toEqual(expect.arrayContaining(['hello', 'compare jackets']));
    expect(transcript.map((m) => m.id)).toEqual([first.message.id, first.message.id, second.message.id, second.message.id]);
    expect(transcript[0]!.sender).toEqual({ type: 'user', id: 'u-2' });
    expect(transcript[3]).toEqual(second.message);
    const times = transcript.map((m) => Date.parse(m.created_at!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('scripts markdown by keyword: help list, code block, generic reply with links', async () => {
    const { send } = await setup({ paceMs: 0 });
    expect((await send({ text: 'help', user_id: 'u' })).message.text).toMatch(/^- \*\*/m);
    expect((await send({ text: 'how do I embed the widget? code please', user_id: 'u' })).message.text).toContain('```html');
    expect((await send({ text: 'show me the api', user_id: 'u' })).message.text).toContain('```ts');
    const generic = (await send({ text: 'what is the meaning of life', user_id: 'u' })).message;
    expect(generic.text).toMatch(/\[[^\]]+\]\(https:\/\//);
    expectWithin(generic.followup_suggestions!.length, 2, 4);
  });

  it('uses agent_variables (dynamic wins) and acknowledges an image', async () => {
    const { send } = await setup({ paceMs: 0 });
    const named = await send({
      text: 'hi',
      user_id: 'u',
      agent_variables: { static: { name: 'Static' }, dynamic: { name: 'Dyna' } },
    });
    expect(named.message.text).toContain('Dyna');
    expect(named.message.text).not.toContain('Static');
    const image = await send({ text: 'jackets?', user_id: 'u', image_url: 'https://img.example/x.png' });
    expect(image.message.text).toContain('I can see your image');
  });

  it('serves the welcome template with placeholders, or the key override', async () => {
    const { ref, token } = await setup();
    const { welcome_message } = await ref.json<{ welcome_message: string }>('/messaging/v1/welcome-message', { token });
    expect(welcome_message).toMatch(/^Hi \{\{name\}\}! I'm the Trailhead shop assistant/);
    const custom = await ref.mint({ welcome: 'Howdy' });
    expect(await ref.json('/messaging/v1/welcome-message', { token: custom.token })).toEqual({ welcome_message: 'Howdy' });
  });

  it('tailors follow-up suggestions to the context', async () => {
    const { ref, token } = await setup();
    const suggest = (body: unknown, as = token) => ref.call('/messaging/v1/followup-suggestions', { token: as, body });
    const plain = (await (await suggest({})).json()) as { suggestions: string[] };
    expectWithin(plain.suggestions.length, 2, 4);
    // No body at all is an empty one.
    const empty = await ref.call('/messaging/v1/followup-suggestions', { token, method: 'POST' });
    expect(empty.status).toBe(200);
    const product = (await (
      await suggest({ context: { title: 'Stormline Shell | Trailhead', url: 'https://shop.example/products/stormline-shell' } })
    ).json()) as { suggestions: string[] };
    expect(product.suggestions.join(' ')).toContain('Stormline Shell');
    const custom = await ref.mint({ suggestions: ['one', 'two'] });
    expect(await (await suggest({}, custom.token)).json()).toEqual({ suggestions: ['one', 'two'] });
    const bad = await envelope(await suggest({ context: 'x' }), 422);
    expect(bad.details![0]!.field).toBe('context');
  });
});

describe('reference server: validation and errors', () => {
  it('rejects agent_id on send and stream with a detail on agent_id', async () => {
    const { ref, key, token } = await setup();
    const body = { text: 'hi', user_id: 'u', agent_id: '0123456789abcdef01234567' };
    for (const path of ['/messaging/v1/messages', '/messaging/v1/messages/stream']) {
      const error = await envelope(await ref.call(path, { token, body }), 422, 'validation_error');
      expect(error.details!.map((d) => d.field)).toEqual(['agent_id']);
    }
    expect((await ref.stats(key)).turnsRun).toBe(0);
  });

  it('reports every invalid field: empty text, missing user_id, bad thread_id, bad image_url', async () => {
    const { ref, token } = await setup();
    const error = await envelope(
      await ref.call('/messaging/v1/messages', { token, body: { text: '', thread_id: 'nope', image_url: 'javascript:alert(1)' } }),
      422,
      'validation_error',
    );
    expect(error.details!.map((d) => d.field).sort()).toEqual(['image_url', 'text', 'thread_id', 'user_id']);
    for (const d of error.details!) {
      expect(typeof d.message).toBe('string');
      expect(d.message).not.toBe('');
    }
  });

  it('limits text to 4000 characters', async () => {
    const { ref, token } = await setup({ paceMs: 0 });
    const error = await envelope(await ref.call('/messaging/v1/messages', { token, body: { text: 'x'.repeat(4001), user_id: 'u' } }), 422);
    expect(error.details![0]!.field).toBe('text');
    expect((await ref.call('/messaging/v1/messages', { token, body: { text: 'x'.repeat(4000), user_id: 'u' } })).status).toBe(200);
  });

  it('answers 400 invalid_json, 413 payload_too_large and 422 for a non-object body', async () => {
    const { ref, token } = await setup();
    // String bodies are sent as they are, not JSON-encoded.
    await envelope(await ref.call('/messaging/v1/messages', { token, body: '{"text":' }), 400, 'invalid_json');
    await envelope(await ref.call('/messaging/v1/messages', { token, body: 'x'.repeat(70 * 1024) }), 413, 'payload_too_large');
    await envelope(await ref.call('/messaging/v1/messages', { token, body: [1, 2] }), 422, 'validation_error');
    await envelope(await ref.call('/messaging/v1/messages', { token, method: 'POST' }), 422, 'validation_error');
  });

  it('answers 422 for malformed path ids and 404 for unknown ones', async () => {
    const { ref, token } = await setup();
    const bad = await envelope(await ref.call('/messaging/v1/threads/xyz/messages', { token }), 422);
    expect(bad.details![0]!.field).toBe('thread_id');
    await envelope(await ref.call('/messaging/v1/threads/0123456789abcdef01234567/messages', { token }), 404, 'not_found');
    await envelope(
      await ref.call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: 'u', thread_id: '0123456789abcdef01234567' } }),
      404,
      'not_found',
    );
  });

  it('keeps threads private to the agent of the token', async () => {
    const { ref, token, send } = await setup({ paceMs: 0 });
    // Another key: another agent.
    const theirs = await ref.mint({ paceMs: 0 });
    const { thread_id } = await send({ text: 'hi', user_id: 'u' });
    await envelope(await ref.call(`/messaging/v1/threads/${thread_id}/messages`, { token: theirs.token }), 404, 'not_found');
    await envelope(
      await ref.call('/messaging/v1/messages', { token: theirs.token, body: { text: 'hi', user_id: 'u', thread_id } }),
      404,
      'not_found',
    );
    const upper = await ref.call(`/messaging/v1/threads/${thread_id.toUpperCase()}/messages`, { token });
    expect(upper.status).toBe(200);
  });

  it('answers unknown routes with a 404 envelope, on every surface', async () => {
    const { ref, token } = await setup();
    await envelope(await ref.call('/messaging/v1/nothing-here', { token }), 404, 'not_found');
    await envelope(await ref.call('/management/v1/nothing-here'), 404, 'not_found');
    await envelope(await ref.call('/__demo/nothing-here'), 404, 'not_found');
  });
});
