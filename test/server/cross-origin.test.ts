import { expect } from '@open-wc/testing';
import { createKey, tokenFor } from '../support/server.js';

/**
 * What only a real browser's fetch can tell: that the reference server's CORS answers let a
 * page on another origin of this machine through the browser's own checks (a preflight it
 * sends for the Authorization and Last-Event-ID headers, and an exposed response header it
 * lets the page read). The server's headers themselves are tested in Node
 * (server/test/origins.test.ts); the rest of its HTTP API too (server/test/http-*.test.ts).
 */
describe('reference server: a page on another origin', () => {
  it('lets a widget on another page of this machine read the request id and send Last-Event-ID', async () => {
    // Another origin than the page's (localhost and 127.0.0.1 are allowed by default): a real preflight and grant.
    const other = new URL(location.origin);
    other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const token = await tokenFor(await createKey());
    const res = await fetch(`${other.origin}/messaging/v1/welcome-message`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': '0' },
    });
    // The fetch resolved (granted, preflight included) and an exposed header is readable.
    expect(res.headers.get('x-request-id')).to.match(/^req_/);
    expect(await res.json()).to.have.property('welcome_message');
  });
});
