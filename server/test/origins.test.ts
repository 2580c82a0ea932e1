import { testDb } from './support.js';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createReferenceServer, DEMO_PUBLISHABLE_KEY } from '../src/app.js';
import { listenFromEnv } from '../src/http/node.js';
import { DEFAULT_ALLOWED_ORIGINS, originsFromEnv } from '../src/http/origins.js';
import type { UpgradeServer } from '../src/messaging/session.js';
import type { ErrorEnvelope } from '@agent-chat/wire';

/**
 * `npm run server` answers the pages it is meant for (issue #24): its own origin and pages
 * on this machine unless `ALLOWED_ORIGINS` says otherwise, and it listens on 127.0.0.1 unless
 * `HOST` says otherwise. Driven through `app.fetch`: no socket.
 */
const OWN = 'http://reference.test';

async function server(allowedOrigins?: readonly string[]) {
  const reference = await createReferenceServer({ paceMs: 0, allowedOrigins, allowedHosts: ['reference.test'], db: await testDb() });
  const call = (path: string, origin: string | null, init: RequestInit = {}) =>
    reference.app.fetch(
      new Request(OWN + path, {
        ...init,
        headers: { ...(origin === null ? {} : { origin }), ...(init.headers as Record<string, string>) },
      }),
    );
  const preflight = (path: string, origin: string) =>
    call(path, origin, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
  const exchange = (origin: string | null) =>
    call('/management/v1/auth/token', origin, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ publishable_key: DEMO_PUBLISHABLE_KEY }),
    });
  return { reference, call, preflight, exchange };
}

/** A refusal the page on `origin` can read (and nothing else granted): the envelope, its request id. */
async function refused(res: Response, origin: string): Promise<void> {
  expect(res.status).toBe(403);
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-expose-headers')).toBe('x-request-id');
  expect(res.headers.get('access-control-allow-methods')).toBeNull();
  expect(res.headers.get('vary')).toMatch(/origin/i);
  const body = (await res.json()) as ErrorEnvelope;
  expect(body.error.code).toBe('cors.origin_not_allowed');
  expect(body.error.message).toContain(`Pages on ${origin} may not call this server (ALLOWED_ORIGINS)`);
  expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
}

describe('the pages the reference server answers', () => {
  it('grants pages on this machine, on any port, and its own origin', async () => {
    const { call, preflight, exchange } = await server();
    for (const origin of ['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:8000', 'http://[::1]:3000', OWN]) {
      const res = await exchange(origin);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(res.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('x-request-id');
      const pre = await preflight('/messaging/v1/messages/stream', origin);
      expect(pre.status, origin).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('last-event-id');
    }
    // Not a page's cross-origin call (a server, curl): answered, with nothing to grant.
    const plain = await call('/__demo/health', null);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses any other page, in a 403 envelope that page can read: its preflight passes to reach it', async () => {
    const { preflight, exchange, call } = await server();
    const totals = async () => (await (await call('/__demo/health', null)).json()) as unknown;
    const before = await totals();
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'https://localhost:5173', 'null', 'http://127.0.0.2']) {
      const pre = await preflight('/messaging/v1/messages', origin);
      expect(pre.status, origin).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-methods')).toBe('POST');
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
      expect(pre.headers.get('access-control-max-age'), 'nothing cached: the origin may be allowed next').toBeNull();
      await refused(await exchange(origin), origin);
      await refused(await call('/__demo/health', origin), origin);
      await refused(await call('/messaging/v1/messages', origin, { method: 'POST', body: '{}' }), origin);
    }
    // Nothing ran for them.
    expect(await totals()).toEqual(before);
  });

  it('answers a refused preflight with only what it asked, when that is a method and a header list', async () => {
    const { call } = await server();
    const res = await call('/messaging/v1/messages', 'https://evil.example', {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'post; x', 'access-control-request-headers': 'a b, "c"' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('answers only the origins ALLOWED_ORIGINS lists (then localhost is not among them), and its own', async () => {
    const allowed = originsFromEnv({ ALLOWED_ORIGINS: ' https://shop.example, http://dev.shop.example:* ,null' });
    expect(allowed).toEqual(['https://shop.example', 'http://dev.shop.example:*', 'null']);
    const { exchange } = await server(allowed);
    for (const origin of ['https://shop.example', 'http://dev.shop.example:8080', 'null', OWN]) {
      const res = await exchange(origin);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    for (const origin of ['http://localhost:5173', 'https://shop.example:8443', 'http://shop.example'])
      await refused(await exchange(origin), origin);
    // `*` is the old behaviour, only on purpose.
    expect((await (await server(['*'])).exchange('https://anyone.example')).status).toBe(200);
  });

  it('reads ALLOWED_ORIGINS strictly: a pattern that could never match stops the start', () => {
    expect(originsFromEnv({})).toBe(DEFAULT_ALLOWED_ORIGINS);
    expect(originsFromEnv({ ALLOWED_ORIGINS: ' , ' })).toBe(DEFAULT_ALLOWED_ORIGINS);
    for (const bad of [
      'shop.example',
      'https://shop.example/chat',
      'ftp://shop.example',
      'https://user@shop.example',
      'https://*.shop.example',
    ]) {
      expect(() => originsFromEnv({ ALLOWED_ORIGINS: bad }), bad).toThrow(/ALLOWED_ORIGINS/);
    }
  });

  it('refuses the WebSocket upgrade of a page on another origin (browsers apply no CORS to it)', async () => {
    const { reference } = await server();
    const upgrades = new EventEmitter();
    reference.attachSessions(upgrades as unknown as UpgradeServer);
    const attempt = (origin: string | undefined) => {
      const written: string[] = [];
      const socket = { end: (data: string) => written.push(data), on: () => socket, once: () => socket, removeListener: () => socket };
      const headers: Record<string, string> = { host: 'reference.test', 'sec-websocket-key': 'x', 'sec-websocket-version': '13' };
      if (origin) headers['origin'] = origin;
      const req = { url: '/messaging/v1/session', method: 'GET', headers, socket: {} } as unknown as IncomingMessage;
      upgrades.emit('upgrade', req, socket as unknown as Duplex, Buffer.alloc(0));
      return written.join('');
    };
    expect(attempt('https://evil.example')).toMatch(/^HTTP\/1\.1 403/);
    expect(attempt('http://localhost:5173')).not.toMatch(/403/);
  });
});

describe('where npm run server listens', () => {
  it('on this machine only unless HOST says otherwise', () => {
    expect(listenFromEnv({})).toEqual({ hostname: '127.0.0.1', port: 8787 });
    expect(listenFromEnv({ HOST: '0.0.0.0', PORT: '9000' })).toEqual({ hostname: '0.0.0.0', port: 9000 });
    expect(listenFromEnv({ HOST: ' ', PORT: '' })).toEqual({ hostname: '127.0.0.1', port: 8787 });
    for (const port of ['http', '70000', '-1', '80.5']) expect(() => listenFromEnv({ PORT: port }), port).toThrow(/PORT/);
  });
});
