import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { TokenResponse } from '@agent-chat/wire';
import { envelope, reference } from './support.js';

/**
 * The token exchange and the bearer check of the messaging surface, in Node through
 * `app.fetch` (moved from the browser suite, issue #38 item 8: nothing here needs a page).
 * Each test mints keys of its own with the fault knobs it needs (src/faults/plan.ts).
 */

const TOKEN = '/management/v1/auth/token';

describe('reference server: token exchange', () => {
  it('exchanges the demo key for a Bearer JWT with exp, sub and pk', async () => {
    const ref = await reference();
    const res = await ref.call(TOKEN, { body: { publishable_key: 'pk_demo_shop' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as TokenResponse;
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(900);
    const c = decodeJwt(body.access_token);
    expect(c['pk']).toBe('pk_demo_shop');
    expect(c.sub).toMatch(/^[0-9a-f]{24}$/);
    const now = Date.now() / 1000;
    expect(c.exp).toBeGreaterThanOrEqual(now + 890);
    expect(c.exp).toBeLessThanOrEqual(now + 910);
  });

  it('exchanges a created key, honouring tokenTtl, and counts tokens issued', async () => {
    const ref = await reference();
    const { publishable_key: key } = await ref.json<{ publishable_key: string }>('/__demo/keys', { body: { tokenTtl: 60 } });
    const body = await ref.json<TokenResponse>(TOKEN, { body: { publishable_key: key } });
    expect(body.expires_in).toBe(60);
    expect(decodeJwt(body.access_token)['pk']).toBe(key);
    const stats = await ref.stats(key);
    expect(stats.tokensIssued).toBe(1);
    expect(stats.requests[0]).toMatchObject({ method: 'POST', path: TOKEN });
  });

  it('gives different keys different agents', async () => {
    const ref = await reference();
    const a = decodeJwt((await ref.mint()).token);
    const b = decodeJwt((await ref.mint()).token);
    expect(a.sub).not.toBe(b.sub);
  });

  it('rejects an unknown key with 401 and a missing one with 422', async () => {
    const ref = await reference();
    await envelope(await ref.call(TOKEN, { body: { publishable_key: 'pk_nope' } }), 401, 'auth.invalid_key');
    const error = await envelope(await ref.call(TOKEN, { body: {} }), 422, 'validation_error');
    expect(error.details![0]!.field).toBe('publishable_key');
    // A string body is sent as is: not JSON at all.
    await envelope(await ref.call(TOKEN, { body: '{oops' }), 400, 'invalid_json');
    // A NUL, which PostgreSQL's text cannot hold, is refused before any lookup (the fault knobs' included).
    const nul = await envelope(await ref.call(TOKEN, { body: { publishable_key: '\0' } }), 422, 'validation_error');
    expect(nul.details![0]!.field).toBe('publishable_key');
  });

  it('fails the next N exchanges with tokenExchangeFailures', async () => {
    const ref = await reference();
    const { publishable_key: key } = await ref.json<{ publishable_key: string }>('/__demo/keys', { body: { tokenExchangeFailures: 2 } });
    const exchange = () => ref.call(TOKEN, { body: { publishable_key: key } });
    await envelope(await exchange(), 401);
    await envelope(await exchange(), 401);
    expect((await exchange()).status).toBe(200);
    expect((await ref.stats(key)).tokensIssued).toBe(1);
  });
});

describe('reference server: bearer auth', () => {
  const path = '/messaging/v1/welcome-message';

  it('answers 401 without a token, with a malformed one and with a forged one', async () => {
    const ref = await reference();
    await envelope(await ref.call(path), 401, 'auth.missing_token');
    await envelope(await ref.call(path, { headers: { authorization: 'Basic abc' } }), 401, 'auth.missing_token');
    await envelope(await ref.call(path, { token: 'not-a-jwt' }), 401, 'auth.invalid_token');
    const { token } = await ref.mint();
    // A real token's header and claims under a signature the server never made.
    const [h, p] = token.split('.');
    await envelope(await ref.call(path, { token: `${h}.${p}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` }), 401, 'auth.invalid_token');
  });

  it('answers 401 auth.token_expired once a token has expired', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({ tokenTtl: 0 });
    await envelope(await ref.call(path, { token }), 401, 'auth.token_expired');
    // Still logged against its key: the signature was valid.
    expect((await ref.stats(key)).requests.map((r) => r.path)).toContain(path);
  });

  it('accepts a token until it expires', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({ tokenTtl: 1 });
    expect((await ref.call(path, { token })).status).toBe(200);
    // exp is rounded up to a whole second: 2.1 s later it has passed (at this key's time, the
    // fault knob's clock: nothing waits for it).
    await ref.json(`/__demo/keys/${key}/clock`, { body: { advanceMs: 2100 } });
    await envelope(await ref.call(path, { token }), 401, 'auth.token_expired');
  });

  it('rejects the next N bearer requests with the unauthorized knob', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({ unauthorized: 1 });
    await envelope(await ref.call(path, { token }), 401, 'auth.invalid_token');
    expect((await ref.call(path, { token })).status).toBe(200);
    const stats = await ref.stats(key);
    expect(stats.requests.filter((r) => r.path === path)).toHaveLength(2);
  });
});
