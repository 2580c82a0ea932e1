import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import { ApiError } from '../http/errors.js';

/**
 * What a failed credential costs (SECURITY.md "The server's perimeter"): a wrong
 * organization key, a login without one, a publishable key the server does not know. Each
 * takes a token from its client address's bucket and from one bucket for everyone; once
 * either is empty, a failure is answered 429 with `Retry-After` instead of 401, so guessing
 * runs at the buckets' rate, not the network's. A right credential is never refused by
 * them: a flood of wrong ones cannot lock its owner out.
 */
export interface FailureLimits {
  /** One client address's failures: `burst` at once, `perSecond` after. */
  address: { perSecond: number; burst: number };
  /** Everyone's failures together. */
  all: { perSecond: number; burst: number };
}

export const FAILURE_LIMITS: FailureLimits = {
  address: { perSecond: 0.5, burst: 20 },
  all: { perSecond: 5, burst: 200 },
};

/**
 * The address a request came from: the socket's peer, or with `trustProxy` the first
 * address of `X-Forwarded-For` (a proxy in front writes it); `unknown` in process.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/** Counts a failed credential: the error to answer, `refusal` (its 401) or a 429 past the buckets. */
export async function failed(deps: Deps, c: Context, refusal: ApiError): Promise<ApiError> {
  const now = Date.now();
  const { address, all } = deps.failureLimits;
  const mine = await deps.stores.rates.take(`failed:${clientAddress(c, deps.trustProxy)}`, address, now);
  const everyone = mine ? 0 : await deps.stores.rates.take('failed:*', all, now);
  const wait = Math.max(mine, everyone);
  if (!wait) return refusal;
  return new ApiError(429, 'rate_limited', `Too many failed attempts; try again in ${wait} s.`, null, { 'Retry-After': String(wait) });
}
