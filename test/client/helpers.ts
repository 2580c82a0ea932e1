import { AgentClient, isApiError, type ApiError, type ClientConfig } from '../../src/client/index.js';
import type { FaultPlan, KeyStats } from '../../server/src/faults/plan.js';
import { BASE_URL, createKey, keyStats } from '../support/server.js';

export { BASE_URL, createKey, keyStats };

export const REPLY = 'The quick brown fox jumps over the lazy dog, twice: déjà vu 👋.';
export const STREAM_PATH = '/messaging/v1/messages/stream';

/** A key with a fast, known reply, plus a client on it. */
export async function setup(plan: FaultPlan = {}, config: Partial<ClientConfig> = {}): Promise<{ key: string; client: AgentClient }> {
  const key = await createKey({ paceMs: 2, replies: [{ text: REPLY }], ...plan });
  const client = new AgentClient({ baseUrl: BASE_URL, publishableKey: key, ...config });
  return { key, client };
}

/** The rejection of `promise` as an ApiError; fails the test if it resolves or throws anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    if (isApiError(e)) return e;
    throw new Error(`expected an ApiError, got ${String(e)}`);
  }
  throw new Error('expected a rejection');
}

export function streamRequests(stats: KeyStats): KeyStats['requests'] {
  return stats.requests.filter((r) => r.path === STREAM_PATH);
}

/**
 * Watches the page's WebSockets (the session the client opens): each socket, and the
 * frames sent on it. What a test waits for instead of for a while: a socket closed, a
 * number of pings answered. `stop()` puts the real constructor back.
 */
export function watchSockets(): { sockets: WebSocket[]; sent: string[]; stop(): void } {
  const Real = window.WebSocket;
  const sockets: WebSocket[] = [];
  const sent: string[] = [];
  class Watched extends Real {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === 'string') sent.push(data);
      super.send(data);
    }
  }
  window.WebSocket = Watched;
  return { sockets, sent, stop: () => void (window.WebSocket = Real) };
}
