import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { createKey, tokenFor } from '../support/server.js';

/**
 * The reference server against generated garbage, with a valid token: random JSON, wrong
 * types in every known field, huge strings, deep nesting, any code point, prototype keys.
 * It must never answer 5xx; every refusal is a 4xx error envelope whose request id matches
 * the `x-request-id` header; bodies over 64 KB are 413.
 */
const MAX_BODY_BYTES = 64 * 1024;
const FIELDS = [
  'text',
  'user_id',
  'thread_id',
  'image_url',
  'agent_variables',
  'interaction_id',
  'version_id',
  'version_tag',
  'context',
  'phone_number',
  'agent_display_name',
  'agent_id',
  'template_id',
  'content_variables',
  'user_ref_id',
  'publishable_key',
  'static',
  'dynamic',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

/** JSON text of an object whose keys may repeat and may be `__proto__` (JSON.stringify of a literal could not). */
const objectText = (entries: Array<[string, unknown]>) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { __proto__x: value, toString: i };
  return value;
};

const protoObject = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": "yes", "text": "from proto", "user_id": "proto"}}') as unknown,
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}') as unknown,
  JSON.parse('{"toString": 1, "valueOf": {}, "hasOwnProperty": "x", "name": {"toString": "x"}}') as unknown,
);

const weird: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -0,
    '',
    ' ',
    '\u0000',
    '\ud800',
    '__proto__',
    '+4915112345678',
    'https://x.example/a.png',
    'javascript:alert(1)',
    '0123456789abcdef01234567',
    'v1.0',
    [],
    {},
  ),
  fc.integer({ min: 4000, max: 20_000 }).map((n) => 'é'.repeat(n)),
  fc.integer({ min: 1, max: 400 }).map((d) => nested(d, 'deep')),
  protoObject,
  fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** A body for one endpoint: its valid body with one field replaced or added, or anything at all. */
function bodies(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const mutated = fc
    .tuple(fc.constantFrom(...Object.keys(valid), ...FIELDS), weird, fc.boolean())
    .map(([field, value, drop]) => objectText([...Object.entries(valid).filter(([k]) => !(drop && k === field)), [field, value]]));
  const randomObject = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ unit: 'binary', maxLength: 10 })), weird), { maxLength: 6 })
    .map(objectText);
  const raw = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom(
      '',
      ' ',
      '{',
      '[]',
      'null',
      '"str"',
      '1',
      'true',
      '{"text":',
      '{"a":1}garbage',
      '\ufeff{}',
      '{"text":"a","text":{}}',
      '[{"text":"hi","user_id":"u"}]',
    ),
  );
  return fc.oneof(
    { weight: 4, arbitrary: mutated },
    { weight: 3, arbitrary: randomObject },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: raw },
  );
}

/** fc.assert, but a failure reports a short counterexample (deep bodies overwhelm the reporter). */
async function holds<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const result = await fc.check(property, { numRuns, endOnFailure: true });
  if (result.failed) {
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    throw new Error(`${error.slice(0, 600)}\n(counterexample: ${fc.stringify(result.counterexample).slice(0, 300)}; seed ${result.seed})`);
  }
}

interface Endpoint {
  name: string;
  path: string;
  valid: Record<string, unknown>;
  auth?: boolean;
}

describe('reference server fuzz', function () {
  this.timeout(60_000);
  let key: string;
  let token: string;
  let endpoints: Endpoint[];
  let threadId: string;

  before(async () => {
    key = await createKey({ paceMs: 0, replies: [{ text: 'ok' }] });
    token = await tokenFor(key);
    const first = await post('/messaging/v1/messages', JSON.stringify({ text: 'hi', user_id: 'fuzz-user' }));
    const sent = (await first.json()) as { thread_id: string; message: { id: string } };
    threadId = sent.thread_id;
    endpoints = [
      { name: 'send', path: '/messaging/v1/messages', valid: { text: 'hi', user_id: 'fuzz-user' } },
      { name: 'stream', path: '/messaging/v1/messages/stream', valid: { text: 'hi', user_id: 'fuzz-user' } },
      { name: 'rerun', path: `/messaging/v1/threads/${threadId}/rerun`, valid: { interaction_id: sent.message.id, text: 'again' } },
      { name: 'followups', path: '/messaging/v1/followup-suggestions', valid: { context: { page: 'x' } } },
      {
        name: 'whatsapp',
        path: '/messaging/v1/channels/whatsapp/threads',
        valid: { user_id: 'fuzz-user', phone_number: '+4915112345678' },
      },
      {
        name: 'sms',
        path: '/messaging/v1/channels/sms/threads',
        valid: { user_id: 'fuzz-user', phone_number: '+4915112345678', thread_id: threadId },
      },
      { name: 'token', path: '/management/v1/auth/token', valid: { publishable_key: key }, auth: false },
    ];
  });

  function post(path: string, body: string, headers: Record<string, string> = {}, auth = true): Promise<Response> {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body,
    });
  }

  /** Never 5xx; a refusal is a 4xx envelope. Returns the status. */
  async function judge(res: Response, what: string): Promise<number> {
    if (res.status < 300) {
      await res.body?.cancel();
      return res.status;
    }
    const text = await res.text();
    expect(res.status, `${what} -> ${text.slice(0, 300)}`).to.be.within(400, 499);
    let json: { error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw new Error(`${what}: ${res.status} without a JSON envelope: ${text.slice(0, 200)}`);
    }
    expect(json.error?.code, `${what}: code`).to.be.a('string').and.not.equal('');
    expect(json.error?.message, `${what}: message`).to.be.a('string').and.not.equal('');
    expect(json.error?.request_id, `${what}: request_id`).to.be.a('string').and.equal(res.headers.get('x-request-id'));
    if (json.error?.details != null) expect(json.error.details, `${what}: details`).to.be.an('array');
    return res.status;
  }

  it('generated bodies on every messaging endpoint and the token exchange: never 5xx, always the envelope', async () => {
    const statuses = new Map<number, number>();
    for (const endpoint of endpoints) {
      await holds(
        fc.asyncProperty(bodies(endpoint.valid), async (body) => {
          const res = await post(endpoint.path, body, {}, endpoint.auth ?? true);
          const status = await judge(res, `${endpoint.name} ${body.slice(0, 200)}`);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        60,
      );
    }
    // Mostly refusals, as expected of garbage; a few mutations stay valid.
    const refused = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    expect(refused).to.be.greaterThan(endpoints.length * 30);
  });

  it('path ids and Last-Event-ID headers: never 5xx', async () => {
    await holds(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
        async (id, lastEventId) => {
          const segment = encodeURIComponent(id) || '%20';
          await judge(
            await post(`/messaging/v1/threads/${segment}/rerun`, JSON.stringify({ interaction_id: threadId, text: 'x' })),
            `rerun path ${id}`,
          );
          const transcript = await fetch(`/messaging/v1/threads/${segment}/messages`, { headers: { authorization: `Bearer ${token}` } });
          await judge(transcript, `transcript path ${id}`);
          const stream = await post(
            '/messaging/v1/messages/stream',
            JSON.stringify({ text: 'hi', user_id: 'fuzz-user', thread_id: threadId }),
            { 'last-event-id': lastEventId },
          );
          await judge(stream, `Last-Event-ID ${JSON.stringify(lastEventId)}`);
        },
      ),
      50,
    );
  });

  it('prototype keys never reach the parsed body', async () => {
    const body =
      '{"__proto__": {"thread_id": "0123456789abcdef01234567", "agent_id": "x"}, "constructor": {"prototype": {"thread_id": "0123456789abcdef01234567"}}, "text": "hi", "user_id": "fuzz-user"}';
    const res = await post('/messaging/v1/messages', body);
    expect(res.status).to.equal(200);
    const json = (await res.json()) as { thread_id: string };
    expect(json.thread_id).not.to.equal('0123456789abcdef01234567');
    // The server is still healthy for everyone else.
    expect((await fetch('/__demo/health')).status).to.equal(200);
  });

  it('oversized bodies are 413 on every endpoint, counted in bytes; the limit itself passes', async () => {
    for (const endpoint of endpoints) {
      const auth = endpoint.auth ?? true;
      const over = JSON.stringify({ ...endpoint.valid, pad: 'x'.repeat(MAX_BODY_BYTES) });
      const res = await post(endpoint.path, over, {}, auth);
      expect(await judge(res, `${endpoint.name} oversized`)).to.equal(413);
      // Under the limit in characters, over it in bytes (3 bytes per character).
      const wide = JSON.stringify({ ...endpoint.valid, pad: '€'.repeat(MAX_BODY_BYTES / 2) });
      expect(await judge(await post(endpoint.path, wide, {}, auth), `${endpoint.name} multibyte`)).to.equal(413);
      // Exactly at the limit: judged on its content, not refused for size.
      const base = objectText(Object.entries(endpoint.valid));
      const exact = base + ' '.repeat(MAX_BODY_BYTES - new TextEncoder().encode(base).length);
      expect(await judge(await post(endpoint.path, exact, {}, auth), `${endpoint.name} at the limit`)).not.to.equal(413);
    }
  });
});
