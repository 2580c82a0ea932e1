import { expect } from '@open-wc/testing';
import type { Message, SendMessageResponse } from '../../src/client/types.js';
import { keyStats } from '../support/server.js';
import { call, expectEnvelope, json, session } from './helpers.js';

const HEX = /^[0-9a-f]{24}$/;

async function send(token: string, body: Record<string, unknown>) {
  const res = await call('/messaging/v1/messages', { token, body });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  return json<SendMessageResponse>(res);
}

describe('reference server: REST messaging', () => {
  it('runs a whole turn and returns {thread_id, message}', async () => {
    const { key, token } = await session({ paceMs: 0 });
    const { thread_id, message } = await send(token, { text: 'Show me running shoes', user_id: 'u-1' });
    expect(thread_id).to.match(HEX);
    expect(message.id).to.match(HEX);
    expect(message.sender).to.deep.equal({ type: 'agent' });
    expect(message.receiver).to.deep.include({ type: 'user', id: 'u-1' });
    expect(Date.parse(message.created_at!)).to.be.closeTo(Date.now(), 60_000);
    expect(message.text).to.contain('**');
    expect(message.cards!.length).to.be.within(2, 4);
    expect(message.cards!.filter((c) => c.is_recommended)).to.have.length(1);
    expect(message.cards!.map((c) => c.index)).to.deep.equal(message.cards!.map((_, i) => i));
    const card = message.cards![0]!;
    expect(card.json_data.entity).to.include.keys('title', 'image_url', 'price', 'url', 'description', 'brand', 'rating');
    // Absolute, on the origin the request reached, and actually served.
    const image = String(card.json_data.entity['image_url']);
    expect(image.startsWith(`${location.origin}/__demo/images/`)).to.be.true;
    const picture = await fetch(image);
    expect(picture.headers.get('content-type')).to.contain('image/svg+xml');
    expect(card.json_data.sub_entities!.map((g) => g.name)).to.deep.equal(['Sizes', 'Colours']);
    expect(card.rendered_jsx).to.match(/^<ProductCard /);
    expect(message.followup_suggestions!.length).to.be.within(2, 4);
    expect(message.input_tokens).to.be.greaterThan(0);
    expect(message.output_tokens).to.be.greaterThan(0);
    expect((await keyStats(key)).turnsRun).to.equal(1);
  });

  it('continues a thread and keeps a chronological transcript with shared interaction ids', async () => {
    const { token } = await session({ paceMs: 0 });
    const first = await send(token, { text: 'hello', user_id: 'u-2' });
    const second = await send(token, { text: 'compare jackets', user_id: 'u-2', thread_id: first.thread_id });
    expect(second.thread_id).to.equal(first.thread_id);
    expect(second.message.text).to.contain('|---|');

    const res = await call(`/messaging/v1/threads/${first.thread_id}/messages`, { token });
    expect(res.status).to.equal(200);
    const transcript = await json<Message[]>(res);
    expect(transcript.map((m) => m.sender.type)).to.deep.equal(['user', 'agent', 'user', 'agent']);
    expect(transcript.map((m) => m.text)).to.deep.include.members(['hello', 'compare jackets']);
    expect(transcript.map((m) => m.id)).to.deep.equal([first.message.id, first.message.id, second.message.id, second.message.id]);
    expect(transcript[0]!.sender).to.deep.equal({ type: 'user', id: 'u-2' });
    expect(transcript[3]).to.deep.equal(second.message);
    const times = transcript.map((m) => Date.parse(m.created_at!));
    expect([...times].sort((a, b) => a - b)).to.deep.equal(times);
  });

  it('scripts markdown by keyword: help list, code block, generic reply with links', async () => {
    const { token } = await session({ paceMs: 0 });
    expect((await send(token, { text: 'help', user_id: 'u' })).message.text).to.match(/^- \*\*/m);
    expect((await send(token, { text: 'how do I embed the widget? code please', user_id: 'u' })).message.text).to.contain('```html');
    expect((await send(token, { text: 'show me the api', user_id: 'u' })).message.text).to.contain('```ts');
    const generic = (await send(token, { text: 'what is the meaning of life', user_id: 'u' })).message;
    expect(generic.text).to.match(/\[[^\]]+\]\(https:\/\//);
    expect(generic.followup_suggestions!.length).to.be.within(2, 4);
  });

  it('uses agent_variables (dynamic wins) and acknowledges an image', async () => {
    const { token } = await session({ paceMs: 0 });
    const named = await send(token, {
      text: 'hi',
      user_id: 'u',
      agent_variables: { static: { name: 'Static' }, dynamic: { name: 'Dyna' } },
    });
    expect(named.message.text).to.contain('Dyna').and.not.contain('Static');
    const image = await send(token, { text: 'jackets?', user_id: 'u', image_url: 'https://img.example/x.png' });
    expect(image.message.text).to.contain('I can see your image');
  });

  it('serves the welcome template with placeholders, or the key override', async () => {
    const { token } = await session();
    const res = await call('/messaging/v1/welcome-message', { token });
    expect((await json<{ welcome_message: string }>(res)).welcome_message).to.match(/^Hi \{\{name\}\}! I'm the Trailhead shop assistant/);
    const custom = await session({ welcome: 'Howdy' });
    expect(await json(await call('/messaging/v1/welcome-message', { token: custom.token }))).to.deep.equal({ welcome_message: 'Howdy' });
  });

  it('tailors follow-up suggestions to the context', async () => {
    const { token } = await session();
    const plain = await json<{ suggestions: string[] }>(await call('/messaging/v1/followup-suggestions', { token, body: {} }));
    expect(plain.suggestions.length).to.be.within(2, 4);
    const empty = await call('/messaging/v1/followup-suggestions', { token, method: 'POST' });
    expect(empty.status).to.equal(200);
    const product = await json<{ suggestions: string[] }>(
      await call('/messaging/v1/followup-suggestions', {
        token,
        body: { context: { title: 'Stormline Shell | Trailhead', url: 'https://shop.example/products/stormline-shell' } },
      }),
    );
    expect(product.suggestions.join(' ')).to.contain('Stormline Shell');
    const custom = await session({ suggestions: ['one', 'two'] });
    expect(await json(await call('/messaging/v1/followup-suggestions', { token: custom.token, body: {} }))).to.deep.equal({
      suggestions: ['one', 'two'],
    });
    const bad = await expectEnvelope(await call('/messaging/v1/followup-suggestions', { token, body: { context: 'x' } }), 422);
    expect(bad.details![0]!.field).to.equal('context');
  });
});

describe('reference server: validation and errors', () => {
  it('rejects agent_id on send and stream with a detail on agent_id', async () => {
    const { key, token } = await session();
    const body = { text: 'hi', user_id: 'u', agent_id: '0123456789abcdef01234567' };
    for (const path of ['/messaging/v1/messages', '/messaging/v1/messages/stream']) {
      const error = await expectEnvelope(await call(path, { token, body }), 422, 'validation_error');
      expect(error.details!.map((d) => d.field)).to.deep.equal(['agent_id']);
    }
    expect((await keyStats(key)).turnsRun).to.equal(0);
  });

  it('reports every invalid field: empty text, missing user_id, bad thread_id, bad image_url', async () => {
    const { token } = await session();
    const error = await expectEnvelope(
      await call('/messaging/v1/messages', { token, body: { text: '', thread_id: 'nope', image_url: 'javascript:alert(1)' } }),
      422,
      'validation_error',
    );
    expect(error.details!.map((d) => d.field).sort()).to.deep.equal(['image_url', 'text', 'thread_id', 'user_id']);
    for (const d of error.details!) expect(d.message).to.be.a('string').and.not.equal('');
  });

  it('limits text to 4000 characters', async () => {
    const { token } = await session({ paceMs: 0 });
    const error = await expectEnvelope(
      await call('/messaging/v1/messages', { token, body: { text: 'x'.repeat(4001), user_id: 'u' } }),
      422,
    );
    expect(error.details![0]!.field).to.equal('text');
    expect((await call('/messaging/v1/messages', { token, body: { text: 'x'.repeat(4000), user_id: 'u' } })).status).to.equal(200);
  });

  it('answers 400 invalid_json, 413 payload_too_large and 422 for a non-object body', async () => {
    const { token } = await session();
    await expectEnvelope(await call('/messaging/v1/messages', { token, rawBody: '{"text":' }), 400, 'invalid_json');
    await expectEnvelope(await call('/messaging/v1/messages', { token, rawBody: 'x'.repeat(70 * 1024) }), 413, 'payload_too_large');
    await expectEnvelope(await call('/messaging/v1/messages', { token, body: [1, 2] }), 422, 'validation_error');
    await expectEnvelope(await call('/messaging/v1/messages', { token, method: 'POST' }), 422, 'validation_error');
  });

  it('answers 422 for malformed path ids and 404 for unknown ones', async () => {
    const { token } = await session();
    const bad = await expectEnvelope(await call('/messaging/v1/threads/xyz/messages', { token }), 422);
    expect(bad.details![0]!.field).to.equal('thread_id');
    await expectEnvelope(await call('/messaging/v1/threads/0123456789abcdef01234567/messages', { token }), 404, 'not_found');
    await expectEnvelope(
      await call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: 'u', thread_id: '0123456789abcdef01234567' } }),
      404,
      'not_found',
    );
  });

  it('keeps threads private to the agent of the token', async () => {
    const mine = await session({ paceMs: 0 });
    const theirs = await session({ paceMs: 0 });
    const { thread_id } = await send(mine.token, { text: 'hi', user_id: 'u' });
    await expectEnvelope(await call(`/messaging/v1/threads/${thread_id}/messages`, { token: theirs.token }), 404, 'not_found');
    await expectEnvelope(
      await call('/messaging/v1/messages', { token: theirs.token, body: { text: 'hi', user_id: 'u', thread_id } }),
      404,
      'not_found',
    );
    const upper = await call(`/messaging/v1/threads/${thread_id.toUpperCase()}/messages`, { token: mine.token });
    expect(upper.status).to.equal(200);
  });

  it('answers unknown routes with a 404 envelope, on every surface', async () => {
    const { token } = await session();
    await expectEnvelope(await call('/messaging/v1/nothing-here', { token }), 404, 'not_found');
    await expectEnvelope(await call('/management/v1/nothing-here'), 404, 'not_found');
    await expectEnvelope(await call('/__demo/nothing-here'), 404, 'not_found');
  });

  it('lets a widget on another page of this machine read the request id and send Last-Event-ID', async () => {
    // Another origin than the page's (localhost and 127.0.0.1 are allowed by default): a real preflight and grant.
    const other = new URL(location.origin);
    other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const { token } = await session();
    const res = await fetch(`${other.origin}/messaging/v1/welcome-message`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': '0' },
    });
    // The fetch resolved (granted, preflight included) and an exposed header is readable.
    expect(res.headers.get('x-request-id')).to.match(/^req_/);
    expect(await json(res)).to.have.property('welcome_message');
  });
});
