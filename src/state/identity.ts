/**
 * What identifies the reader to the service and is kept in the browser: the anonymous user
 * id, and the token exchanged for the publishable key (docs/protocol.md "Token exchange").
 * Apart from storage.ts so the shell, which reads storage, does not carry them.
 */
import type { CachedToken, TokenCache } from '../client/token.js';
import { PREFIX, backend } from './storage.js';

/** The anonymous user id: random, not derived from anything about the person. */
export function anonymousUserId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return 'anon_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Tokens from the publishable-key exchange, kept for this tab (sessionStorage) so a page
 * view does not exchange again while the token has time left (docs/protocol.md "Token
 * exchange"). Scoped like the thread; never used for host-minted tokens (token.ts).
 */
export function sessionTokenCache(scope: string): TokenCache {
  const store = backend('session');
  const key = `${PREFIX}token:${scope}`;
  return {
    read() {
      try {
        const parsed: unknown = JSON.parse(store?.getItem(key) ?? 'null');
        return parsed && typeof parsed === 'object' ? (parsed as CachedToken) : null;
      } catch {
        return null;
      }
    },
    write(token) {
      try {
        if (token) store?.setItem(key, JSON.stringify(token));
        else store?.removeItem(key);
      } catch {
        // Full or off: the next page view exchanges again.
      }
    },
  };
}
