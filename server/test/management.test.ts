import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { DEMO_AGENT_ID, DEMO_VERSION_IDS } from '../src/agents/versions.js';
import type { Trace } from '../src/agents/trace.js';
import type { Message } from '@agent-chat/wire';
import { envelope, reference } from './support.js';

/**
 * The management surface of the reference server (issue #26): threads read and renamed,
 * their transcripts and traces, agents renamed, versions listed and published, and who may
 * do it. In process through `app.fetch`.
 */

const ORG = { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY };

afterEach(() => {
  vi.useRealTimers();
});

interface Thread {
  id: string;
  title: string | null;
  agent_id: string;
  project_id: string;
  version_id: string;
  version_tag: string;
  user_id: string;
  external_id: string | null;
  welcome_message: string;
  followup_suggestions: string[];
  message_count: number;
  created_at: string;
  updated_at: string;
  branched_from: { thread_id: string; interaction_id: string } | null;
}

interface Version {
  id: string;
  tag: string;
  state: string;
  live: boolean;
  name: string | null;
  published_at: string | null;
}

/** A server with the demo key's and a minted key's tokens, and a login for the minted key's agent. */
async function setup() {
  const ref = await reference();
  const demo = await ref.token(DEMO_PUBLISHABLE_KEY);
  const minted = await ref.mint();
  const login = await ref.json<{ access_token: string; scope: string; agent_id: string; expires_in: number }>('/management/v1/auth/login', {
    headers: ORG,
    body: { publishable_key: minted.key },
  });
  const manage = <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    ref.json<T>(path, init.token ? init : { ...init, headers: ORG });
  return { ref, demo, minted, login, manage };
}

describe('management: a thread', () => {
  it('reads a thread with what a preview shows: its agent, version, welcome and current suggestions', async () => {
    const { ref, demo, manage } = await setup();
    const sent = await ref.send(demo, 'Show me running shoes', undefined, 'shopper-1');
    const thread = await manage<Thread>(`/management/v1/threads/${sent.thread_id}`);
    expect(thread).toMatchObject({
      id: sent.thread_id,
      title: 'Show me running shoes',
      agent_id: DEMO_AGENT_ID,
      version_id: DEMO_VERSION_IDS[0],
      version_tag: 'v1.0',
      user_id: 'shopper-1',
      external_id: null,
      message_count: 2,
      branched_from: null,
    });
    expect(thread.welcome_message).toContain('Trailhead');
    const transcript = await ref.json<Message[]>(`/messaging/v1/threads/${sent.thread_id}/messages`, { token: demo });
    expect(thread.followup_suggestions).toEqual(transcript.at(-1)!.followup_suggestions);
    expect(thread.followup_suggestions.length).toBeGreaterThan(0);
    // The management transcript is the messaging one.
    expect(await manage(`/management/v1/threads/${sent.thread_id}/messages`)).toEqual(transcript);
  });

  it('PATCH changes only the fields it names and returns the whole thread', async () => {
    const { ref, demo, manage } = await setup();
    const { thread_id } = await ref.send(demo, 'hello', undefined, 'shopper-2');
    const before = await manage<Thread>(`/management/v1/threads/${thread_id}`);

    const renamed = await manage<Thread>(`/management/v1/threads/${thread_id}`, { method: 'PATCH', body: { title: 'Greeting' } });
    expect(renamed).toEqual({ ...before, title: 'Greeting', updated_at: renamed.updated_at });
    const changed = await manage<Thread>(`/management/v1/threads/${thread_id}`, {
      method: 'PATCH',
      body: { user_id: 'shopper-3', external_id: 'crm-42', welcome_message: 'Welcome back!', followup_suggestions: ['Track my order'] },
    });
    expect(changed).toMatchObject({
      title: 'Greeting',
      user_id: 'shopper-3',
      external_id: 'crm-42',
      welcome_message: 'Welcome back!',
      followup_suggestions: ['Track my order'],
    });
    expect(await manage(`/management/v1/threads/${thread_id}`)).toEqual(changed);
    // null clears what may be empty; {} changes nothing.
    const cleared = await manage<Thread>(`/management/v1/threads/${thread_id}`, {
      method: 'PATCH',
      body: { title: null, external_id: null },
    });
    expect(cleared).toMatchObject({ title: null, external_id: null, user_id: 'shopper-3' });
    expect(await manage(`/management/v1/threads/${thread_id}`, { method: 'PATCH', body: {} })).toEqual(cleared);
  });

  it('PATCH validates types and lengths, one detail per field; ids and JSON as everywhere', async () => {
    const { ref, demo } = await setup();
    const { thread_id } = await ref.send(demo, 'hello');
    const patch = (body: unknown, id = thread_id) => ref.call(`/management/v1/threads/${id}`, { method: 'PATCH', headers: ORG, body });
    const fields = async (body: unknown) => (await envelope(await patch(body), 422, 'validation_error')).details!.map((d) => d.field);

    expect(await fields({ title: '' })).toEqual(['title']);
    expect(await fields({ title: 'x'.repeat(201) })).toEqual(['title']);
    expect(await fields({ title: 42, user_id: '' })).toEqual(['title', 'user_id']);
    expect(await fields({ user_id: null })).toEqual(['user_id']);
    expect(await fields({ followup_suggestions: Array.from({ length: 11 }, () => 'x') })).toEqual(['followup_suggestions']);
    expect(await fields({ followup_suggestions: ['ok', 3] })).toEqual(['followup_suggestions.1']);
    expect(await fields({ welcome_message: 'x'.repeat(4001) })).toEqual(['welcome_message']);
    expect(await fields({ agent_id: DEMO_AGENT_ID })).toEqual([null]);
    expect(await fields([])).toEqual([null]);
    await envelope(await patch('{"title":'), 400, 'invalid_json');
    expect((await envelope(await patch({ title: 'x' }, 'nope'), 422)).details![0]!.field).toBe('thread_id');
    await envelope(await patch({ title: 'x' }, '0123456789abcdef01234567'), 404, 'not_found');
  });

  it('traces each interaction with the steps the scripted agent took: intent, parameters, tools, rules, the stream', async () => {
    const { ref, demo, manage } = await setup();
    const first = await ref.send(demo, 'Waterproof jackets under $150');
    const second = await ref.send(demo, 'Compare your backpacks', first.thread_id);
    const trace = await manage<Trace>(`/management/v1/interactions/${first.message.id}/trace`);
    expect(trace).toMatchObject({
      interaction_id: first.message.id,
      thread_id: first.thread_id,
      agent_id: DEMO_AGENT_ID,
      version_tag: 'v1.0',
      status: 'completed',
      error: null,
      truncated: false,
    });
    const step = (type: string, name: string) => trace.steps.find((s) => s.type === type && s.name === name);
    expect(step('intent', 'products')).toMatchObject({ input: { text: 'Waterproof jackets under $150' } });
    expect(step('param', 'budget')!.output).toEqual({ value: 150 });
    expect(step('param', 'category')!.output).toEqual({ value: 'jackets' });
    expect(step('rule', 'budget_limit')!.outcome).toBe('fired');
    expect(step('tool', 'catalog.search')).toMatchObject({ input: { category: 'jackets', max_price: 150 } });
    expect((step('tool', 'catalog.search')!.output as { results: string[] }).results.length).toBeGreaterThan(0);
    expect(step('reply', 'stream')!.output).toMatchObject({ chars: first.message.text.length });
    for (const s of trace.steps) {
      expect(Date.parse(s.started_at)).toBeGreaterThanOrEqual(Date.parse(trace.started_at));
      expect(s.duration_ms).toBeGreaterThanOrEqual(0);
    }

    const whole = await manage<{ thread_id: string; traces: Trace[] }>(`/management/v1/threads/${first.thread_id}/trace`);
    expect(whole.traces.map((t) => t.interaction_id)).toEqual([first.message.id, second.message.id]);
    expect(whole.traces[1]!.steps.find((s) => s.type === 'tool')!.name).toBe('catalog.compare');

    await envelope(await ref.call('/management/v1/interactions/0123456789abcdef01234567/trace', { headers: ORG }), 404, 'not_found');
    expect((await envelope(await ref.call('/management/v1/interactions/xyz/trace', { headers: ORG }), 422)).details![0]!.field).toBe(
      'interaction_id',
    );
  });

  it("traces the model bridge's turn: the prompt sent, the model, tokens, timing and finish reason", async () => {
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }] },
      { choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }] },
      { choices: [], usage: { prompt_tokens: 42, completion_tokens: 2, total_tokens: 44 } },
    ];
    const requests: unknown[] = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      requests.push(JSON.parse(String(init?.body)));
      const body = chunks
        .map((c) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', ...c })}\n\n`)
        .join('');
      return new Response(`${body}data: [DONE]\n\n`, { headers: { 'content-type': 'text/event-stream' } });
    };
    const ref = await reference({ model: { baseURL: 'http://model.test/v1', apiKey: 'secret-key', model: 'tiny-model', fetch } });
    const sent = await ref.send(await ref.token(DEMO_PUBLISHABLE_KEY), 'Say hello');
    expect(sent.message.text).toBe('Hello there');
    const trace = await ref.json<Trace>(`/management/v1/interactions/${sent.message.id}/trace`, { headers: ORG });
    const model = trace.steps.find((s) => s.type === 'model')!;
    expect(model.name).toBe('tiny-model');
    expect(model.input).toMatchObject({ base_url: 'http://model.test', message_count: 2 });
    expect((model.input as { messages: Array<{ role: string; content: string }> }).messages.at(-1)).toEqual({
      role: 'user',
      content: 'Say hello',
    });
    expect(model.output).toMatchObject({ text: 'Hello there', finish_reason: 'stop', input_tokens: 42, output_tokens: 2 });
    expect((model.output as { first_token_ms: number }).first_token_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(trace)).not.toContain('secret-key');
    expect(requests).toHaveLength(1);
  });

  it("traces a failed turn as failed, with the agent's code", async () => {
    const ref = await reference();
    const { token, agentId } = await ref.mint({ errorFrame: { after: 2, status: 503, message: 'Down for a moment' }, paceMs: 0 });
    const res = await ref.call('/messaging/v1/messages/stream', { token, body: { text: 'hi', user_id: 'u' } });
    await res.text();
    const list = await ref.json<{ results: Array<{ id: string }> }>(`/management/v1/threads?agent_id=${agentId}`, { headers: ORG });
    const { traces } = await ref.json<{ traces: Trace[] }>(`/management/v1/threads/${list.results[0]!.id}/trace`, { headers: ORG });
    expect(traces[0]).toMatchObject({ status: 'failed', error: { message: 'Down for a moment' } });
    expect(traces[0]!.steps.find((s) => s.type === 'reply')!.error).toBeTruthy();
  });
});

describe('management: agents and versions', () => {
  it('lists an agent’s versions, its live one marked', async () => {
    const { manage } = await setup();
    const { results } = await manage<{ results: Version[]; meta: { has_more: boolean } }>(
      `/management/v1/agents/${DEMO_AGENT_ID}/versions`,
    );
    expect(results.map((v) => [v.id, v.tag, v.state, v.live])).toEqual([
      [DEMO_VERSION_IDS[0], 'v1.0', 'published', true],
      [DEMO_VERSION_IDS[1], 'v1.1-preview', 'draft', false],
    ]);
  });

  it('renames an agent: the live version is re-published with the new name, and stays the live one', async () => {
    const { manage } = await setup();
    const before = await manage<{ live_version_id: string; updated_at: string }>(`/management/v1/agents/${DEMO_AGENT_ID}`);
    const { results: versions } = await manage<{ results: Version[] }>(`/management/v1/agents/${DEMO_AGENT_ID}/versions`);
    const renamed = await manage<{ name: string; live_version_id: string }>(`/management/v1/agents/${DEMO_AGENT_ID}`, {
      method: 'PATCH',
      body: { name: 'Trailhead helper' },
    });
    expect(renamed).toMatchObject({ id: DEMO_AGENT_ID, name: 'Trailhead helper', live_version_id: before.live_version_id });
    const { results: after } = await manage<{ results: Version[] }>(`/management/v1/agents/${DEMO_AGENT_ID}/versions`);
    expect(after[0]).toMatchObject({ live: true, name: 'Trailhead helper' });
    expect(Date.parse(after[0]!.published_at!)).toBeGreaterThanOrEqual(Date.parse(versions[0]!.published_at!));
    expect(after[1]).toEqual(versions[1]);
  });

  it('validates a rename and names agents strictly', async () => {
    const { ref } = await setup();
    const patch = (body: unknown, id = DEMO_AGENT_ID) => ref.call(`/management/v1/agents/${id}`, { method: 'PATCH', headers: ORG, body });
    expect((await envelope(await patch({ name: '' }), 422, 'validation_error')).details![0]!.field).toBe('name');
    expect((await envelope(await patch({}), 422)).details![0]!.field).toBe('name');
    expect((await envelope(await patch({ name: 'x', live_version_id: DEMO_VERSION_IDS[1] }), 422)).details![0]!.field).toBe(null);
    await envelope(await patch({ name: 'x' }, '0123456789abcdef01234567'), 404, 'not_found');
    expect((await envelope(await patch({ name: 'x' }, 'agent'), 422)).details![0]!.field).toBe('agent_id');
  });

  it('publishing makes messaging run on that version; a rerun pinned to another still runs on it', async () => {
    const { ref, demo, manage } = await setup();
    const earlier = await ref.send(demo, 'hello');
    expect(earlier.message.text).not.toContain('v1.1-preview');

    const published = await manage<Version>(`/management/v1/agents/${DEMO_AGENT_ID}/versions/${DEMO_VERSION_IDS[1]}/publish`, {
      method: 'POST',
    });
    expect(published).toMatchObject({ id: DEMO_VERSION_IDS[1], tag: 'v1.1-preview', state: 'published', live: true });
    expect(await manage(`/management/v1/agents/${DEMO_AGENT_ID}`)).toMatchObject({ live_version_id: DEMO_VERSION_IDS[1] });

    // New threads and the turns of existing ones run on the live version now.
    const fresh = await ref.send(demo, 'hello');
    expect(fresh.message.text).toContain('Answered by the v1.1-preview version');
    const continued = await ref.send(demo, 'hello again', earlier.thread_id);
    expect(continued.message.text).toContain('v1.1-preview');
    expect(await manage(`/management/v1/threads/${earlier.thread_id}`)).toMatchObject({ version_tag: 'v1.1-preview' });

    // A rerun pinned to v1.0 runs on it, and its branch keeps running on it.
    const rerun = await ref.json<{ thread_id: string; message: { id: string; text: string } }>(
      `/messaging/v1/threads/${fresh.thread_id}/rerun`,
      { token: demo, body: { interaction_id: fresh.message.id, text: 'hello', version_id: DEMO_VERSION_IDS[0] } },
    );
    expect(rerun.message.text).not.toContain('v1.1-preview');
    expect((await ref.send(demo, 'and now?', rerun.thread_id)).message.text).not.toContain('v1.1-preview');
    expect(await manage(`/management/v1/threads/${rerun.thread_id}`)).toMatchObject({
      version_tag: 'v1.0',
      branched_from: { thread_id: fresh.thread_id, interaction_id: fresh.message.id },
    });
    const trace = await manage<Trace>(`/management/v1/interactions/${rerun.message.id}/trace`);
    expect(trace).toMatchObject({ version_id: DEMO_VERSION_IDS[0], version_tag: 'v1.0' });
    // An unpinned rerun runs on the live version.
    const live = await ref.json<{ message: { text: string } }>(`/messaging/v1/threads/${earlier.thread_id}/rerun`, {
      token: demo,
      body: { interaction_id: earlier.message.id, text: 'hello' },
    });
    expect(live.message.text).toContain('v1.1-preview');
  });

  it("publishes for one agent only: another key's agent keeps its live version", async () => {
    const { ref, minted, manage } = await setup();
    await manage(`/management/v1/agents/${DEMO_AGENT_ID}/versions/${DEMO_VERSION_IDS[1]}/publish`, { method: 'POST' });
    expect((await ref.send(minted.token, 'hello')).message.text).not.toContain('v1.1-preview');
    // Its versions are its own: the demo agent's ids are not among them.
    const { results } = await manage<{ results: Version[] }>(`/management/v1/agents/${minted.agentId}/versions`);
    expect(results.map((v) => v.tag)).toEqual(['v1.0', 'v1.1-preview']);
    expect(results.map((v) => v.id)).not.toContain(DEMO_VERSION_IDS[0]);
    const publish = (agent: string, version: string) =>
      ref.call(`/management/v1/agents/${agent}/versions/${version}/publish`, { method: 'POST', headers: ORG });
    await envelope(await publish(minted.agentId, DEMO_VERSION_IDS[1]), 404, 'not_found');
    expect((await envelope(await publish(minted.agentId, 'v1'), 422)).details![0]!.field).toBe('version_id');
  });
});

describe('management: who may use it', () => {
  it('without credentials: 401 with the envelope and a Bearer challenge', async () => {
    const { ref } = await setup();
    for (const path of ['/management/v1/threads', `/management/v1/agents/${DEMO_AGENT_ID}/versions`]) {
      const res = await ref.call(path);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      await envelope(res, 401, 'auth.missing_credentials');
    }
  });

  it("a publishable key's token serves messaging only: 403 on management", async () => {
    const { ref, demo } = await setup();
    expect(decodeJwt(demo)).toMatchObject({ scope: 'messaging', sub: DEMO_AGENT_ID });
    await envelope(await ref.call('/management/v1/threads', { token: demo }), 403, 'auth.insufficient_scope');
    await envelope(await ref.call(`/management/v1/agents/${DEMO_AGENT_ID}`, { token: demo }), 403, 'auth.insufficient_scope');
  });

  it('a wrong organization key is 401, whatever else the request carries', async () => {
    const { ref, login } = await setup();
    const wrong = { 'x-organization-api-key': 'org_guess' };
    await envelope(await ref.call('/management/v1/threads', { headers: wrong }), 401, 'auth.invalid_api_key');
    await envelope(await ref.call('/management/v1/threads', { headers: wrong, token: login.access_token }), 401, 'auth.invalid_api_key');
    await envelope(
      await ref.call('/management/v1/auth/login', { headers: wrong, body: { agent_id: DEMO_AGENT_ID } }),
      401,
      'auth.invalid_api_key',
    );
  });

  it('the organization key sees every agent', async () => {
    const { ref, demo, minted, manage } = await setup();
    await ref.send(demo, 'hello');
    await ref.send(minted.token, 'hello');
    const { results } = await manage<{ results: Array<{ agent_id: string }> }>('/management/v1/threads');
    expect(new Set(results.map((t) => t.agent_id))).toEqual(new Set([DEMO_AGENT_ID, minted.agentId]));
  });

  it("a login session's token serves management and messaging for its own agent only", async () => {
    const { ref, demo, minted, login } = await setup();
    expect(login).toMatchObject({ scope: 'messaging management', agent_id: minted.agentId, expires_in: 3600 });
    expect(decodeJwt(login.access_token)).toMatchObject({ scope: 'messaging management', sub: minted.agentId });
    const token = login.access_token;

    // Messaging with the same token: the builder's widget uses one token for both.
    const own = await ref.send(token, 'hello from the console');
    const mine = await ref.send(minted.token, 'hello from a visitor');
    const theirs = await ref.send(demo, 'hello');
    const { results } = await ref.json<{ results: Array<{ id: string }> }>('/management/v1/threads', { token });
    expect(results.map((t) => t.id).sort()).toEqual([own.thread_id, mine.thread_id].sort());
    expect(await ref.json(`/management/v1/interactions/${mine.message.id}/trace`, { token })).toMatchObject({ status: 'completed' });

    // Another agent's threads, traces and versions are reported as missing.
    await envelope(await ref.call(`/management/v1/threads/${theirs.thread_id}`, { token }), 404, 'not_found');
    await envelope(await ref.call(`/management/v1/interactions/${theirs.message.id}/trace`, { token }), 404, 'not_found');
    await envelope(await ref.call(`/management/v1/agents/${DEMO_AGENT_ID}/versions`, { token }), 404, 'not_found');
    const filtered = await ref.json<{ results: unknown[] }>(`/management/v1/threads?agent_id=${DEMO_AGENT_ID}`, { token });
    expect(filtered.results).toEqual([]);
  });

  it('logs in by publishable key or agent id, with the organization key only', async () => {
    const { ref, minted } = await setup();
    const login = (body: unknown, headers: Record<string, string> = ORG) => ref.call('/management/v1/auth/login', { headers, body });
    expect((await login({ agent_id: minted.agentId })).status).toBe(200);
    expect((await login({ publishable_key: DEMO_PUBLISHABLE_KEY })).status).toBe(200);
    await envelope(await login({ agent_id: DEMO_AGENT_ID }, {}), 401, 'auth.missing_credentials');
    await envelope(await login({ publishable_key: 'pk_nobody' }), 404, 'not_found');
    await envelope(await login({ agent_id: '0123456789abcdef01234567' }), 404, 'not_found');
    expect((await envelope(await login({}), 422)).details![0]!.field).toBe('agent_id');
    expect((await envelope(await login({ agent_id: minted.agentId, publishable_key: minted.key }), 422)).details![0]!.field).toBe(
      'agent_id',
    );
    expect((await envelope(await login({ agent_id: 'x' }), 422)).details![0]!.field).toBe('agent_id');
  });

  it("a login session's token expires: 401 auth.token_expired", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { ref, login } = await setup();
    vi.setSystemTime(Date.now() + 3601_000);
    await envelope(await ref.call('/management/v1/threads', { token: login.access_token }), 401, 'auth.token_expired');
  });

  it('an unknown management path is 404, with or without credentials', async () => {
    const { ref } = await setup();
    await envelope(await ref.call('/management/v1/nothing-here'), 404, 'not_found');
    await envelope(await ref.call('/management/v1/nothing-here', { headers: ORG }), 404, 'not_found');
  });
});

describe('what management stores', () => {
  it('counts against the thread’s key like messages: a key that grows by PATCH forgets its own oldest threads', async () => {
    const ref = await reference();
    const { key, token } = await ref.mint({ replies: [{ text: 'ok' }], limits: { bytes: 64 * 1024 } });
    const threads = [];
    for (let i = 0; i < 4; i++) threads.push((await ref.send(token, `question ${i}`)).thread_id);
    const before = (await ref.stats(key)).usage.bytes;
    const long = 'w'.repeat(4000);
    await ref.json(`/management/v1/threads/${threads[3]}`, { method: 'PATCH', headers: ORG, body: { welcome_message: long } });
    expect((await ref.stats(key)).usage.bytes).toBeGreaterThan(before + long.length);
    for (const id of threads) {
      await ref.call(`/management/v1/threads/${id}`, {
        method: 'PATCH',
        headers: ORG,
        body: { welcome_message: long, title: 't'.repeat(200) },
      });
    }
    for (let i = 0; i < 8; i++) {
      const id = (await ref.send(token, `more ${i}`)).thread_id;
      await ref.json(`/management/v1/threads/${id}`, { method: 'PATCH', headers: ORG, body: { welcome_message: long } });
    }
    const usage = (await ref.stats(key)).usage;
    expect(usage.bytes).toBeLessThanOrEqual(64 * 1024);
    await envelope(await ref.call(`/messaging/v1/threads/${threads[0]}/messages`, { token }), 404, 'not_found');
  });
});

describe('the browser suite’s copy of the dev organization key', () => {
  it('is the server’s dev default', async () => {
    const support = await import('node:fs').then((fs) => fs.readFileSync(new URL('../../test/support/server.ts', import.meta.url), 'utf8'));
    expect(support).toContain(`ORGANIZATION_API_KEY = '${DEV_ORGANIZATION_API_KEY}'`);
  });
});

describe('management: the organization key’s rate', () => {
  it('answers 429 with Retry-After past it, and recovers as the clock moves', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ref = await reference({ limits: { organization: { perSecond: 1, burst: 2 } } });
    for (let i = 0; i < 2; i++) expect((await ref.call('/management/v1/threads', { headers: ORG })).status).toBe(200);
    const refused = await ref.call('/management/v1/threads', { headers: ORG });
    expect(refused.headers.get('retry-after')).toBe('1');
    await envelope(refused, 429, 'rate_limited');
    vi.setSystemTime(Date.now() + 1000);
    expect((await ref.call('/management/v1/threads', { headers: ORG })).status).toBe(200);
  });
});
