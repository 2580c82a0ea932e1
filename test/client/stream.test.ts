import { expect } from '@open-wc/testing';
import { backoffDelay } from '../../src/client/index.js';
import { AgentClient } from '../../src/client/index.js';
import { BASE_URL, REPLY, createKey, keyStats, rejection, setup, streamRequests } from './helpers.js';
import { FAST, recorder, transportContract } from './transport-contract.js';

const USER = 'user-stream-test';

transportContract({
  name: 'SSE',
  run: (client, body, handlers, opts) => client.stream(body, handlers, opts),
  requests: streamRequests,
  firstRequest: (body) => body,
  resumeRequest: (body, threadId) => ({ ...body, thread_id: threadId }),
});

describe('SSE: what only a stream over HTTP does', () => {
  it('does not send a request again that reached the service, when it closes before the thread frame', async () => {
    // The service took the POST (it answered 200) and then the connection closed: the turn
    // may be running, and a second POST would run it twice.
    const { client, key } = await setup({ dropAfter: [0] });
    const { rec, handlers } = recorder();
    const e = await rejection(client.stream({ text: 'Early', user_id: USER }, handlers, FAST));
    expect(e.retryable).to.equal(false);
    expect(rec.reconnects).to.have.length(0);
    const stats = await keyStats(key);
    expect(streamRequests(stats)).to.have.length(1);
    expect(stats.turnsRun).to.equal(1);
  });

  it('sends the request again while the service cannot be reached at all', async () => {
    // Port 9 refuses every request: neither the POST nor the reachability check get through.
    const client = new AgentClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'token' });
    const { rec, handlers } = recorder();
    const e = await rejection(client.stream({ text: 'Anyone?', user_id: USER }, handlers, { ...FAST, maxRetries: 2 }));
    expect(e.kind).to.equal('network');
    expect(rec.reconnects.map((r) => r.attempt)).to.deep.equal([1, 2]);
  });

  it('does not send a POST again whose streamed answer the page may not read (no CORS headers)', async () => {
    // Another origin than the page's: the browser sends the POST, then refuses the answer.
    const page = new URL(BASE_URL);
    page.hostname = page.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const key = await createKey({ paceMs: 2, replies: [{ text: REPLY }], streamWithoutCors: true });
    const client = new AgentClient({ baseUrl: page.origin, publishableKey: key });
    const e = await rejection(client.stream({ text: 'Unreadable', user_id: USER }, {}, FAST));
    expect(e.kind).to.equal('network');
    expect(e.retryable).to.equal(false);
    // The call has ended: the server saw every request it made.
    const stats = await keyStats(key);
    expect(streamRequests(stats), 'POSTs').to.have.length(1);
    expect(stats.turnsRun, 'turns run').to.equal(1);
  });

  it('delivers a complete reply whose stream closes after the message frame without [DONE]', async () => {
    const { client, key } = await setup({ omitDone: true });
    const { rec, handlers } = recorder();
    const result = await client.stream({ text: 'No done', user_id: USER }, handlers, FAST);
    expect(result.message?.text).to.equal(REPLY);
    expect(rec.messages).to.equal(1);
    expect(rec.reconnects).to.have.length(0);
    expect(streamRequests(await keyStats(key))).to.have.length(1);
  });

  it('a reply whose connection stays open after the message frame is complete at once', async () => {
    const { client } = await setup({ keepOpen: true });
    const started = performance.now();
    const result = await client.stream({ text: 'Held open', user_id: USER }, {}, { ...FAST, idleTimeoutMs: 5000 });
    expect(result.message?.text).to.equal(REPLY);
    expect(performance.now() - started, 'not waiting for an idle timeout').to.be.below(3000);
  });

  it('ends the turn with a protocol error when a second, different thread is named', async () => {
    const other = { type: 'thread', data: { thread_id: 'a1b2c3d4e5f6a1b2c3d4e5f6' } };
    const { client } = await setup({ rawTurns: [[JSON.stringify({ type: 'event', seq: 1, data: { text: 'a' } }), JSON.stringify(other)]] });
    const { rec, handlers } = recorder();
    const e = await rejection(client.stream({ text: 'Two threads', user_id: USER }, handlers, FAST));
    expect(e.kind).to.equal('protocol');
    expect(rec.threads).to.have.length(1);
    expect(rec.threads[0]).not.to.equal(other.data.thread_id);
  });
});

describe('silent services', () => {
  it('no response headers: one POST, then a timeout', async () => {
    const { client, key } = await setup({ holdStream: true });
    const e = await rejection(client.stream({ text: 'Hello?', user_id: USER }, {}, { ...FAST, timeoutMs: 300 }));
    expect(e.kind).to.equal('timeout');
    const stats = await keyStats(key);
    expect(streamRequests(stats), 'POSTs').to.have.length(1);
    expect(stats.turnsRun).to.equal(1);
  });

  it('headers, then silence: one POST, then a timeout', async () => {
    const { client, key } = await setup({ stallAfter: 0 });
    // Headers may wait for the first byte (Firefox): the connect timeout covers that case.
    const e = await rejection(client.stream({ text: 'Hello?', user_id: USER }, {}, { ...FAST, timeoutMs: 300, idleTimeoutMs: 300 }));
    expect(e.kind).to.equal('timeout');
    expect(streamRequests(await keyStats(key)), 'POSTs').to.have.length(1);
  });

  it('a thread frame, then silence: the turn ends at the stall deadline', async () => {
    const { client, key } = await setup({ stallAfter: 1 });
    // The token first: on a loaded machine its exchange alone can outlast a short deadline.
    await client.welcomeMessage();
    const started = performance.now();
    const e = await rejection(
      client.stream({ text: 'Hello?', user_id: USER }, {}, { ...FAST, idleTimeoutMs: 60_000, stallTimeoutMs: 500 }),
    );
    expect(e.kind).to.equal('timeout');
    expect(performance.now() - started).to.be.below(3000);
    expect(streamRequests(await keyStats(key))).to.have.length(1);
  });

  it('an agent that never answers: resumes do not push the stall deadline back (their thread frame is a replay)', async () => {
    // Each connection gets the `thread` frame and then silence; it idles out and is resumed.
    const { client, key } = await setup({ thinkMs: 30_000 });
    await client.welcomeMessage();
    const { rec, handlers } = recorder();
    const e = await rejection(
      client.stream({ text: 'Hello?', user_id: USER }, handlers, { ...FAST, idleTimeoutMs: 200, stallTimeoutMs: 900, maxRetries: 50 }),
    );
    expect(e.kind).to.equal('timeout');
    // 900 ms of silence in 200 ms connections: a handful, not the 51 the retries would allow.
    expect(rec.reconnects.length, 'resumes').to.be.within(1, 6);
    // Every resume the widget began reached the service, but the last one when the deadline
    // cut it before it was sent (seen under load in Firefox).
    expect(streamRequests(await keyStats(key)).length).to.be.within(rec.reconnects.length, rec.reconnects.length + 1);
  });

  it('keepalive comments and nothing else: they hold the turn open up to their limit, then it ends', async () => {
    const { client } = await setup({ stallAfter: 1, keepaliveMs: 50 });
    await client.welcomeMessage();
    const { rec, handlers } = recorder();
    // Keepalives every 50 ms keep the connection from ever counting as idle and keep
    // pushing back the 600 ms stall countdown: only their own limit (2 s) can end this turn.
    const started = performance.now();
    const e = await rejection(
      client.stream({ text: 'Hello?', user_id: USER }, handlers, {
        ...FAST,
        idleTimeoutMs: 8000,
        stallTimeoutMs: 600,
        keepaliveLimitMs: 2000,
      }),
    );
    const took = performance.now() - started;
    expect(e.kind).to.equal('timeout');
    expect(took, 'held open past the stall countdown').to.be.above(1400);
    expect(took, 'but not forever').to.be.below(6000);
    expect(rec.reconnects).to.have.length(0);
  });

  it('stop still ends a silent turn at once', async () => {
    const { client } = await setup({ holdStream: true });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 100);
    const e = await rejection(client.stream({ text: 'Hello?', user_id: USER }, {}, { ...FAST, signal: ctrl.signal }));
    expect(e.kind).to.equal('abort');
  });
});

describe('stream failures', () => {
  it('retries a 503 before streaming and honours Retry-After', async () => {
    const { client, key } = await setup({ fail: [{ status: 503, code: 'unavailable', retryAfter: 1, path: '/messages/stream' }] });
    const { rec, handlers } = recorder();
    const started = performance.now();
    const result = await client.stream({ text: 'Later', user_id: USER }, handlers, FAST);
    expect(performance.now() - started).to.be.greaterThan(900);
    expect(result.message?.text).to.equal(REPLY);
    expect(rec.reconnects[0]?.error).to.include({ kind: 'http', status: 503, code: 'unavailable', retryAfterMs: 1000 });
    const reqs = streamRequests(await keyStats(key));
    expect(reqs.map((r) => r.lastEventId)).to.deep.equal([null, null]);
  });

  it('retries a 429 before streaming', async () => {
    const { client } = await setup({ fail: [{ status: 429, code: 'rate_limited', path: '/messages/stream' }] });
    const { rec, handlers } = recorder();
    await client.stream({ text: 'Busy', user_id: USER }, handlers, FAST);
    expect(rec.reconnects[0]?.error).to.include({ status: 429, code: 'rate_limited' });
  });

  it('does not repeat a POST that failed with 500 before the thread frame (it may have run)', async () => {
    const { client, key } = await setup({ fail: [{ status: 500, path: '/messages/stream' }] });
    const e = await rejection(client.stream({ text: 'Once', user_id: USER }, {}, FAST));
    expect(e).to.include({ kind: 'http', status: 500, retryable: true });
    expect(streamRequests(await keyStats(key))).to.have.length(1);
  });

  it('surfaces a Retry-After longer than maxRetryAfterMs instead of waiting silently', async () => {
    const { client, key } = await setup({ fail: [{ status: 429, code: 'rate_limited', retryAfter: 30, path: '/messages/stream' }] });
    const started = performance.now();
    const e = await rejection(client.stream({ text: 'Wait', user_id: USER }, {}, FAST));
    expect(performance.now() - started).to.be.lessThan(5000);
    expect(e).to.include({ status: 429, code: 'rate_limited', retryAfterMs: 30_000 });
    expect(streamRequests(await keyStats(key))).to.have.length(1);
  });

  it('does not retry a 4xx before streaming', async () => {
    const { client, key } = await setup({ fail: [{ status: 409, code: 'conflict', path: '/messages/stream' }] });
    const e = await rejection(client.stream({ text: 'No', user_id: USER }, {}, FAST));
    expect(e).to.include({ kind: 'http', status: 409, code: 'conflict', retryable: false });
    expect(streamRequests(await keyStats(key))).to.have.length(1);
  });

  it('refreshes the token after a 401 on the stream request', async () => {
    const { client, key } = await setup({ unauthorized: 1 });
    const { rec, handlers } = recorder();
    await client.stream({ text: 'Auth', user_id: USER }, handlers, FAST);
    expect(rec.text).to.equal(REPLY);
    expect((await keyStats(key)).tokensIssued).to.equal(2);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter in [ceiling/2, ceiling]', () => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const ceiling = 400 * 2 ** (attempt - 1);
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(attempt, 400, null);
        expect(d).to.be.within(ceiling / 2, ceiling);
      }
    }
  });
  it('is capped at 10 s', () => {
    expect(backoffDelay(20, 400, null)).to.be.at.most(10_000);
  });
  it('uses Retry-After when given', () => {
    expect(backoffDelay(1, 400, 3000)).to.equal(3000);
    expect(backoffDelay(3, 400, 0)).to.equal(0);
  });
});
