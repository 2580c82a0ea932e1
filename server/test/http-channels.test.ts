import { describe, expect, it } from 'vitest';
import type { ChannelThreadResponse, Message } from '@agent-chat/wire';
import { envelope, reference } from './support.js';

/**
 * The channel hand-off, and the request knobs of `/__demo` (the `fail` knob, the requests'
 * log, the plan's validation), in Node through `app.fetch` (moved from the browser suite,
 * issue #38 item 8: nothing here needs a page).
 */

describe('reference server: channel hand-off', () => {
  it('binds a phone number to the current thread and sends an opening message', async () => {
    const ref = await reference();
    const { token } = await ref.mint({ paceMs: 0 });
    const sent = await ref.send(token, 'hello', undefined, 'u-c');
    const res = await ref.call('/messaging/v1/channels/whatsapp/threads', {
      token,
      body: { user_id: 'u-c', agent_display_name: 'Trail Bot', phone_number: '+4915112345678', thread_id: sent.thread_id },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ChannelThreadResponse;
    expect(body).toMatchObject({ thread_id: sent.thread_id, channel: 'whatsapp', phone_number: '+4915112345678' });
    const transcript = await ref.json<Message[]>(`/messaging/v1/threads/${sent.thread_id}/messages`, { token });
    expect(transcript.at(-1)!.text).toContain('Trail Bot');
    expect(transcript.at(-1)!.text).toContain('WhatsApp');
  });

  it('creates a thread for sms when none is given', async () => {
    const ref = await reference();
    const { token } = await ref.mint();
    const body = await ref.json<ChannelThreadResponse>('/messaging/v1/channels/sms/threads', {
      token,
      body: { user_id: 'u-c', phone_number: '+14155550123' },
    });
    expect(body.thread_id).toMatch(/^[0-9a-f]{24}$/);
    expect(body['channel']).toBe('sms');
  });

  it('validates the channel, the phone number, removed fields and the thread', async () => {
    const ref = await reference();
    const { token } = await ref.mint({ paceMs: 0 });
    const post = (channel: string, body: unknown) => ref.call(`/messaging/v1/channels/${channel}/threads`, { token, body });
    await envelope(await post('telegram', { user_id: 'u', phone_number: '+4915112345678' }), 404, 'not_found');
    for (const phone of ['015112345678', '+0123456789', '+12', '+1234567890123456', '+49 151 1234']) {
      const e = await envelope(await post('sms', { user_id: 'u', phone_number: phone }), 422, 'validation_error');
      expect(e.details!.map((d) => d.field)).toEqual(['phone_number']);
    }
    const removed = await envelope(
      await post('sms', { user_id: 'u', phone_number: '+4915112345678', agent_id: 'x', template_id: 't' }),
      422,
    );
    expect(removed.details!.map((d) => d.field).sort()).toEqual(['agent_id', 'template_id']);
    const missing = await envelope(await post('sms', { phone_number: '+4915112345678' }), 422);
    expect(missing.details!.map((d) => d.field)).toEqual(['user_id']);
    await envelope(await post('sms', { user_id: 'u', phone_number: '+4915112345678', thread_id: 'zz' }), 422);
    await envelope(
      await post('sms', { user_id: 'u', phone_number: '+4915112345678', thread_id: '0123456789abcdef01234567' }),
      404,
      'not_found',
    );
    // A thread of another user is not yours to hand off.
    const sent = await ref.send(token, 'hi', undefined, 'owner');
    await envelope(await post('sms', { user_id: 'intruder', phone_number: '+4915112345678', thread_id: sent.thread_id }), 404);
  });
});

describe('reference server: fail knob and /__demo', () => {
  it('fails matching requests `times` times with the envelope, code and Retry-After', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({
      paceMs: 0,
      fail: [
        { status: 503, times: 2, path: '/welcome-message', retryAfter: 2 },
        { status: 429, code: 'rate_limited' },
      ],
    });
    const welcome = '/messaging/v1/welcome-message';
    let res = await ref.call(welcome, { token });
    const error = await envelope(res, 503, 'service_unavailable');
    expect(error.request_id).toMatch(/^req_/);
    res = await ref.call(welcome, { token });
    expect(res.headers.get('retry-after')).toBe('2');
    await envelope(res, 503);
    // The unscoped entry takes the next messaging request, whatever it is.
    await envelope(await ref.call(welcome, { token }), 429, 'rate_limited');
    expect((await ref.call(welcome, { token })).status).toBe(200);
    expect((await ref.stats(key)).requests.filter((r) => r.path === welcome)).toHaveLength(4);
  });

  it('sends a raw (non-envelope) body when asked, e.g. a proxy error page', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const ref = await reference();
    const { token } = await ref.mint({ fail: [{ status: 502, rawBody: html }] });
    const res = await ref.call('/messaging/v1/messages', { token, body: { text: 'hi', user_id: 'u' } });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe(html);
  });

  it('can fail the token exchange by path', async () => {
    const ref = await reference();
    // Minted without its token: the exchange is what the knob fails.
    const { publishable_key: key } = await ref.json<{ publishable_key: string }>('/__demo/keys', {
      body: { fail: [{ status: 500, path: '/auth/token' }] },
    });
    const exchange = () => ref.call('/management/v1/auth/token', { body: { publishable_key: key } });
    await envelope(await exchange(), 500, 'internal_error');
    expect((await exchange()).status).toBe(200);
  });

  it('records requests with method, path, Last-Event-ID and body', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({ paceMs: 0 });
    await ref.call('/messaging/v1/followup-suggestions', { token, body: { context: { page: 'home' } } });
    const stats = await ref.stats(key);
    expect(stats.requests.at(-1)).toEqual({
      method: 'POST',
      path: '/messaging/v1/followup-suggestions',
      lastEventId: null,
      body: { context: { page: 'home' } },
    });
  });

  it('rejects unknown or mistyped knobs, and unknown keys in stats', async () => {
    const ref = await reference();
    await envelope(await ref.call('/__demo/keys', { body: { dropAfterr: [1] } }), 422, 'validation_error');
    await envelope(await ref.call('/__demo/keys', { body: { dropAfter: 'x' } }), 422, 'validation_error');
    await envelope(await ref.call('/__demo/keys/pk_nope/stats'), 404, 'not_found');
    // No body at all: a key with no faults.
    const res = await ref.call('/__demo/keys', { method: 'POST' });
    expect(((await res.json()) as { publishable_key: string }).publishable_key).toMatch(/^pk_test_[0-9a-f]+$/);
  });
});
