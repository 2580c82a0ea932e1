import { expect } from '@open-wc/testing';
import type { ChannelThreadResponse, Message, SendMessageResponse } from '../../src/client/types.js';
import { createKey, keyStats } from '../support/server.js';
import { call, expectEnvelope, json, session } from './helpers.js';

describe('reference server: channel hand-off', () => {
  it('binds a phone number to the current thread and sends an opening message', async () => {
    const { token } = await session({ paceMs: 0 });
    const sent = await json<SendMessageResponse>(await call('/messaging/v1/messages', { token, body: { text: 'hello', user_id: 'u-c' } }));
    const res = await call('/messaging/v1/channels/whatsapp/threads', {
      token,
      body: { user_id: 'u-c', agent_display_name: 'Trail Bot', phone_number: '+4915112345678', thread_id: sent.thread_id },
    });
    expect(res.status).to.equal(200);
    const body = await json<ChannelThreadResponse>(res);
    expect(body).to.deep.include({ thread_id: sent.thread_id, channel: 'whatsapp', phone_number: '+4915112345678' });
    const transcript = await json<Message[]>(await call(`/messaging/v1/threads/${sent.thread_id}/messages`, { token }));
    expect(transcript.at(-1)!.text).to.contain('Trail Bot').and.contain('WhatsApp');
  });

  it('creates a thread for sms when none is given', async () => {
    const { token } = await session();
    const body = await json<ChannelThreadResponse>(
      await call('/messaging/v1/channels/sms/threads', { token, body: { user_id: 'u-c', phone_number: '+14155550123' } }),
    );
    expect(body.thread_id).to.match(/^[0-9a-f]{24}$/);
    expect(body['channel']).to.equal('sms');
  });

  it('validates the channel, the phone number, removed fields and the thread', async () => {
    const { token } = await session({ paceMs: 0 });
    const post = (channel: string, body: unknown) => call(`/messaging/v1/channels/${channel}/threads`, { token, body });
    await expectEnvelope(await post('telegram', { user_id: 'u', phone_number: '+4915112345678' }), 404, 'not_found');
    for (const phone of ['015112345678', '+0123456789', '+12', '+1234567890123456', '+49 151 1234']) {
      const e = await expectEnvelope(await post('sms', { user_id: 'u', phone_number: phone }), 422, 'validation_error');
      expect(e.details!.map((d) => d.field)).to.deep.equal(['phone_number']);
    }
    const removed = await expectEnvelope(
      await post('sms', { user_id: 'u', phone_number: '+4915112345678', agent_id: 'x', template_id: 't' }),
      422,
    );
    expect(removed.details!.map((d) => d.field).sort()).to.deep.equal(['agent_id', 'template_id']);
    const missing = await expectEnvelope(await post('sms', { phone_number: '+4915112345678' }), 422);
    expect(missing.details!.map((d) => d.field)).to.deep.equal(['user_id']);
    await expectEnvelope(await post('sms', { user_id: 'u', phone_number: '+4915112345678', thread_id: 'zz' }), 422);
    await expectEnvelope(
      await post('sms', { user_id: 'u', phone_number: '+4915112345678', thread_id: '0123456789abcdef01234567' }),
      404,
      'not_found',
    );
    // A thread of another user is not yours to hand off.
    const sent = await json<SendMessageResponse>(await call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: 'owner' } }));
    await expectEnvelope(await post('sms', { user_id: 'intruder', phone_number: '+4915112345678', thread_id: sent.thread_id }), 404);
  });
});

describe('reference server: fail knob and /__demo', () => {
  it('fails matching requests `times` times with the envelope, code and Retry-After', async () => {
    const { key, token } = await session({
      paceMs: 0,
      fail: [
        { status: 503, times: 2, path: '/welcome-message', retryAfter: 2 },
        { status: 429, code: 'rate_limited' },
      ],
    });
    const welcome = '/messaging/v1/welcome-message';
    let res = await call(welcome, { token });
    const error = await expectEnvelope(res, 503, 'service_unavailable');
    expect(error.request_id).to.match(/^req_/);
    res = await call(welcome, { token });
    expect(res.headers.get('retry-after')).to.equal('2');
    await expectEnvelope(res, 503);
    // The unscoped entry takes the next messaging request, whatever it is.
    await expectEnvelope(await call(welcome, { token }), 429, 'rate_limited');
    expect((await call(welcome, { token })).status).to.equal(200);
    expect((await keyStats(key)).requests.filter((r) => r.path === welcome)).to.have.length(4);
  });

  it('sends a raw (non-envelope) body when asked, e.g. a proxy error page', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const { token } = await session({ fail: [{ status: 502, rawBody: html }] });
    const res = await call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: 'u' } });
    expect(res.status).to.equal(502);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(await res.text()).to.equal(html);
  });

  it('can fail the token exchange by path', async () => {
    const key = await createKey({ fail: [{ status: 500, path: '/auth/token' }] });
    const exchange = () => call('/management/v1/auth/token', { body: { publishable_key: key } });
    await expectEnvelope(await exchange(), 500, 'internal_error');
    expect((await exchange()).status).to.equal(200);
  });

  it('records requests with method, path, Last-Event-ID and body', async () => {
    const { key, token } = await session({ paceMs: 0 });
    await call('/messaging/v1/followup-suggestions', { token, body: { context: { page: 'home' } } });
    const stats = await keyStats(key);
    expect(stats.requests.at(-1)).to.deep.equal({
      method: 'POST',
      path: '/messaging/v1/followup-suggestions',
      lastEventId: null,
      body: { context: { page: 'home' } },
    });
  });

  it('rejects unknown or mistyped knobs, and unknown keys in stats', async () => {
    await expectEnvelope(await call('/__demo/keys', { body: { dropAfterr: [1] } }), 422, 'validation_error');
    await expectEnvelope(await call('/__demo/keys', { body: { dropAfter: 'x' } }), 422, 'validation_error');
    await expectEnvelope(await call('/__demo/keys/pk_nope/stats'), 404, 'not_found');
    const res = await call('/__demo/keys', { method: 'POST' });
    expect((await json<{ publishable_key: string }>(res)).publishable_key).to.match(/^pk_test_[0-9a-f]+$/);
  });
});
