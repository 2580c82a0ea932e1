import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenManager, jwtExpiry, refreshTime } from '../../src/client/index.js';

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT-shaped string; the client never verifies signatures. */
function jwt(payload: object): string {
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.sig`;
}

const base = { baseUrl: 'https://agents.example', timeoutMs: 1000 };

afterEach(() => void vi.useRealTimers());

describe('jwtExpiry', () => {
  it('reads exp from a base64url payload', () => {
    expect(jwtExpiry(jwt({ exp: 1700000000, sub: 'a' }))).to.equal(1700000000);
  });
  it('decodes base64url characters (- and _) and missing padding', () => {
    // '??>' encodes to "Pz8-" in base64url; '???' to "Pz8_": make the payload contain them.
    const token = jwt({ exp: 42, s: '??>???' });
    expect(token.split('.')[1]).to.match(/[-_]/);
    expect(jwtExpiry(token)).to.equal(42);
  });
  it('is null for opaque tokens, missing or non-numeric exp', () => {
    expect(jwtExpiry('opaque-token')).to.equal(null);
    expect(jwtExpiry('a.!!!.c')).to.equal(null);
    expect(jwtExpiry(jwt({ sub: 'a' }))).to.equal(null);
    expect(jwtExpiry(jwt({ exp: '42' }))).to.equal(null);
  });
});

describe('refreshTime', () => {
  it('keeps 10% of a short lifetime in reserve', () => {
    expect(refreshTime(10_000, 0)).to.equal(9_000);
  });
  it('keeps at most 60 s in reserve for long lifetimes', () => {
    expect(refreshTime(900_000, 0)).to.equal(840_000);
  });
});

describe('TokenManager (tokenProvider)', () => {
  it('caches the token and shares one fetch between concurrent callers', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const tm = new TokenManager({
      ...base,
      tokenProvider: async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 20));
        return `t${calls}`;
      },
    });
    const all = Promise.all([tm.get(), tm.get(), tm.get()]);
    await vi.advanceTimersByTimeAsync(20);
    const got = await all;
    expect(got).to.deep.equal(['t1', 't1', 't1']);
    expect(await tm.get()).to.equal('t1');
    expect(calls).to.equal(1);
  });

  it('invalidate(rejected) forgets only that token', async () => {
    let calls = 0;
    const tm = new TokenManager({ ...base, tokenProvider: async () => `t${++calls}` });
    expect(await tm.get()).to.equal('t1');
    tm.invalidate('t1');
    expect(await tm.get()).to.equal('t2');
    tm.invalidate('t1'); // a late 401 for the old token keeps the new one
    expect(await tm.get()).to.equal('t2');
    expect(calls).to.equal(2);
  });

  it('refreshes a JWT shortly before its exp', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const tm = new TokenManager({
      ...base,
      // 1 s lifetime: refreshed once less than 100 ms remain.
      tokenProvider: async () => jwt({ exp: (Date.now() + 1000) / 1000, n: ++calls }),
    });
    const first = await tm.get();
    expect(await tm.get()).to.equal(first);
    vi.advanceTimersByTime(899);
    expect(await tm.get()).to.equal(first);
    vi.advanceTimersByTime(51);
    const second = await tm.get();
    expect(second).not.to.equal(first);
    expect(calls).to.equal(2);
  });

  it('reports provider failures as auth errors', async () => {
    const tm = new TokenManager({ ...base, tokenProvider: () => Promise.reject(new Error('nope')) });
    const e = await tm.get().then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).to.include({ kind: 'auth', code: 'auth' });
  });

  it('lets a tokenProvider replace a seeded accessToken', async () => {
    const tm = new TokenManager({ ...base, accessToken: 'seed', tokenProvider: async () => 'fresh' });
    expect(tm.canRefresh).to.equal(true);
    expect(await tm.get()).to.equal('seed');
    tm.invalidate('seed');
    expect(await tm.get()).to.equal('fresh');
  });
});

describe('TokenManager (fixed accessToken)', () => {
  it('never refreshes and wins over a publishable key', async () => {
    const tm = new TokenManager({ ...base, accessToken: 'fixed', publishableKey: 'pk' });
    expect(tm.canRefresh).to.equal(false);
    expect(await tm.get()).to.equal('fixed');
  });
  it('returns null without any token source', async () => {
    const tm = new TokenManager(base);
    expect(await tm.get()).to.equal(null);
  });
});

describe('TokenManager (publishable key, per user)', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('exchanges for the current user, again when it changes, and uses no cached token of another', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      const token = jwt({ exp: Math.floor(Date.now() / 1000) + 900, n: bodies.length });
      return new Response(JSON.stringify({ access_token: token, expires_in: 900 }));
    });
    let user = 'u1';
    const stored = { value: jwt({ exp: Math.floor(Date.now() / 1000) + 900 }), refreshAt: Date.now() + 600_000, user: 'u0' };
    const writes: Array<{ user?: string } | null> = [];
    const tm = new TokenManager({
      ...base,
      publishableKey: 'pk',
      userId: () => user,
      cache: { read: () => stored, write: (t) => writes.push(t) },
    });
    const first = await tm.get();
    expect(first).to.not.equal(stored.value);
    expect(await tm.get()).to.equal(first);
    user = 'u2';
    expect(await tm.get()).to.not.equal(first);
    expect(bodies).to.deep.equal([
      { publishable_key: 'pk', user_id: 'u1' },
      { publishable_key: 'pk', user_id: 'u2' },
    ]);
    expect(writes.map((t) => t?.user)).to.deep.equal(['u1', 'u2']);
  });
});
