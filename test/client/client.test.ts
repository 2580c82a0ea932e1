import { expect } from '@open-wc/testing';
import { AgentClient, isHexId, type CachedToken, type TokenCache } from '../../src/client/index.js';
import { advanceClocks, tokenFor } from '../support/server.js';
import { BASE_URL, REPLY, keyStats, rejection, setup } from './helpers.js';

const USER = 'user-client-test';

describe('AgentClient operations', () => {
  it('send returns the thread and the complete reply', async () => {
    const { client } = await setup();
    const res = await client.send({ text: 'Hello', user_id: USER });
    expect(isHexId(res.thread_id)).to.equal(true);
    expect(res.message.text).to.equal(REPLY);
    expect(res.message.sender.type).to.equal('agent');
    expect(isHexId(res.message.id)).to.equal(true);
  });

  it('send continues a thread when given thread_id', async () => {
    const { client } = await setup();
    const first = await client.send({ text: 'One', user_id: USER });
    const second = await client.send({ text: 'Two', user_id: USER, thread_id: first.thread_id });
    expect(second.thread_id).to.equal(first.thread_id);
  });

  it('stream delivers the thread, the deltas and the final message', async () => {
    const { client, key } = await setup();
    const threads: string[] = [];
    let text = '';
    const seqs: number[] = [];
    const result = await client.stream(
      { text: 'Hello', user_id: USER },
      {
        onThread: (id) => threads.push(id),
        onToken: (t, seq) => {
          text += t;
          seqs.push(seq);
        },
      },
    );
    expect(threads).to.deep.equal([result.threadId]);
    expect(text).to.equal(REPLY);
    expect(result.message?.text).to.equal(REPLY);
    expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
    const stats = await keyStats(key);
    expect(stats.turnsRun).to.equal(1);
    const req = stats.requests.find((r) => r.path === '/messaging/v1/messages/stream');
    expect(req?.lastEventId).to.equal(null);
  });

  it('transcript returns both sides of the conversation in order', async () => {
    const { client } = await setup();
    const sent = await client.send({ text: 'Hello there', user_id: USER });
    const messages = await client.transcript(sent.thread_id);
    expect(messages.map((m) => m.sender.type)).to.deep.equal(['user', 'agent']);
    expect(messages[0]?.text).to.equal('Hello there');
    expect(messages[1]?.text).to.equal(REPLY);
  });

  it('welcomeMessage returns the live version welcome text', async () => {
    const { client } = await setup({ welcome: 'Welcome, traveller!' });
    expect(await client.welcomeMessage()).to.equal('Welcome, traveller!');
  });

  it('followupSuggestions sends the context and returns the suggestions', async () => {
    const { client, key } = await setup({ suggestions: ['Track my order', 'Talk to a human'] });
    expect(await client.followupSuggestions({ page: '/pricing' })).to.deep.equal(['Track my order', 'Talk to a human']);
    expect(await client.followupSuggestions()).to.deep.equal(['Track my order', 'Talk to a human']);
    const bodies = (await keyStats(key)).requests.filter((r) => r.path.endsWith('/followup-suggestions')).map((r) => r.body);
    expect(bodies).to.deep.equal([{ context: { page: '/pricing' } }, {}]);
  });

  it('rerun branches to a new thread with a regenerated reply', async () => {
    const { client } = await setup({ replies: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    const sent = await client.send({ text: 'Question', user_id: USER });
    const rerun = await client.rerun(sent.thread_id, { interaction_id: sent.message.id, text: 'Question, edited' });
    expect(rerun.thread_id).not.to.equal(sent.thread_id);
    expect(isHexId(rerun.thread_id)).to.equal(true);
    expect(rerun.message.text).to.equal('Second answer.');
    const branch = await client.transcript(rerun.thread_id);
    expect(branch.at(-2)?.text).to.equal('Question, edited');
  });

  it('startChannelThread hands the conversation off', async () => {
    const { client, key } = await setup();
    const sent = await client.send({ text: 'Hi', user_id: USER });
    const res = await client.startChannelThread('whatsapp', {
      user_id: USER,
      agent_display_name: 'Ada',
      phone_number: '+4915112345678',
      thread_id: sent.thread_id,
    });
    expect(res.thread_id).to.be.a('string');
    const req = (await keyStats(key)).requests.find((r) => r.path === '/messaging/v1/channels/whatsapp/threads');
    expect(req?.body).to.deep.equal({
      user_id: USER,
      agent_display_name: 'Ada',
      phone_number: '+4915112345678',
      thread_id: sent.thread_id,
    });
  });

  it('accepts a base URL with a trailing slash', async () => {
    const { key } = await setup({ welcome: 'Slash' });
    const client = new AgentClient({ baseUrl: `${BASE_URL}/`, publishableKey: key });
    expect(await client.welcomeMessage()).to.equal('Slash');
  });
});

describe('AgentClient errors', () => {
  it('parses a 422 envelope: code, field details and request id', async () => {
    const { client } = await setup();
    const e = await rejection(client.send({ text: 'No user' } as never));
    expect(e.kind).to.equal('http');
    expect(e.status).to.equal(422);
    expect(e.code).to.equal('validation_error');
    expect(e.retryable).to.equal(false);
    expect(e.requestId).to.be.a('string').and.not.equal('');
    expect(e.details.map((d) => d.field)).to.include('user_id');
  });

  it('the server rejects agent_id sent by a raw request with 422', async () => {
    const { key } = await setup();
    const res = await fetch('/messaging/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenFor(key)}` },
      body: JSON.stringify({ text: 'Hi', user_id: USER, agent_id: '0123456789abcdef01234567' }),
    });
    expect(res.status).to.equal(422);
    const body = (await res.json()) as { error: { code: string; details: Array<{ field: string | null }> | null } };
    expect(body.error.code).to.be.a('string');
  });

  it('never sends agent_id, even when a caller passes one', async () => {
    const { client, key } = await setup();
    const body = { text: 'Hi', user_id: USER, agent_id: '0123456789abcdef01234567' };
    const res = await client.send(body);
    expect(res.message.text).to.equal(REPLY);
    const sent = (await keyStats(key)).requests.find((r) => r.path === '/messaging/v1/messages');
    expect(sent?.body).to.deep.equal({ text: 'Hi', user_id: USER });
  });

  it('turns a non-JSON error body into http_502', async () => {
    const { client } = await setup({
      fail: [{ status: 502, rawBody: '<html><body><h1>502 Bad Gateway</h1></body></html>' }],
    });
    const e = await rejection(client.welcomeMessage());
    expect(e).to.include({ kind: 'http', status: 502, code: 'http_502', retryable: true });
    expect(e.message).not.to.contain('<');
  });

  it('reports 429 with Retry-After', async () => {
    const { client } = await setup({ fail: [{ status: 429, code: 'rate_limited', retryAfter: 3 }] });
    const e = await rejection(client.welcomeMessage());
    expect(e).to.include({ kind: 'http', status: 429, code: 'rate_limited', retryable: true, retryAfterMs: 3000 });
  });

  it('reports an unknown thread as not found', async () => {
    const { client } = await setup();
    const e = await rejection(client.transcript('0123456789abcdef01234567'));
    expect(e).to.include({ kind: 'http', status: 404, retryable: false });
  });

  // The reference server only fails with statuses >= 400, so a "service" answering 200 with
  // the wrong body is played by static files under test/client/fixtures/ (real HTTP).
  it('rejects a 2xx body of the wrong shape as a protocol error', async () => {
    const client = new AgentClient({ baseUrl: `${BASE_URL}/test/client/fixtures`, accessToken: 'x' });
    const e = await rejection(client.welcomeMessage());
    expect(e).to.include({ kind: 'protocol', code: 'protocol', retryable: false });
  });

  it('rejects a 2xx body that is not JSON as a protocol error', async () => {
    const client = new AgentClient({ baseUrl: `${BASE_URL}/test/client/fixtures`, accessToken: 'x' });
    const e = await rejection(client.transcript('0123456789abcdef01234567'));
    expect(e).to.include({ kind: 'protocol', code: 'protocol' });
    expect(e.message).to.match(/not valid JSON/);
  });

  // Firefox throttles timers of a hidden page (the runner's second tab) to ~1 s, and the
  // reference server answers plain requests within 400 ms. A response whose body never ends
  // does not depend on timer precision: the query string routes the client's POST to the
  // stream endpoint, stalled after its first frame, so reading the body must time out.
  it('times out a request whose response does not complete', async () => {
    const { key } = await setup({ stallAfter: 1 });
    const client = new AgentClient({
      baseUrl: `${BASE_URL}/messaging/v1/messages/stream?path=`,
      accessToken: await tokenFor(key),
    });
    const e = await rejection(client.send({ text: 'Hi', user_id: USER }, { timeoutMs: 150 }));
    expect(e).to.include({ kind: 'timeout', code: 'timeout', retryable: true });
  });

  it('rejects with abort when the caller cancels mid-request', async () => {
    const { client, key } = await setup({ paceMs: 200 });
    await client.welcomeMessage(); // the token is cached: the next call goes straight out
    const ctrl = new AbortController();
    const pending = client.send({ text: 'Hi', user_id: USER }, { signal: ctrl.signal });
    // The server holds a paced REST reply for 400 ms; a quick request settles well before,
    // without relying on timers (throttled in hidden pages).
    void keyStats(key).then(() => ctrl.abort());
    const e = await rejection(pending);
    expect(e).to.include({ kind: 'abort', code: 'abort', retryable: false });
  });

  it('rejects with abort at once for an already aborted signal', async () => {
    const { client } = await setup();
    const e = await rejection(client.welcomeMessage({ signal: AbortSignal.abort() }));
    expect(e).to.include({ kind: 'abort', code: 'abort' });
  });

  it('rejects with network when the service cannot be reached', async () => {
    const client = new AgentClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'x' });
    const e = await rejection(client.welcomeMessage());
    expect(e).to.include({ kind: 'network', code: 'network', retryable: true });
  });
});

describe('AgentClient tokens', () => {
  it('exchanges the publishable key once for concurrent requests', async () => {
    const { client, key } = await setup();
    await Promise.all([client.welcomeMessage(), client.welcomeMessage(), client.followupSuggestions()]);
    const stats = await keyStats(key);
    expect(stats.tokensIssued).to.equal(1);
    const exchanges = stats.requests.filter((r) => r.path === '/management/v1/auth/token');
    expect(exchanges.map((r) => r.body)).to.deep.equal([{ publishable_key: key }]);
  });

  it('exchanges for its user, again when the user changes, and keeps each user’s threads to that user', async () => {
    let user = 'anon_client_a';
    const { client, key } = await setup({}, { userId: () => user });
    const { thread_id: threadId } = await client.send({ text: 'Hello', user_id: user });
    expect(await client.transcript(threadId)).to.have.length(2);

    // The host signs another user in: the next request exchanges for that one.
    user = 'anon_client_b';
    const e = await rejection(client.transcript(threadId));
    expect(e.status).to.equal(404);
    const exchanges = (await keyStats(key)).requests.filter((r) => r.path === '/management/v1/auth/token');
    expect(exchanges.map((r) => r.body)).to.deep.equal([
      { publishable_key: key, user_id: 'anon_client_a' },
      { publishable_key: key, user_id: 'anon_client_b' },
    ]);
  });

  it('refreshes the token once after a 401 and succeeds', async () => {
    const { client, key } = await setup({ unauthorized: 1 });
    expect(await client.welcomeMessage()).to.be.a('string');
    expect((await keyStats(key)).tokensIssued).to.equal(2);
  });

  it('reports an auth error after a second 401', async () => {
    const { client, key } = await setup({ unauthorized: 2 });
    const e = await rejection(client.welcomeMessage());
    expect(e.kind).to.equal('auth');
    expect(e.status).to.equal(401);
    expect(e.retryable).to.equal(false);
    expect((await keyStats(key)).tokensIssued).to.equal(2);
  });

  it('reports an auth error when the token exchange fails', async () => {
    const { client } = await setup({ tokenExchangeFailures: 1 });
    const e = await rejection(client.welcomeMessage());
    expect(e).to.include({ kind: 'auth', status: 401, retryable: false });
  });

  it('calls the tokenProvider again after a 401', async () => {
    const { key } = await setup({ unauthorized: 1, welcome: 'Provided' });
    let calls = 0;
    const client = new AgentClient({
      baseUrl: BASE_URL,
      tokenProvider: () => {
        calls++;
        return tokenFor(key);
      },
    });
    expect(await client.welcomeMessage()).to.equal('Provided');
    expect(calls).to.equal(2);
  });

  it('treats a 401 with a fixed accessToken as an auth error at once', async () => {
    const { key } = await setup({ unauthorized: 1 });
    const token = await tokenFor(key);
    const client = new AgentClient({ baseUrl: BASE_URL, accessToken: token, publishableKey: key });
    const e = await rejection(client.welcomeMessage());
    expect(e.kind).to.equal('auth');
    const stats = await keyStats(key);
    expect(stats.tokensIssued).to.equal(1);
    expect(stats.requests.filter((r) => r.path === '/messaging/v1/welcome-message')).to.have.length(1);
  });

  it('refreshes a short-lived token before it expires', async () => {
    const { client, key } = await setup({ tokenTtl: 1 });
    await client.welcomeMessage();
    // The server rounds `exp` up to a whole second: the token lives between 1 and 2 s.
    // Both clocks move on instead of the test waiting it out.
    const restore = await advanceClocks(key, 2100);
    try {
      await client.welcomeMessage();
    } finally {
      restore();
    }
    const stats = await keyStats(key);
    expect(stats.tokensIssued).to.equal(2);
    // No request went out with the stale token: exactly two exchanges and two calls.
    expect(stats.requests.map((r) => r.path)).to.deep.equal([
      '/management/v1/auth/token',
      '/messaging/v1/welcome-message',
      '/management/v1/auth/token',
      '/messaging/v1/welcome-message',
    ]);
  });

  describe('with a token cache', () => {
    function memoryCache(): TokenCache & { saved: CachedToken | null; writes: number } {
      return {
        saved: null,
        writes: 0,
        read() {
          return this.saved;
        },
        write(token) {
          this.writes++;
          this.saved = token;
        },
      };
    }

    it('reuses an exchanged token in the next client (the next page view)', async () => {
      const { key } = await setup();
      const cache = memoryCache();
      await new AgentClient({ baseUrl: BASE_URL, publishableKey: key, tokenCache: cache }).welcomeMessage();
      expect(cache.saved?.value).to.be.a('string');
      await new AgentClient({ baseUrl: BASE_URL, publishableKey: key, tokenCache: cache }).welcomeMessage();
      expect((await keyStats(key)).tokensIssued).to.equal(1);
    });

    it('exchanges again when the kept token is about to expire, and forgets one the service rejects', async () => {
      const { key } = await setup({ unauthorized: 1 });
      const cache = memoryCache();
      const kept: Array<string | null> = [];
      const write = cache.write.bind(cache);
      cache.write = (token) => {
        kept.push(token?.value ?? null);
        write(token);
      };
      cache.saved = { value: 'stale', refreshAt: Date.now() - 1 };
      await new AgentClient({ baseUrl: BASE_URL, publishableKey: key, tokenCache: cache }).welcomeMessage();
      const stats = await keyStats(key);
      // The stale token never went out; the first fresh one was refused (the plan), dropped
      // from the cache, and its replacement kept.
      expect(stats.tokensIssued).to.equal(2);
      expect(kept).to.have.length(3);
      expect(kept[1]).to.equal(null);
      expect(kept[0]).to.not.equal(kept[2]);
      expect(cache.saved?.value).to.equal(kept[2]);
    });

    it('never keeps host-minted tokens', async () => {
      const { key } = await setup();
      const cache = memoryCache();
      await new AgentClient({ baseUrl: BASE_URL, tokenProvider: () => tokenFor(key), tokenCache: cache }).welcomeMessage();
      await new AgentClient({ baseUrl: BASE_URL, accessToken: await tokenFor(key), tokenCache: cache }).welcomeMessage();
      expect(cache.writes).to.equal(0);
    });
  });
});
