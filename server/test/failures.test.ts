import { describe, expect, it, vi } from 'vitest';
import { DEV_ORGANIZATION_API_KEY } from '../src/app.js';
import { FAILURE_LIMITS } from '../src/auth/failures.js';
import { envelope, reference } from './support.js';

/**
 * Failed credentials cost something (issue #45, item 3): wrong organization keys, logins
 * without one and unknown publishable keys take from a bucket per client address and one
 * for everyone; past them a failure is 429 with `Retry-After`, never 401 at the network's
 * pace. A right key is never refused by them.
 */
describe('failed credentials', () => {
  it('700 wrong organization keys: 401 for the first, then 429 with Retry-After; the right key still works', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const ref = await reference();
      const wrong = () => ref.call('/management/v1/threads', { headers: { 'x-organization-api-key': 'org_guess' } });
      const statuses: number[] = [];
      for (let i = 0; i < 700; i++) statuses.push((await wrong()).status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(FAILURE_LIMITS.address.burst);
      expect(statuses.slice(FAILURE_LIMITS.address.burst).every((s) => s === 429)).toBe(true);
      const limited = await wrong();
      await envelope(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The organization's own key is not a failure: never refused by them.
      expect((await ref.call('/management/v1/threads', { headers: { 'x-organization-api-key': DEV_ORGANIZATION_API_KEY } })).status).toBe(
        200,
      );
      // The bucket refills: a failure is a 401 again after a while.
      vi.setSystemTime(Date.now() + 10_000);
      await envelope(await wrong(), 401, 'auth.invalid_api_key');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts logins without a key and unknown publishable keys too, per client address, and for everyone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const ref = await reference({
        trustProxy: true,
        limits: { failures: { address: { perSecond: 0.001, burst: 3 }, all: { perSecond: 0.001, burst: 8 } } },
      });
      const from = (address: string) => ({ 'x-forwarded-for': `${address}, 10.0.0.1` });
      const login = (address: string) =>
        ref.call('/management/v1/auth/login', { headers: from(address), body: { publishable_key: 'pk_demo_shop' } });
      const exchange = (address: string) =>
        ref.call('/management/v1/auth/token', { headers: from(address), body: { publishable_key: 'pk_nobody_at_all' } });
      expect([(await login('198.51.100.1')).status, (await exchange('198.51.100.1')).status, (await login('198.51.100.1')).status]).toEqual(
        [401, 401, 401],
      );
      await envelope(await exchange('198.51.100.1'), 429, 'rate_limited');
      // Another address has its own bucket, until everyone's is empty.
      expect((await exchange('198.51.100.2')).status).toBe(401);
      expect((await exchange('198.51.100.3')).status).toBe(401);
      expect((await exchange('198.51.100.3')).status).toBe(401);
      expect((await exchange('198.51.100.4')).status).toBe(401);
      expect((await exchange('198.51.100.5')).status).toBe(401);
      await envelope(await exchange('198.51.100.6'), 429, 'rate_limited');
      // A known key is exchanged whatever the buckets hold.
      expect(
        (await ref.call('/management/v1/auth/token', { headers: from('198.51.100.1'), body: { publishable_key: 'pk_demo_shop' } })).status,
      ).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
