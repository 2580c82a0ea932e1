import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { frames, startServer, type Frame } from './processes.js';

/**
 * Nothing is lost on restart (issue #38): the server as `npm run server` runs it, on an
 * embedded PostgreSQL in a data folder, killed (SIGKILL) in the middle of a streamed turn and
 * started again on the same folder. Threads, transcripts, traces, titles, versions, issued
 * tokens and idempotency keys are all still there; the turn that was running ends as
 * interrupted, in its transcript and for a client that resumes it.
 */
const ORG = 'org_restart_test_key';
const dataDir = mkdtempSync(join(tmpdir(), 'agent-chat-restart-'));
const otherDir = mkdtempSync(join(tmpdir(), 'agent-chat-sigterm-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(otherDir, { recursive: true, force: true });
});

/** The server on `dataDir` unless `env` says otherwise. */
const start = (env: Record<string, string> = {}) => startServer({ DATA_DIR: dataDir, ORGANIZATION_API_KEY: ORG, ...env });

describe('a server killed mid-turn and started again on the same data', () => {
  it('keeps threads, transcripts, traces, titles, versions, tokens and keys, and ends the running turn as interrupted', async () => {
    const first = await start();
    const api = (base: string) => ({
      json: async <T>(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) => {
        const res = await fetch(base + path, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: {
            'content-type': 'application/json',
            ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
            ...init.headers,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
        return JSON.parse(text) as T;
      },
    });
    const org = { 'x-organization-api-key': ORG };
    let a = api(first.base);
    // A key whose replies stream slowly: the kill lands mid-turn.
    const { publishable_key: key } = await a.json<{ publishable_key: string }>('/__demo/keys', {
      body: { paceMs: 150, replies: [{ text: 'Kept.' }, { text: Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ') }] },
    });
    const { access_token: token } = await a.json<{ access_token: string }>('/management/v1/auth/token', { body: { publishable_key: key } });
    const ask = { text: 'Remember me?', user_id: 'visitor-1' };
    const kept = await a.json<{ thread_id: string; message: { id: string; text: string } }>('/messaging/v1/messages', {
      token,
      body: ask,
      headers: { 'idempotency-key': '"kept-key"' },
    });
    await a.json(`/management/v1/threads/${kept.thread_id}`, { method: 'PATCH', body: { title: 'Renamed before the kill' }, headers: org });
    const { agent_id: agentId } = await a.json<{ agent_id: string }>(`/management/v1/threads/${kept.thread_id}`, { headers: org });
    const versions = await a.json<{ results: Array<{ id: string; tag: string }> }>(`/management/v1/agents/${agentId}/versions`, {
      headers: org,
    });
    const preview = versions.results.find((v) => v.tag === 'v1.1-preview')!;
    await a.json(`/management/v1/agents/${agentId}/versions/${preview.id}/publish`, { method: 'POST', headers: org });

    // The turn the kill interrupts: read until a few words have come, then kill.
    const res = await fetch(`${first.base}/messaging/v1/messages/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': '"cut-key"' },
      body: JSON.stringify({ text: 'Tell me a long story', user_id: 'visitor-1' }),
    });
    let threadId = '';
    let lastSeq = 0;
    let seen = '';
    for await (const frame of frames(res)) {
      if (frame === '[DONE]') break;
      if (frame.type === 'thread') threadId = frame.data.thread_id!;
      if (frame.type === 'event') {
        lastSeq = frame.seq!;
        seen += frame.data.text;
      }
      // Past the frame log's batch (50 ms): what the client saw is on disk.
      if (lastSeq >= 5) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start();
    expect(second.output()).toMatch(/Ended 1 turn\(s\) the last run left running, as interrupted/);
    a = api(second.base);
    // The token issued before the kill is still good: the signing key is kept in the data folder.
    const transcript = await a.json<Array<{ id: string; text: string }>>(`/messaging/v1/threads/${kept.thread_id}/messages`, { token });
    expect(transcript.map((m) => m.text)).toEqual(['Remember me?', 'Kept.']);
    // The title, the live version, the trace.
    const thread = await a.json<{ title: string; agent_id: string }>(`/management/v1/threads/${kept.thread_id}`, { headers: org });
    expect(thread.title).toBe('Renamed before the kill');
    const agent = await a.json<{ live_version_tag: string }>(`/management/v1/agents/${agentId}`, { headers: org });
    expect(agent.live_version_tag).toBe('v1.1-preview');
    const traces = await a.json<{ traces: Array<{ interaction_id: string; status: string }> }>(
      `/management/v1/threads/${kept.thread_id}/trace`,
      {
        headers: org,
      },
    );
    expect(traces.traces).toMatchObject([{ interaction_id: kept.message.id, status: 'completed' }]);
    // The idempotency key: the same request joins the turn it started, never runs it again.
    const again = await a.json<{ thread_id: string; message: { id: string } }>('/messaging/v1/messages', {
      token,
      body: ask,
      headers: { 'idempotency-key': '"kept-key"' },
    });
    expect(again).toMatchObject({ thread_id: kept.thread_id, message: { id: kept.message.id } });

    // The interrupted turn: a client resuming it gets what it missed, then a clean end.
    const resumed = await fetch(`${second.base}/messaging/v1/messages/stream`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': '"cut-key"',
        'last-event-id': String(lastSeq),
      },
      body: JSON.stringify({ text: 'Tell me a long story', user_id: 'visitor-1', thread_id: threadId }),
    });
    expect(resumed.status).toBe(200);
    const after: Array<Frame | '[DONE]'> = [];
    for await (const frame of frames(resumed)) after.push(frame);
    expect(after[0]).toMatchObject({ type: 'thread', data: { thread_id: threadId } });
    expect(after.at(-2)).toMatchObject({ type: 'error', data: { code: 'turn.interrupted', status: 503 } });
    expect(after.at(-1)).toBe('[DONE]');
    for (const frame of after.slice(1, -2)) expect((frame as Frame).seq).toBeGreaterThan(lastSeq);
    // In its transcript: the question, and what the reply had said, marked as interrupted.
    const cut = await a.json<Array<{ text: string; sender: { type: string } }>>(`/messaging/v1/threads/${threadId}/messages`, { token });
    expect(cut.map((m) => m.sender.type)).toEqual(['user', 'agent']);
    expect(cut[0]!.text).toBe('Tell me a long story');
    expect(cut[1]!.text.startsWith(seen)).toBe(true);
    expect(cut[1]!.text).toMatch(/interrupted/);
    const cutTraces = await a.json<{ traces: Array<{ status: string; error: { code: string } | null }> }>(
      `/management/v1/threads/${threadId}/trace`,
      {
        headers: org,
      },
    );
    expect(cutTraces.traces).toMatchObject([{ status: 'interrupted', error: { code: 'turn.interrupted' } }]);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }, 180_000);

  it('on SIGTERM lets a running turn end within the grace period, then ends it as interrupted, logs each request as JSON, and exits 0', async () => {
    const server = await start({ DATA_DIR: otherDir, SHUTDOWN_GRACE_MS: '400' });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const { publishable_key: key } = (await (
      await post('/__demo/keys', { paceMs: 200, replies: [{ text: 'a b c d e f g h i j k l m n o p' }] })
    ).json()) as {
      publishable_key: string;
    };
    const { access_token: token } = (await (await post('/management/v1/auth/token', { publishable_key: key })).json()) as {
      access_token: string;
    };
    const res = await post('/messaging/v1/messages/stream', { text: 'Slowly', user_id: 'u' }, { authorization: `Bearer ${token}` });
    const seen: Array<Frame | '[DONE]'> = [];
    const reading = (async () => {
      for await (const frame of frames(res)) seen.push(frame);
    })();
    while (!seen.some((f) => f !== '[DONE]' && f.type === 'event')) await new Promise((resolve) => setTimeout(resolve, 20));
    server.child.kill('SIGTERM');
    const code = await new Promise((resolve) => server.child.once('exit', resolve));
    await reading;
    expect(code).toBe(0);
    expect(seen.at(-2)).toMatchObject({ type: 'error', data: { code: 'turn.interrupted' } });
    expect(seen.at(-1)).toBe('[DONE]');
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { path: string; status: number; request_id: string });
    expect(logged.map((r) => r.path)).toEqual(['/__demo/keys', '/management/v1/auth/token', '/messaging/v1/messages/stream']);
    expect(logged.every((r) => r.status === 200 && /^req_/.test(r.request_id))).toBe(true);

    // Nothing was left running for the next start to end.
    const next = await start({ DATA_DIR: otherDir });
    expect(next.output()).not.toMatch(/Ended \d+ turn/);
    next.child.kill('SIGKILL');
  }, 120_000);
});
