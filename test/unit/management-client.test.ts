import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentClient, ManagementClient, jwtExpiry, jwtPayload, tokenAccess } from '../../src/client/index.js';
import {
  JSON_BUDGET,
  MAX_STEPS,
  MAX_VERSIONS,
  boundedJson,
  readThread,
  readTrace,
  readVersions,
} from '../../src/client/management-guards.js';

/**
 * The management client of a builder's preview (docs/protocol.md "Management"): what a
 * token serves, read from its payload, and every response checked and bounded where it
 * enters (src/client/management-guards.ts).
 */

const AGENT = '65f1a7c2e4b0d3a9c8f01234';
const VERSION = '65f1a7c2e4b0d3a9c8f0a101';
const THREAD = 'ab'.repeat(12);

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** An unsigned JWT-shaped string: the client reads payloads, the service verifies them. */
const jwt = (payload: unknown) => `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.sig`;

/** The size of a bounded value as text: what a render of it shows at most. */
const shown = (value: unknown) => JSON.stringify(value, null, 2) ?? '';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('what a token serves', () => {
  it("a login session's token serves management; its sub names the agent", () => {
    expect(tokenAccess(jwt({ scope: 'messaging management', sub: AGENT, exp: 1 }))).toEqual({ management: true, agentId: AGENT });
    expect(tokenAccess(jwt({ scope: 'management', sub: 'not-an-id' }))).toEqual({ management: true, agentId: null });
  });

  it("a publishable key's token, one without a scope, an opaque one or none serves messaging only", () => {
    for (const token of [jwt({ scope: 'messaging', sub: AGENT }), jwt({ sub: AGENT }), 'opaque', 'a.!!!.c', '', null]) {
      expect(tokenAccess(token).management).toBe(false);
    }
    // Words, not substrings; a scope that is not text is none.
    expect(tokenAccess(jwt({ scope: 'messaging managements' })).management).toBe(false);
    expect(tokenAccess(jwt({ scope: ['management'] })).management).toBe(false);
    expect(tokenAccess(jwt(['management'])).management).toBe(false);
  });

  it('reads any payload without throwing, and says management exactly when a word of scope is', () => {
    const scopeWords = fc.array(fc.constantFrom('messaging', 'management', 'Management', 'admin', ''), { maxLength: 4 });
    fc.assert(
      fc.property(
        fc.oneof(
          scopeWords.map((w) => w.join(' ')),
          fc.jsonValue(),
        ),
        fc.jsonValue(),
        (scope, sub) => {
          const access = tokenAccess(jwt({ scope, sub }));
          expect(access.management).toBe(typeof scope === 'string' && scope.split(/\s+/).includes('management'));
          expect(access.agentId).toBe(typeof sub === 'string' && /^[0-9a-f]{24}$/i.test(sub) ? sub : null);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string(), (token) => {
        expect(() => tokenAccess(token)).not.toThrow();
        expect(() => jwtExpiry(token)).not.toThrow();
      }),
    );
  });

  it('the payload is read once for both: expiry and scope', () => {
    const token = jwt({ exp: 42, scope: 'messaging management' });
    expect(jwtPayload(token)).toEqual({ exp: 42, scope: 'messaging management' });
    expect(jwtExpiry(token)).toBe(42);
    expect(jwtPayload(jwt([1, 2]))).toBe(null);
  });
});

describe('traces, as they enter', () => {
  const trace = {
    interaction_id: 'cd'.repeat(12),
    thread_id: THREAD,
    agent_id: AGENT,
    version_id: VERSION,
    version_tag: 'v1.0',
    status: 'completed',
    started_at: '2026-01-01T00:00:00.000Z',
    ended_at: '2026-01-01T00:00:00.012Z',
    duration_ms: 12,
    error: null,
    steps: [
      { type: 'intent', name: 'products', started_at: '2026-01-01T00:00:00.000Z', duration_ms: 0, input: { text: 'jackets' } },
      {
        type: 'rule',
        name: 'budget_limit',
        started_at: '2026-01-01T00:00:00.000Z',
        duration_ms: 0,
        input: { budget: 150 },
        outcome: 'fired',
      },
      { type: 'tool', name: 'catalog.search', started_at: null, duration_ms: 0.5, input: { max_price: 150 }, output: { results: ['a'] } },
    ],
    truncated: false,
  };

  it('keeps a trace as the reference server writes it', () => {
    const read = readTrace(trace)!;
    expect(read).toMatchObject({ version_tag: 'v1.0', status: 'completed', duration_ms: 12, error: null, truncated: false });
    expect(read.steps.map((s) => [s.type, s.name])).toEqual([
      ['intent', 'products'],
      ['rule', 'budget_limit'],
      ['tool', 'catalog.search'],
    ]);
    expect(read.steps[1]).toMatchObject({ outcome: 'fired', input: { budget: 150 } });
    expect(read.steps[2]).toMatchObject({ output: { results: ['a'] }, duration_ms: 0.5 });
    expect(read.steps[0]).not.toHaveProperty('output');
  });

  it('is null without a list of steps; a step that is not an object is left out, mistyped fields take empty values', () => {
    expect(readTrace({ ...trace, steps: 'x' })).toBe(null);
    expect(readTrace([trace])).toBe(null);
    const read = readTrace({
      ...trace,
      status: 5,
      version_id: 'v1',
      duration_ms: Infinity,
      steps: [3, { type: 7, name: null, outcome: 1, error: 'x' }],
    })!;
    expect(read).toMatchObject({ status: '', version_id: null, duration_ms: null });
    expect(read.steps).toEqual([{ type: '', name: '', started_at: null, duration_ms: null }]);
  });

  it('keeps the first steps of a long trace and says steps were left out', () => {
    const read = readTrace({ ...trace, steps: Array.from({ length: 10_000 }, (_, i) => ({ type: 'tool', name: `t${i}` })) })!;
    expect(read.steps).toHaveLength(MAX_STEPS);
    expect(read.truncated).toBe(true);
  });

  it('a JSON value of any size is kept within its budget of values and characters', () => {
    const huge = { long: 'x'.repeat(1_000_000), list: Array.from({ length: 100_000 }, (_, i) => i), deep: [[[[[[[[['bottom']]]]]]]]] };
    const kept = boundedJson(huge) as Record<string, unknown>;
    expect((kept.long as string).startsWith('xxx')).toBe(true);
    expect(kept.long).toMatch(/… \(1000000 characters\)$/);
    expect(shown(kept).length).toBeLessThan(JSON_BUDGET.chars + JSON_BUDGET.nodes * 40);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat({ max: 3 }), (value, copies) => {
        const wide = Array.from({ length: copies + 1 }, () => value);
        // What is shown is bounded however big or deep the value, and never throws.
        expect(shown(boundedJson(wide)).length).toBeLessThan(JSON_BUDGET.chars + JSON_BUDGET.nodes * 40);
      }),
    );
  });

  it('keeps small values as they are, and keys as keys', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        if (shown(value).length < 500) expect(shown(boundedJson(value))).toBe(shown(value));
      }),
    );
    const own = boundedJson(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
    expect(Object.keys(own)).toEqual(['__proto__']);
  });

  it('reads any JSON as a trace or null, without throwing, its steps bounded', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 5 }), fc.record({ steps: fc.array(fc.jsonValue({ maxDepth: 4 })) })), (value) => {
        const read = readTrace(value);
        if (read) expect(read.steps.length).toBeLessThanOrEqual(MAX_STEPS);
      }),
    );
  });
});

describe('versions and threads, as they enter', () => {
  it('a page of versions gives those with an id and a tag, the first few', () => {
    const page = {
      results: [
        { id: VERSION, tag: 'v1.1-preview', live: false, state: 'draft', name: null },
        { id: AGENT, tag: 'v1.0', live: true, name: 'Shop' },
        { id: 'short', tag: 'v0' },
        { id: THREAD, tag: '  ' },
        7,
      ],
      meta: { has_more: false },
    };
    expect(readVersions(page)).toEqual([
      { id: VERSION, tag: 'v1.1-preview', live: false, name: null },
      { id: AGENT, tag: 'v1.0', live: true, name: 'Shop' },
    ]);
    expect(readVersions({ results: Array.from({ length: 1000 }, () => ({ id: VERSION, tag: 'v' })) })).toHaveLength(MAX_VERSIONS);
    expect(readVersions([])).toBe(null);
  });

  it('a thread names itself by a real id; its title is text or null', () => {
    expect(readThread({ id: THREAD, title: 'Jackets', version_tag: 'v1.0', version_id: VERSION, agent_id: AGENT, extra: 1 })).toEqual({
      id: THREAD,
      title: 'Jackets',
      version_tag: 'v1.0',
      version_id: VERSION,
      agent_id: AGENT,
    });
    expect(readThread({ id: THREAD, title: 5 })).toMatchObject({ title: null, version_tag: null });
    expect(readThread({ id: 'nope', title: 'x' })).toBe(null);
    expect(readThread({ id: THREAD, title: 'y'.repeat(50_000) })!.title).toHaveLength(1_000);
  });

  it('reads any JSON as versions or a thread without throwing, within their bounds', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const versions = readVersions(value) ?? readVersions({ results: value });
        if (versions) expect(versions.length).toBeLessThanOrEqual(MAX_VERSIONS);
        readThread(value);
      }),
    );
  });
});

describe('the management client', () => {
  it("shares the messaging client's address and token, and sends the rename as a PATCH", async () => {
    const calls: Array<{ url: string; method: string; auth: string | null; body: unknown }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method!,
        auth: new Headers(init.headers).get('authorization'),
        body: init.body ? JSON.parse(init.body as string) : null,
      });
      return new Response(JSON.stringify({ id: THREAD, title: 'New title', version_tag: 'v1.0' }), { status: 200 });
    });
    const messaging = new AgentClient({ baseUrl: 'https://agents.example/', accessToken: 'tok' });
    const management = new ManagementClient(messaging);
    expect(await management.rename(THREAD, 'New title')).toMatchObject({ id: THREAD, title: 'New title' });
    expect(calls).toEqual([
      { url: `https://agents.example/management/v1/threads/${THREAD}`, method: 'PATCH', auth: 'Bearer tok', body: { title: 'New title' } },
    ]);
  });

  it('a 403 is an http error of that status; a reply in another shape a protocol error', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ error: { code: 'auth.insufficient_scope', message: 'no', request_id: null, details: null } }), {
          status: 403,
        }),
    );
    const management = new ManagementClient(new AgentClient({ baseUrl: 'https://agents.example', accessToken: 'tok' }));
    await expect(management.versions(AGENT)).rejects.toMatchObject({ kind: 'http', status: 403, code: 'auth.insufficient_scope' });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ steps: 'none' }), { status: 200 }));
    await expect(management.trace('cd'.repeat(12))).rejects.toMatchObject({ kind: 'protocol' });
  });
});
