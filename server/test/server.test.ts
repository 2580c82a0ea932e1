import { testDb } from './support.js';
import { describe, expect, it } from 'vitest';
import { DEMO_PUBLISHABLE_KEY, createReferenceServer, faultsFromEnv } from '../src/app.js';
import { MAX_PLAN_BYTES } from '../src/faults/routes.js';

/**
 * The reference server is safe to run as the README offers it (server/README.md
 * "Running it for others"): its fault knobs only when asked, no visitor's messages in any
 * stats, knob payloads bounded. Driven through `app.fetch`, in Node: no socket needed.
 */
const ORIGIN = 'http://reference.test';

async function server(faults: boolean) {
  const { app } = await createReferenceServer({ faults, paceMs: 0, allowedHosts: ['reference.test'], db: await testDb() });
  const call = (path: string, init: RequestInit = {}) => app.fetch(new Request(ORIGIN + path, init));
  const post = (path: string, body: unknown, token?: string) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const token = async (key: string) =>
    ((await (await post('/management/v1/auth/token', { publishable_key: key })).json()) as { access_token: string }).access_token;
  return { call, post, token };
}

describe('the reference server as the embedded default', () => {
  it('has no fault knobs unless asked: no minting, no stats, no clocks', async () => {
    const { call, post } = await server(false);
    expect((await post('/__demo/keys', {})).status).toBe(404);
    expect((await call(`/__demo/keys/${DEMO_PUBLISHABLE_KEY}/stats`)).status).toBe(404);
    expect((await post(`/__demo/keys/${DEMO_PUBLISHABLE_KEY}/clock`, { advanceMs: 1 })).status).toBe(404);
    // The service itself and the demo's own routes are there.
    expect((await call('/__demo/health')).status).toBe(200);
    expect((await post('/management/v1/auth/token', { publishable_key: DEMO_PUBLISHABLE_KEY })).status).toBe(200);
  });

  it('with the knobs on, the demo key keeps no log of what its visitors sent', async () => {
    const { call, post, token } = await server(true);
    const visitor = await token(DEMO_PUBLISHABLE_KEY);
    const sent = await post('/messaging/v1/messages', { text: 'my private question', user_id: 'visitor-1' }, visitor);
    expect(sent.status).toBe(200);
    const stats = await call(`/__demo/keys/${DEMO_PUBLISHABLE_KEY}/stats`);
    expect(stats.status).toBe(404);
    expect(await stats.text()).not.toContain('my private question');
  });

  it("a minted key's stats show the requests made with that key only", async () => {
    const { call, post, token } = await server(true);
    const { publishable_key: key } = (await (await post('/__demo/keys', {})).json()) as { publishable_key: string };
    const sent = await post('/messaging/v1/messages', { text: 'a test question', user_id: 'tester' }, await token(key));
    expect(sent.status).toBe(200);
    const stats = (await (await call(`/__demo/keys/${key}/stats`)).json()) as { requests: Array<{ path: string }> };
    expect(stats.requests.map((r) => r.path)).toContain('/messaging/v1/messages');
  });

  it('bounds a fault plan, and the plans kept together', async () => {
    const { call, post } = await server(true);
    const big = JSON.stringify({ replies: [{ text: 'x'.repeat(MAX_PLAN_BYTES) }] });
    expect((await post('/__demo/keys', big)).status).toBe(413);
    // Forty plans of 1.9 MB are more than the 32 MB kept: the least recently used keys go.
    const plan = JSON.stringify({ replies: [{ text: 'y'.repeat(1_900_000) }] });
    const keys: string[] = [];
    for (let i = 0; i < 40; i++)
      keys.push(((await (await post('/__demo/keys', plan)).json()) as { publishable_key: string }).publishable_key);
    expect((await call(`/__demo/keys/${keys[0]}/stats`)).status).toBe(404);
    expect((await call(`/__demo/keys/${keys.at(-1)}/stats`)).status).toBe(200);
  });

  it('turns the knobs on for npm start only without a model, unless REFERENCE_FAULTS says', () => {
    const model = { baseURL: 'http://model.test/v1', apiKey: 'k', model: 'm' };
    expect(faultsFromEnv(null, {})).toBe(true);
    expect(faultsFromEnv(model, {})).toBe(false);
    expect(faultsFromEnv(model, { REFERENCE_FAULTS: '1' })).toBe(true);
    expect(faultsFromEnv(null, { REFERENCE_FAULTS: '0' })).toBe(false);
  });
});
