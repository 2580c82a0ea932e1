import { expect } from '@open-wc/testing';
import type { TokenResponse } from '../../src/client/types.js';
import { advanceServerClock, createKey, keyStats, tokenFor } from '../support/server.js';
import { call, expectEnvelope, json, session } from './helpers.js';

function claims(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(atob(part.padEnd(Math.ceil(part.length / 4) * 4, '='))) as Record<string, unknown>;
}

const exchange = (body: unknown) => call('/management/v1/auth/token', { body });

describe('reference server: token exchange', () => {
  it('exchanges the demo key for a Bearer JWT with exp, sub and pk', async () => {
    const res = await exchange({ publishable_key: 'pk_demo_shop' });
    expect(res.status).to.equal(200);
    const body = await json<TokenResponse>(res);
    expect(body.token_type).to.equal('Bearer');
    expect(body.expires_in).to.equal(900);
    const c = claims(body.access_token);
    expect(c['pk']).to.equal('pk_demo_shop');
    expect(c['sub']).to.match(/^[0-9a-f]{24}$/);
    const now = Date.now() / 1000;
    expect(c['exp'] as number).to.be.within(now + 890, now + 910);
  });

  it('exchanges a created key, honouring tokenTtl, and counts tokens issued', async () => {
    const key = await createKey({ tokenTtl: 60 });
    const body = await json<TokenResponse>(await exchange({ publishable_key: key }));
    expect(body.expires_in).to.equal(60);
    expect(claims(body.access_token)['pk']).to.equal(key);
    const stats = await keyStats(key);
    expect(stats.tokensIssued).to.equal(1);
    expect(stats.requests[0]).to.deep.include({ method: 'POST', path: '/management/v1/auth/token' });
  });

  it('gives different keys different agents', async () => {
    const a = claims(await tokenFor(await createKey()));
    const b = claims(await tokenFor(await createKey()));
    expect(a['sub']).to.not.equal(b['sub']);
  });

  it('rejects an unknown key with 401 and a missing one with 422', async () => {
    await expectEnvelope(await exchange({ publishable_key: 'pk_nope' }), 401, 'auth.invalid_key');
    const error = await expectEnvelope(await exchange({}), 422, 'validation_error');
    expect(error.details![0]!.field).to.equal('publishable_key');
    await expectEnvelope(await call('/management/v1/auth/token', { rawBody: '{oops' }), 400, 'invalid_json');
  });

  it('fails the next N exchanges with tokenExchangeFailures', async () => {
    const key = await createKey({ tokenExchangeFailures: 2 });
    await expectEnvelope(await exchange({ publishable_key: key }), 401);
    await expectEnvelope(await exchange({ publishable_key: key }), 401);
    expect((await exchange({ publishable_key: key })).status).to.equal(200);
    expect((await keyStats(key)).tokensIssued).to.equal(1);
  });
});

describe('reference server: bearer auth', () => {
  const path = '/messaging/v1/welcome-message';

  it('answers 401 without a token, with a malformed one and with a forged one', async () => {
    await expectEnvelope(await call(path), 401, 'auth.missing_token');
    await expectEnvelope(await call(path, { headers: { authorization: 'Basic abc' } }), 401, 'auth.missing_token');
    await expectEnvelope(await call(path, { token: 'not-a-jwt' }), 401, 'auth.invalid_token');
    const { token } = await session();
    const [h, p] = token.split('.');
    await expectEnvelope(await call(path, { token: `${h}.${p}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` }), 401, 'auth.invalid_token');
  });

  it('answers 401 auth.token_expired once a token has expired', async () => {
    const { key, token } = await session({ tokenTtl: 0 });
    await expectEnvelope(await call(path, { token }), 401, 'auth.token_expired');
    // Still logged against its key: the signature was valid.
    expect((await keyStats(key)).requests.map((r) => r.path)).to.include(path);
  });

  it('accepts a token until it expires', async () => {
    const { key, token } = await session({ tokenTtl: 1 });
    expect((await call(path, { token })).status).to.equal(200);
    // exp is rounded up to a whole second: 2.1 s later it has passed (at this key's time).
    await advanceServerClock(key, 2100);
    await expectEnvelope(await call(path, { token }), 401, 'auth.token_expired');
  });

  it('rejects the next N bearer requests with the unauthorized knob', async () => {
    const { key, token } = await session({ unauthorized: 1 });
    await expectEnvelope(await call(path, { token }), 401, 'auth.invalid_token');
    expect((await call(path, { token })).status).to.equal(200);
    const stats = await keyStats(key);
    expect(stats.requests.filter((r) => r.path === path)).to.have.length(2);
  });
});
