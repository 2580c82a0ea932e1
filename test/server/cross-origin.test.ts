import { expect } from '@open-wc/testing';
import { $, element, unmountAll, until } from '../support/element.js';
import { createKey, tokenFor } from '../support/server.js';

/**
 * What only a real browser's fetch can tell: that the reference server's CORS answers let a
 * page on another origin of this machine through the browser's own checks (a preflight it
 * sends for the Authorization and Last-Event-ID headers, and an exposed response header it
 * lets the page read). The server's headers themselves are tested in Node
 * (server/test/origins.test.ts); the rest of its HTTP API too (server/test/http-*.test.ts).
 */
/** This runner's server under its other loopback name: a page on another origin than the test page's. */
function otherOrigin(): string {
  const other = new URL(location.origin);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return other.origin;
}

describe('reference server: a page on another origin', () => {
  afterEach(unmountAll);

  it('lets a page it refuses read why: a 403 envelope that names the setting', async () => {
    // /strict/ serves pages on https://shop.example only (web-test-runner.config.mjs).
    const res = await fetch(`${otherOrigin()}/strict/management/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ publishable_key: 'pk_demo_shop' }),
    });
    expect(res.status).to.equal(403);
    expect(res.headers.get('x-request-id')).to.match(/^req_/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).to.equal('cors.origin_not_allowed');
    expect(body.error.message).to.equal(`Pages on ${location.origin} may not call this server (ALLOWED_ORIGINS).`);
  });

  it('a widget on a page the service refuses tells its developer which setting fixes it, once', async () => {
    const warnings: string[] = [];
    const errors: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    try {
      // A page on this machine: developer detail shows without `debug`.
      const el = element({ 'base-url': `${otherOrigin()}/strict`, 'publishable-key': 'pk_demo_shop', persist: 'none' });
      el.addEventListener('agent-chat-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
      document.body.append(el);
      await until(() => $(el, '[part="error"]'), 'a notice');
      await el.updateComplete;
      const notice = $(el, '[part="error"]')!.textContent!.replace(/\s+/g, ' ');
      expect(notice).to.contain('The chat is not configured correctly.');
      expect(notice).to.contain(`Pages on ${location.origin} may not call this server (ALLOWED_ORIGINS).`);
      expect(notice, 'no Retry: the site’s setup, not a moment’s failure').not.to.contain('Try again');
      expect($(el, '[part="retry-button"]')).to.equal(null);
      const said = warnings.filter((w) => w.includes('cors.origin_not_allowed'));
      expect(said).to.have.length(1);
      expect(said[0]).to.contain(`add ${location.origin} to the origins it allows (ALLOWED_ORIGINS for agent-chat-server)`);
      // The host's own handler reads the service's code too.
      expect(errors).to.deep.equal(['cors.origin_not_allowed']);
      el.remove();
    } finally {
      console.warn = original;
    }
  });

  it('lets a widget on another page of this machine read the request id and send Last-Event-ID', async () => {
    // Another origin than the page's (localhost and 127.0.0.1 are allowed by default): a real preflight and grant.
    const token = await tokenFor(await createKey());
    const res = await fetch(`${otherOrigin()}/messaging/v1/welcome-message`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': '0' },
    });
    // The fetch resolved (granted, preflight included) and an exposed header is readable.
    expect(res.headers.get('x-request-id')).to.match(/^req_/);
    expect(await res.json()).to.have.property('welcome_message');
  });
});
