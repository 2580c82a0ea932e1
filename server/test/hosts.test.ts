import { testDb } from './support.js';
import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceServer, DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { hostRule, hostsFromEnv } from '../src/http/hosts.js';
import { organizationKeyFromEnv } from '../src/auth/management-auth.js';
import { DEFAULT_ALLOWED_ORIGINS } from '../src/http/origins.js';
import type { ErrorEnvelope } from '@agent-chat/wire';

/**
 * The server's perimeter (issue #45, items 1 and 2): it answers only the names that are its
 * own, which is what a DNS-rebinding page cannot fake, and the public dev organization key
 * works only where nothing but this machine can use it. Over a real listening socket, as a
 * browser would reach it.
 */

const REBIND = 'rebind.attacker.test:8787';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let servers: ServerType[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

/** The reference server on a real port of 127.0.0.1, with the dev organization key (as `npm run server` on this machine). */
async function listening(allowedHosts?: readonly string[]) {
  const reference = await createReferenceServer({
    paceMs: 0,
    organizationApiKey: DEV_ORGANIZATION_API_KEY,
    allowedHosts,
    db: await testDb(),
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: reference.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  servers.push(server);
  reference.attachSessions(server as never);
  const port = (server.address() as AddressInfo).port;
  /** One request with the `Host` header a browser on `host` would send (and, from a page there, its `Origin`). */
  const send = (host: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: init.method ?? (body ? 'POST' : 'GET'),
          headers: { host, origin: `http://${host}`, ...(body ? { 'content-type': 'application/json' } : {}), ...init.headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  /** A WebSocket upgrade for the session: the status line the server answers with, and its body. */
  const upgrade = (host: string) =>
    new Promise<Reply>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: '/messaging/v1/session',
        headers: {
          host,
          origin: `http://${host}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-version': '13',
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: '' });
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
  return { send, upgrade, port };
}

function misdirected(reply: Reply): void {
  expect(reply.status).toBe(421);
  const body = JSON.parse(reply.body) as ErrorEnvelope;
  expect(body.error.code).toBe('host.not_allowed');
  expect(body.error.request_id).toBe(reply.headers['x-request-id']);
  // Nothing granted to the page either.
  expect(reply.headers['access-control-allow-origin']).toBeUndefined();
}

describe('a DNS-rebinding page (a name of the attacker’s that now points at 127.0.0.1)', () => {
  it('reads, renames and publishes nothing: every request for its name is 421 with the envelope', async () => {
    const { send, port } = await listening();
    const own = `127.0.0.1:${port}`;
    const org = { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY };

    // What the page would do once its name points here: the same requests, first as the server's own page.
    const token = JSON.parse((await send(own, '/management/v1/auth/token', { body: { publishable_key: DEMO_PUBLISHABLE_KEY } })).body)
      .access_token as string;
    const turn = await send(own, '/messaging/v1/messages', {
      body: { text: 'hello', user_id: 'visitor' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(turn.status).toBe(200);
    const threadId = (JSON.parse(turn.body) as { thread_id: string }).thread_id;
    expect((await send(own, '/management/v1/threads', { headers: org })).status).toBe(200);

    const attempts: Array<[string, Parameters<typeof send>[2]]> = [
      ['/management/v1/auth/token', { body: { publishable_key: DEMO_PUBLISHABLE_KEY } }],
      ['/management/v1/threads', { headers: org }],
      [`/management/v1/threads/${threadId}/messages`, { headers: org }],
      [`/management/v1/threads/${threadId}/trace`, { headers: org }],
      [`/management/v1/threads/${threadId}`, { method: 'PATCH', body: { title: 'owned' }, headers: org }],
      ['/management/v1/agents/65f1a7c2e4b0d3a9c8f01234/versions/65f1a7c2e4b0d3a9c8f0a101/publish', { method: 'POST', headers: org }],
      ['/management/v1/auth/login', { body: { publishable_key: DEMO_PUBLISHABLE_KEY }, headers: org }],
      [`/messaging/v1/threads/${threadId}/messages`, { headers: { authorization: `Bearer ${token}` } }],
      ['/messaging/v1/messages', { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } }],
      ['/__demo/health', {}],
    ];
    for (const [path, init] of attempts) misdirected(await send(REBIND, path, init));

    // Nothing changed: the title is the first question, the preview version is not live.
    const thread = JSON.parse((await send(own, `/management/v1/threads/${threadId}`, { headers: org })).body) as { title: string };
    expect(thread.title).toBe('hello');
    const versions = JSON.parse((await send(own, '/management/v1/agents/65f1a7c2e4b0d3a9c8f01234/versions', { headers: org })).body) as {
      results: Array<{ tag: string; live: boolean }>;
    };
    expect(versions.results.find((v) => v.live)?.tag).toBe('v1.0');
  });

  it('cannot open the WebSocket session: the upgrade is 421 with the envelope', async () => {
    const { upgrade, port } = await listening();
    misdirected(await upgrade(REBIND));
    expect((await upgrade(`127.0.0.1:${port}`)).status).toBe(101);
    expect((await upgrade(`localhost:${port}`)).status).toBe(101);
  });

  it('answers the names ALLOWED_HOSTS lists, and a subdomain only where asked', async () => {
    const { send } = await listening(hostsFromEnv({ ALLOWED_HOSTS: 'chat.shop.example, .docs.example' }));
    for (const host of ['chat.shop.example', 'chat.shop.example:8787', 'docs.example', 'help.docs.example:443', 'CHAT.SHOP.EXAMPLE.'])
      expect((await send(host, '/__demo/health', { headers: { origin: 'http://localhost:5173' } })).status, host).toBe(200);
    for (const host of ['shop.example', 'x.chat.shop.example', 'docs.example.attacker.test', REBIND])
      misdirected(await send(host, '/__demo/health', { headers: { origin: 'http://localhost:5173' } }));
  });
});

describe('the names the server answers to', () => {
  it('addresses and localhost always; other names only when listed', () => {
    const rule = hostRule();
    for (const host of [
      '127.0.0.1:8787',
      '127.0.0.1',
      '[::1]:8787',
      '192.168.1.20:8787',
      'localhost:5173',
      'LOCALHOST',
      'app.localhost:3000',
    ])
      expect(rule(host), host).toBe(true);
    for (const host of [
      undefined,
      '',
      'rebind.attacker.test',
      'localhost.attacker.test',
      '127.0.0.1.nip.io',
      'a b',
      'x@127.0.0.1',
      '127.0.0.1/path',
    ])
      expect(rule(host), String(host)).toBe(false);
    expect(hostRule(['*'])('anything.example')).toBe(true);
  });

  it('reads ALLOWED_HOSTS strictly and adds HOST when it is a name', () => {
    expect(hostsFromEnv({})).toEqual([]);
    expect(hostsFromEnv({ ALLOWED_HOSTS: ' a.example , ' })).toEqual(['a.example']);
    expect(hostsFromEnv({}, 'chat.internal')).toEqual(['chat.internal']);
    expect(hostsFromEnv({}, '0.0.0.0')).toEqual([]);
    expect(hostsFromEnv({}, '::')).toEqual([]);
    for (const bad of ['https://shop.example', 'shop.example:8080', '*.shop.example', 'shop.example/chat'])
      expect(() => hostsFromEnv({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS/);
  });
});

describe('the dev organization key', () => {
  it('only while the server listens on this machine and only its pages may call it', () => {
    const dev = (hostname: string, origins: readonly string[], env = {}) => organizationKeyFromEnv(env, hostname, origins);
    expect(dev('127.0.0.1', DEFAULT_ALLOWED_ORIGINS)).toEqual({ key: DEV_ORGANIZATION_API_KEY, origin: 'dev-default' });
    expect(dev('localhost', ['http://localhost:5173', 'http://[::1]:*'])).toMatchObject({ origin: 'dev-default' });
    for (const [hostname, origins] of [
      ['0.0.0.0', DEFAULT_ALLOWED_ORIGINS],
      ['192.168.1.20', DEFAULT_ALLOWED_ORIGINS],
      ['127.0.0.1', ['*']],
      ['127.0.0.1', ['null']],
      ['127.0.0.1', ['http://localhost:*', 'https://shop.example']],
    ] as const) {
      const made = dev(hostname, origins);
      expect(made.origin, `${hostname} ${origins.join()}`).toBe('random');
      expect(made.key).toMatch(/^org_[0-9a-f]{48}$/);
      expect(made.key).not.toBe(DEV_ORGANIZATION_API_KEY);
    }
    expect(dev('0.0.0.0', ['*'], { ORGANIZATION_API_KEY: ' org_mine ' })).toEqual({ key: 'org_mine', origin: 'environment' });
  });

  it('a server built without a key makes its own: the dev key is never a default', async () => {
    const reference = await createReferenceServer({ paceMs: 0, db: await testDb() });
    expect(reference.organizationApiKey).not.toBe(DEV_ORGANIZATION_API_KEY);
    const res = await reference.app.fetch(
      new Request('http://127.0.0.1/management/v1/threads', { headers: { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY } }),
    );
    expect(res.status).toBe(401);
  });
});
