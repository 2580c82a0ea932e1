import { ApiError, errorFromException, errorFromResponse } from './errors.js';
import { isObject } from './types.js';

/** Where access tokens come from; the client builds this from its ClientConfig. */
export interface TokenSource {
  baseUrl: string;
  publishableKey?: string;
  accessToken?: string;
  tokenProvider?: () => Promise<string>;
  /** The user the publishable-key exchange asks a token for (ClientConfig.userId). */
  userId?: () => string;
  /** Timeout of one token exchange (ms). */
  timeoutMs: number;
  /**
   * Keeps tokens from the publishable-key exchange beyond this client (the widget: one
   * tab's sessionStorage), so the next page view does not exchange again. Never given
   * host-minted tokens (`accessToken`, `tokenProvider`): the host decides where those live.
   */
  cache?: TokenCache;
}

/** A token and when to replace it, as a `TokenCache` keeps it. */
export interface CachedToken {
  value: string;
  /** Epoch ms after which the token should be replaced; null when unknown (keep until a 401). */
  refreshAt: number | null;
  /** The user an exchanged token was asked for: it serves no other. */
  user?: string;
}

/** Storage for exchanged tokens; both calls may fail silently (storage full, or off). */
export interface TokenCache {
  read(): CachedToken | null;
  write(token: CachedToken | null): void;
}

/**
 * A JWT's payload (base64url JSON), read without verifying it: the service verifies, the
 * client only reads when to refresh (`exp`) and what the token serves (`scope`,
 * management.ts). Null for an opaque token or one whose payload is not a JSON object.
 */
export function jwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const payload: unknown = JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)));
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}

/** Reads `exp` (epoch seconds) from a JWT's payload without verifying it; null if absent. */
export function jwtExpiry(token: string): number | null {
  const exp = jwtPayload(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/**
 * When to replace a token that expires at `expiresAt` (epoch ms) and was obtained at `now`:
 * once less than min(60 s, 10% of its lifetime) remains, so short-lived tokens are not
 * refreshed constantly and long-lived ones are not used until the last second.
 */
export function refreshTime(expiresAt: number, now: number): number {
  const lifetime = Math.max(0, expiresAt - now);
  return expiresAt - Math.min(60_000, lifetime * 0.1);
}

/**
 * A cached token still worth using: one without a known expiry is not kept across pages
 * (nothing says when it ends), and one due for replacement is as good as none.
 */
function usable(token: CachedToken | null | undefined): CachedToken | null {
  // Sent as a header on every request: printable, and of a size a service accepts.
  if (!token || typeof token.value !== 'string' || !/^[!-~]{1,8192}$/.test(token.value)) return null;
  return typeof token.refreshAt === 'number' && Date.now() < token.refreshAt
    ? { value: token.value, refreshAt: token.refreshAt, user: typeof token.user === 'string' ? token.user : undefined }
    : null;
}

/**
 * Caches the access token, replaces it shortly before it expires, and shares one fetch
 * between concurrent callers. Sources, in precedence order: `accessToken` (fixed, unless a
 * `tokenProvider` is also given, which then supplies its replacements), `tokenProvider`,
 * the `publishableKey` exchange. With none, requests go out without a token.
 */
export class TokenManager {
  private __cached: CachedToken | null = null;
  private __pending: Promise<CachedToken> | null = null;

  constructor(private readonly __source: TokenSource) {
    if (__source.accessToken) this.__cached = this.__toCached(__source.accessToken, undefined, Date.now());
    else if (this.__exchanges) this.__cached = usable(__source.cache?.read());
  }

  /** Tokens come from the publishable-key exchange (the only ones a cache may keep). */
  private get __exchanges(): boolean {
    const s = this.__source;
    return !s.accessToken && !s.tokenProvider && !!s.publishableKey;
  }

  /** Whether a rejected token can be replaced (false for a fixed `accessToken`). */
  get canRefresh(): boolean {
    const s = this.__source;
    return !!s.tokenProvider || (!s.accessToken && !!s.publishableKey);
  }

  /** The user an exchange asks for now (none for host-minted tokens). */
  private get __user(): string | undefined {
    return (this.__exchanges && this.__source.userId?.()) || undefined;
  }

  /** A usable token, or null when no token source is configured. */
  async get(): Promise<string | null> {
    const now = Date.now();
    const c = this.__cached;
    // A token exchanged for another user (the host changed `user-id`) is as good as none.
    if (c && c.user === this.__user && (c.refreshAt === null || now < c.refreshAt || !this.canRefresh)) return c.value;
    if (!this.canRefresh) return null;
    if (!this.__pending) {
      this.__pending = this.__fetchToken().then(
        (t) => {
          this.__cached = t;
          this.__pending = null;
          if (this.__exchanges) this.__source.cache?.write(t);
          return t;
        },
        (e: unknown) => {
          this.__pending = null;
          throw e;
        },
      );
    }
    return (await this.__pending).value;
  }

  /**
   * Forgets the cached token after the service rejected it. Passing the rejected token
   * keeps a replacement another request already fetched.
   */
  invalidate(token?: string | null): void {
    if (token && this.__cached?.value !== token) return;
    this.__cached = null;
    if (this.__exchanges) this.__source.cache?.write(null);
  }

  private __toCached(value: string, expiresIn: number | undefined, now: number): CachedToken {
    const exp = jwtExpiry(value);
    const expiresAt = exp !== null ? exp * 1000 : expiresIn !== undefined ? now + expiresIn * 1000 : null;
    return { value, refreshAt: expiresAt === null ? null : refreshTime(expiresAt, now) };
  }

  private async __fetchToken(): Promise<CachedToken> {
    const s = this.__source;
    if (s.tokenProvider) {
      let value: unknown;
      try {
        value = await s.tokenProvider();
      } catch (e) {
        throw new ApiError({ kind: 'auth', message: 'Could not obtain an access token.', cause: e });
      }
      if (typeof value !== 'string' || !value) {
        throw new ApiError({ kind: 'auth', message: 'The token provider returned no access token.' });
      }
      return this.__toCached(value, undefined, Date.now());
    }
    return this.__exchange(s.publishableKey as string, this.__user);
  }

  /** `POST /management/v1/auth/token {publishable_key, user_id}` (docs/protocol.md "Token exchange"). */
  private async __exchange(publishableKey: string, user: string | undefined): Promise<CachedToken> {
    const timeout = AbortSignal.timeout(this.__source.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.__source.baseUrl}/management/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ publishable_key: publishableKey, user_id: user }),
        signal: timeout,
      });
      text = await res.text();
    } catch (e) {
      // Network trouble stays `network`/`timeout`: retrying may help, unlike a refused key.
      throw errorFromException(e, undefined, () => timeout.aborted);
    }
    if (!res.ok) throw errorFromResponse(res, text, 'auth');
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Reported below as an unusable answer.
    }
    if (!isObject(body) || typeof body.access_token !== 'string' || !body.access_token) {
      throw new ApiError({ kind: 'auth', status: res.status, message: 'The service returned no usable access token.' });
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : undefined;
    return { ...this.__toCached(body.access_token, expiresIn, Date.now()), user };
  }
}
