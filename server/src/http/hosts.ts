import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';

/**
 * Which names the server answers to (the `Host` header). A page on
 * `http://rebind.attacker.test:8787` whose name the attacker points at 127.0.0.1 after it
 * loaded (DNS rebinding) calls the server same-origin: its `Origin` is the server's own as
 * far as the origin gate can tell, since that gate takes the server's origin from `Host`.
 * What still tells it apart is the name in `Host`, which the browser fills from the page's
 * address. So a request is answered only when that name is one of the server's own:
 *
 * - an IP address (`127.0.0.1`, `[::1]`, a LAN address): an address cannot be rebound;
 * - `localhost` and any `*.localhost` (RFC 6761: they never leave the machine);
 * - the address the server listens on (`HOST`), when it is a name;
 * - each name of `ALLOWED_HOSTS`: `shop.example` for that name, `.shop.example` for it and
 *   every name under it (as Vite's `server.allowedHosts` reads them), or `*` for any name
 *   (only behind a proxy that checks `Host` itself).
 *
 * Everything else is 421 `host.not_allowed` with the envelope, over HTTP and on the
 * WebSocket upgrade alike.
 */
export type HostRule = (host: string | undefined) => boolean;

/** A listed name: exact, or (with a leading dot) the name and everything under it. */
interface Listed {
  name: string;
  subdomains: boolean;
}

function parseListed(entry: string): Listed | 'any' {
  const trimmed = entry.trim().toLowerCase();
  if (trimmed === '*') return 'any';
  const subdomains = trimmed.startsWith('.');
  const name = subdomains ? trimmed.slice(1) : trimmed;
  // A name only: no scheme, port, path or wildcard, which would never match a Host header.
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(name)) {
    throw new Error(`ALLOWED_HOSTS: "${entry}" is not a host name (e.g. shop.example, or .shop.example for its subdomains too).`);
  }
  return { name: name.replace(/\.$/, ''), subdomains };
}

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower case, without a trailing dot; null if it is not one. */
export function hostName(host: string | undefined): string | null {
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  // Anything beyond an authority (a path, credentials) is not a Host header a browser sends.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.hostname.replace(/\.$/, '');
}

const isAddress = (name: string): boolean => isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0;

/**
 * The rule for the names in `allowed` besides addresses and `localhost`. Throws on an entry
 * that is not a host name, at start rather than on every request.
 */
export function hostRule(allowed: readonly string[] = []): HostRule {
  const parsed = allowed.filter((entry) => entry.trim()).map(parseListed);
  if (parsed.includes('any')) return () => true;
  const names = parsed.filter((entry): entry is Listed => entry !== 'any');
  return (host) => {
    const name = hostName(host);
    if (name === null) return false;
    if (isAddress(name) || name === 'localhost' || name.endsWith('.localhost')) return true;
    return names.some((entry) => name === entry.name || (entry.subdomains && name.endsWith(`.${entry.name}`)));
  };
}

/**
 * `ALLOWED_HOSTS` (comma list of names, `.name` for subdomains too, or `*`) and the name the
 * server listens on (`HOST`), when it is a name rather than an address. Checked at start.
 */
export function hostsFromEnv(env: NodeJS.ProcessEnv = process.env, listen?: string): readonly string[] {
  const listed = (env['ALLOWED_HOSTS'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (listen && !isAddress(listen) && !listen.includes(':')) listed.push(listen);
  hostRule(listed);
  return listed;
}

/** The refusal for a request whose `Host` is not one of the server's names. */
export function hostNotAllowed(host: string | undefined): ApiError {
  const shown = (host ?? '').slice(0, 200);
  return new ApiError(
    421,
    'host.not_allowed',
    `This server does not answer to the name "${shown}" (ALLOWED_HOSTS lists the names it answers to besides its own addresses).`,
  );
}

/**
 * Refuses a request whose `Host` is not one of the server's names before anything else runs
 * (its preflight included). The request's URL is built from `Host` by the Node adapter.
 */
export function hostGate(rule: HostRule): MiddlewareHandler {
  return async (c, next) => {
    const host = new URL(c.req.url).host;
    if (!rule(host)) throw hostNotAllowed(host);
    await next();
  };
}
