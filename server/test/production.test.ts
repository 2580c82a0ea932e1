import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { AgentsConfig } from '../src/agents/config.js';
import { DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { settingsFromEnv } from '../src/settings.js';
import { envelope, reference, testDb } from './support.js';

/**
 * Production and demo apart (issue #38, item 4), and agents defined by their operator (item
 * 5): a production server has no fault knobs and no `/__demo` routes, no demo agent unless
 * asked, and refuses to start where other machines reach it without its secrets; the
 * agents an operator lists are stored, answered by the model bridge with each version's
 * settings, and grow versions through the management surface.
 */

const ORG = { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY };
const AGENT = '5a1e5a1e5a1e5a1e5a1e5a1e';

const config = (live = 'v1'): AgentsConfig => ({
  agents: [
    {
      id: AGENT,
      name: 'Support',
      publishable_keys: ['pk_live_support_0001'],
      live,
      versions: [
        {
          tag: 'v1',
          welcome_message: 'Hi {{name}}, Support here.',
          starter_suggestions: ['Where is my order?'],
          model: 'small-model',
          instructions: 'Be brief.',
        },
        { tag: 'v2', welcome_message: 'Hello again.', model: 'large-model', instructions: 'Be thorough.' },
      ],
    },
  ],
});

/** A model behind the bridge that says "Hello there" and keeps what each request asked. */
function fakeModel() {
  const requests: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
  const fetch = async (_url: unknown, init?: RequestInit) => {
    requests.push(JSON.parse(String(init?.body)) as (typeof requests)[number]);
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }] },
      { choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }] },
    ];
    const body = chunks
      .map((c) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', ...c })}\n\n`)
      .join('');
    return new Response(`${body}data: [DONE]\n\n`, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { requests, settings: { baseURL: 'http://model.test/v1', apiKey: 'k', model: 'default-model', fetch } };
}

describe('a production server', () => {
  it('has no fault knobs, no /__demo routes and no demo key unless asked', async () => {
    const model = fakeModel();
    const ref = await reference({ production: true, faults: false, model: model.settings, agents: config() });
    for (const path of ['/__demo/keys', '/__demo/health', '/__demo/images/switchback-28.svg'])
      await envelope(await ref.call(path, path === '/__demo/keys' ? { body: {} } : {}), 404, 'not_found');
    await envelope(
      await ref.call('/management/v1/auth/token', { body: { publishable_key: DEMO_PUBLISHABLE_KEY } }),
      401,
      'auth.invalid_key',
    );
    expect((await ref.call('/health/ready')).status).toBe(200);
    // With the demo asked for, its key and pictures are there.
    const demo = await reference({ production: true, faults: false, demo: true });
    expect((await demo.call('/management/v1/auth/token', { body: { publishable_key: DEMO_PUBLISHABLE_KEY } })).status).toBe(200);
    expect((await demo.call('/__demo/images/switchback-28.svg')).status).toBe(200);
    await envelope(await demo.call('/__demo/keys', { body: {} }), 404, 'not_found');
  });

  it('refuses the fault knobs, and a start with nothing to answer', async () => {
    await expect(reference({ production: true, faults: true, demo: true })).rejects.toThrow(/fault knobs are for tests/);
    await expect(reference({ production: true, faults: false })).rejects.toThrow(/Nothing would answer/);
  });

  it('will not start where other machines reach it without its secrets, and says which are missing', () => {
    const base = { NODE_ENV: 'production', OPENAI_BASE_URL: 'http://model.test/v1', AGENT_MODEL: 'm', DATA_DIR: 'memory://' };
    expect(() => settingsFromEnv({ ...base, HOST: '0.0.0.0' })).toThrow(
      /without ORGANIZATION_API_KEY and SIGNING_KEY \(or SIGNING_KEY_FILE\)/,
    );
    expect(() => settingsFromEnv({ ...base, HOST: '0.0.0.0', ORGANIZATION_API_KEY: 'org_x' })).toThrow(/without SIGNING_KEY/);
    const ok = settingsFromEnv({ ...base, HOST: '0.0.0.0', ORGANIZATION_API_KEY: 'org_x', SIGNING_KEY: 'k'.repeat(40) });
    expect(ok).toMatchObject({ production: true, demo: false, faults: false });
    // On this machine only, the defaults are fine.
    expect(settingsFromEnv({ ...base, HOST: '127.0.0.1' }).production).toBe(true);
    expect(settingsFromEnv({ ...base, HOST: '127.0.0.1', DEMO_AGENT: '1' }).demo).toBe(true);
  });

  it('the bin exits 1 with that message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('../src/main.ts', import.meta.url).pathname], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
        PORT: '0',
        DATA_DIR: 'memory://',
        ORGANIZATION_API_KEY: '',
        SIGNING_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/Refusing to start in production on 0\.0\.0\.0.*ORGANIZATION_API_KEY and SIGNING_KEY/);
  }, 60_000);
});

describe('agents defined by their operator', () => {
  it('are stored with their keys and versions, and answered by the model with the live version’s settings', async () => {
    const model = fakeModel();
    const db = await testDb();
    const ref = await reference({ db, production: true, faults: false, model: model.settings, agents: config() });
    expect(ref.server.agents).toEqual({ agents: 1, created: 1, versionsAdded: 0, unchanged: [] });
    const token = await ref.token('pk_live_support_0001');
    const welcome = await ref.json<{ welcome_message: string }>('/messaging/v1/welcome-message', { token });
    expect(welcome.welcome_message).toBe('Hi {{name}}, Support here.');
    const starters = await ref.json<{ suggestions: string[] }>('/messaging/v1/followup-suggestions', { token, body: {} });
    expect(starters.suggestions).toEqual(['Where is my order?']);
    const sent = await ref.send(token, 'Where is my parcel?');
    expect(sent.message.text).toBe('Hello there');
    expect(model.requests[0]!.model).toBe('small-model');
    expect(model.requests[0]!.messages[0]!.content).toContain('Be brief.');

    // A version made and published through the management surface.
    const made = await ref.json<{ id: string; tag: string; state: string; model: string }>(`/management/v1/agents/${AGENT}/versions`, {
      headers: ORG,
      body: { tag: 'v3', model: 'newest-model', instructions: 'Answer in one line.' },
    });
    expect(made).toMatchObject({ tag: 'v3', state: 'draft', model: 'newest-model' });
    await envelope(
      await ref.call(`/management/v1/agents/${AGENT}/versions`, { headers: ORG, body: { tag: 'v3' } }),
      409,
      'agents.version_exists',
    );
    await ref.json(`/management/v1/agents/${AGENT}/versions/${made.id}/publish`, { method: 'POST', headers: ORG });
    await ref.send(token, 'And now?');
    expect(model.requests[1]!.model).toBe('newest-model');

    // The next start, with the same file: nothing made twice, the version published since stays live.
    const again = await reference({ db, production: true, faults: false, model: model.settings, agents: config() });
    expect(again.server.agents).toMatchObject({ created: 0, versionsAdded: 0, unchanged: [] });
    const agent = await again.json<{ live_version_tag: string }>(`/management/v1/agents/${AGENT}`, { headers: ORG });
    expect(agent.live_version_tag).toBe('v3');
    const versions = await again.json<{ results: Array<{ tag: string }> }>(`/management/v1/agents/${AGENT}/versions`, { headers: ORG });
    expect(versions.results.map((v) => v.tag)).toEqual(['v1', 'v2', 'v3']);

    // A file that names a new live version adds and publishes it; a changed stored version is reported, kept.
    const next = config('v4');
    next.agents[0]!.versions.push({ tag: 'v4', model: 'v4-model' });
    next.agents[0]!.versions[0]!.instructions = 'Changed.';
    const third = await reference({ db, production: true, faults: false, model: model.settings, agents: next });
    expect(third.server.agents).toMatchObject({ versionsAdded: 1, unchanged: ['Support v1'] });
    const now = await third.json<{ live_version_tag: string }>(`/management/v1/agents/${AGENT}`, { headers: ORG });
    expect(now.live_version_tag).toBe('v4');
  });

  it('refuses a key that serves another agent, and a file that is not valid', async () => {
    const db = await testDb();
    await reference({ db, agents: config() });
    const taken = config();
    taken.agents[0]!.id = '6b6b6b6b6b6b6b6b6b6b6b6b';
    await expect(reference({ db, agents: taken })).rejects.toThrow(/serves another agent/);
  });
});
