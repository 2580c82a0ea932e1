import { beforeAll, describe, expect, it } from 'vitest';
import { VARIABLE_LIMITS, hook, oneOf, readAgentVariables, readConfig, record, text } from '../../src/state/config.js';

/** Every attribute and property is checked where it enters: a bad value warns once and takes its default. */
beforeAll(() => {
  (globalThis as { location?: unknown }).location ??= new URL('https://shop.example/products/1');
});

/** The element always hands over every setting, defaults included. */
const defaults = { transport: 'sse', persist: 'local' };
const base = { ...defaults, baseUrl: 'https://agents.example/', publishableKey: 'pk_live_1' };

describe('settings', () => {
  it('a complete configuration, normalised', () => {
    const { config, problems } = readConfig({ ...base, transport: 'websocket', persist: 'session' });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      baseUrl: 'https://agents.example',
      publishableKey: 'pk_live_1',
      transport: 'websocket',
      persist: 'session',
    });
  });

  it('a relative base-url resolves against the page', () => {
    expect(readConfig({ ...base, baseUrl: '/api' }).config?.baseUrl).toBe('https://shop.example/api');
  });

  it('a base-url is https, or http to this machine; anything else is no service to talk to', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:text/plain,hi',
      'ftp://agents.example',
      'http://agents.example',
      'ws://agents.example',
      'blob:https://x/y',
    ]) {
      const { config, problems } = readConfig({ ...base, baseUrl: url });
      expect(config, url).toBe(null);
      expect(problems.join(), url).toMatch(/must be an https address/);
    }
    for (const url of ['http://localhost:8787', 'http://127.0.0.1:3000/api', 'http://[::1]:8787', 'http://chat.localhost']) {
      expect(readConfig({ ...base, baseUrl: url }).config, url).not.toBe(null);
    }
  });

  it('nothing to talk to without a base-url or a credential: missing (it may come later), not wrong', () => {
    expect(readConfig({ ...defaults, publishableKey: 'pk' })).toEqual({ config: null, problems: [], missing: ['base-url is required'] });
    expect(readConfig({ ...defaults, baseUrl: 'https://a.example' })).toMatchObject({
      config: null,
      missing: ['one of publishable-key, access-token or tokenProvider is required'],
    });
    // Present but wrong: a mistake, said at once.
    expect(readConfig({ ...defaults, baseUrl: 42 as unknown as string, publishableKey: 'pk' })).toMatchObject({
      problems: ['base-url must be a string, not number'],
      missing: [],
    });
    expect(readConfig({ ...defaults, baseUrl: 'ftp://a.example', publishableKey: 'pk' }).missing).toEqual([]);
    expect(readConfig({ ...defaults, baseUrl: 'https://a.example', tokenProvider: async () => 't' }).config).not.toBe(null);
  });

  it('an unknown transport or persist takes the default, with a problem', () => {
    const { config, problems } = readConfig({ ...base, transport: 'carrier-pigeon', persist: 'forever' });
    expect(config).toMatchObject({ transport: 'sse', persist: 'local' });
    expect(problems).toHaveLength(2);
  });

  it('a malformed thread-id or version-id is left out, with a problem', () => {
    const { config, problems } = readConfig({ ...base, threadIdAttribute: 'not-an-id', versionId: '123' });
    expect(config?.threadId).toBeUndefined();
    expect(config?.versionId).toBeUndefined();
    expect(problems).toHaveLength(2);
    expect(readConfig({ ...base, threadIdAttribute: 'a'.repeat(24) }).config?.threadId).toBe('a'.repeat(24));
  });

  it('a property of the wrong type is reported and ignored', () => {
    const problems: string[] = [];
    expect(hook('uploadImage', 'not a function', problems)).toBeUndefined();
    expect(record('strings', [], problems)).toBeUndefined();
    expect(text('heading', 5, problems)).toBe('');
    expect(oneOf('mode', 'floating', ['inline', 'launcher'], problems)).toBe('inline');
    expect(problems).toHaveLength(4);
  });
});

describe('agent-variables', () => {
  it('takes JSON text or an object, and sends a copy', () => {
    const value = { static: { name: 'Ada' }, dynamic: { cart: 2 } };
    const problems: string[] = [];
    const read = readAgentVariables(JSON.stringify(value), problems);
    expect(read).toEqual(value);
    const fromObject = readAgentVariables(value, problems)!;
    value.static.name = 'changed later';
    expect(fromObject.static).toEqual({ name: 'Ada' });
    expect(problems).toEqual([]);
  });

  it('drops a part that is not an object, and refuses what is not an object', () => {
    const problems: string[] = [];
    expect(readAgentVariables({ static: 'x', dynamic: { a: 1 } }, problems)).toEqual({ dynamic: { a: 1 } });
    expect(readAgentVariables('[1,2]', problems)).toBeUndefined();
    expect(readAgentVariables('{bad json', problems)).toBeUndefined();
    expect(problems).toHaveLength(3);
  });

  it('leaves out what cannot be sent: a cycle, nesting past its limit, more than its size', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: Record<string, unknown> = {};
    const root = { static: deep };
    for (let i = 0; i < VARIABLE_LIMITS.depth + 2; i++) deep = (deep.next = {}) as Record<string, unknown>;
    for (const value of [{ static: cycle }, root, { static: { big: 'x'.repeat(VARIABLE_LIMITS.chars) } }]) {
      const problems: string[] = [];
      expect(readAgentVariables(value, problems)).toBeUndefined();
      expect(problems).toHaveLength(1);
    }
  });
});
