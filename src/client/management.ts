import type { AgentClient } from './client.js';
import { requestJson, type HttpContext, type RequestOptions } from './http.js';
import { readThread, readTrace, readVersions, type AgentVersion, type ThreadRecord, type Trace } from './management-guards.js';
import { jwtPayload } from './token.js';
import { isHexId } from './types.js';

export type { AgentVersion, ThreadRecord, Trace, TraceError, TraceStep } from './management-guards.js';

/** What an access token serves, as its payload says (docs/protocol.md "Management", "Telling the tokens apart"). */
export interface TokenAccess {
  /** `scope` includes `management`: a login session's token, which serves management and messaging. */
  management: boolean;
  /** `sub`: the agent the token serves, when it is an id. */
  agentId: string | null;
}

/**
 * Reads what `token` serves from its payload, unverified (the service verifies every
 * request; this only decides what a builder's preview offers). `scope` is space-separated;
 * a token without one, or not a JWT, is a publishable key's: messaging only.
 */
export function tokenAccess(token: string | null): TokenAccess {
  const payload = token ? jwtPayload(token) : null;
  const scope = typeof payload?.scope === 'string' ? payload.scope.split(/\s+/) : [];
  return { management: scope.includes('management'), agentId: isHexId(payload?.sub) ? payload.sub : null };
}

/**
 * The management operations a builder's preview uses (docs/protocol.md "What a builder's
 * preview uses"): an interaction's trace, the agent's versions, a thread read and renamed.
 * Shares the messaging client's base address, token and refresh (one login session serves
 * both); every response is checked by management-guards.ts. DOM-free, like the rest of
 * the client. A `403` (a token that does not serve management) rejects with an `http`
 * ApiError of status 403; a `401` that survived one refresh with `auth`.
 */
export class ManagementClient {
  private readonly __ctx: HttpContext;

  constructor(client: AgentClient) {
    this.__ctx = client.ctx;
  }

  /** `GET /management/v1/interactions/{id}/trace`: a reply's `id` is its interaction id. */
  trace(interactionId: string, opts?: RequestOptions): Promise<Trace> {
    const path = `/management/v1/interactions/${encodeURIComponent(interactionId)}/trace`;
    return requestJson(this.__ctx, 'GET', path, undefined, readTrace, 'a trace', opts);
  }

  /** `GET /management/v1/agents/{id}/versions`: its versions, oldest first (the first page). */
  versions(agentId: string, opts?: RequestOptions): Promise<AgentVersion[]> {
    const path = `/management/v1/agents/${encodeURIComponent(agentId)}/versions`;
    return requestJson(this.__ctx, 'GET', path, undefined, readVersions, 'agent versions', opts);
  }

  /** `GET /management/v1/threads/{id}`. */
  thread(threadId: string, opts?: RequestOptions): Promise<ThreadRecord> {
    return requestJson(this.__ctx, 'GET', threadPath(threadId), undefined, readThread, 'a thread', opts);
  }

  /** `PATCH /management/v1/threads/{id}` with `{title}` (null clears it); resolves with the whole thread. */
  rename(threadId: string, title: string | null, opts?: RequestOptions): Promise<ThreadRecord> {
    return requestJson(this.__ctx, 'PATCH', threadPath(threadId), { title }, readThread, 'a thread', opts);
  }
}

const threadPath = (threadId: string) => `/management/v1/threads/${encodeURIComponent(threadId)}`;
