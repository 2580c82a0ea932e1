import { liveVersion } from '../agents/versions.js';
import type { Caller, Deps } from '../deps.js';
import { ApiError } from '../http/errors.js';
import { newHexId } from '../http/ids.js';
import { THREAD_OVERHEAD_BYTES } from '../store/limits.js';
import type { AgentRecord, AgentVersion, KeyRecord, ThreadRecord } from '../store/records.js';
import { EMPTY_FACETS } from '../store/threads.js';

/** The agent a key or token names; one that is gone is the server's fault, not the caller's. */
export async function agentOf(deps: Deps, agentId: string): Promise<AgentRecord> {
  const agent = await deps.stores.agents.get(agentId);
  if (!agent) throw new ApiError(500, 'internal_error', 'This key’s agent is missing.');
  return agent;
}

/** The version a new turn of `thread` runs on: the one it was pinned to, else its agent's live one. */
export async function versionFor(deps: Deps, thread: ThreadRecord): Promise<AgentVersion> {
  const agent = await agentOf(deps, thread.agentId);
  return (thread.pinned && agent.versions.find((v) => v.id === thread.versionId)) || liveVersion(agent);
}

/** The welcome message template of a key's agent: its live version's, else what answers for the key says. */
export async function welcomeOf(deps: Deps, key: KeyRecord): Promise<string> {
  const agent = await agentOf(deps, key.agentId);
  return liveVersion(agent).settings.welcome ?? deps.agentFor(key).welcomeTemplate();
}

/**
 * A new thread of `key`'s agent, on its live version or on `version` for good (a pinned
 * rerun); the key forgets its least recently used threads past its bounds.
 */
export async function createThread(
  deps: Deps,
  key: KeyRecord,
  init: {
    userId: string;
    /** The visitor of the token that asks for it (`Caller.visitor`): only that visitor's tokens open it. */
    visitor: string | undefined;
    title: string | null;
    version?: AgentVersion;
    branchedFrom?: ThreadRecord['branchedFrom'];
  },
): Promise<ThreadRecord> {
  const agent = await agentOf(deps, key.agentId);
  const version = init.version ?? liveVersion(agent);
  const now = new Date().toISOString();
  const thread = await deps.stores.threads.create({
    id: newHexId(),
    agentId: agent.id,
    projectId: agent.projectId,
    key: key.key,
    userId: init.userId,
    visitor: init.visitor ?? null,
    title: init.title,
    createdAt: now,
    updatedAt: now,
    versionId: version.id,
    versionTag: version.tag,
    pinned: init.version !== undefined,
    externalId: null,
    welcome: null,
    suggestions: null,
    lastSeq: 0,
    latestTurn: null,
    branchedFrom: init.branchedFrom ?? null,
    channels: [],
    facets: EMPTY_FACETS,
    messageCount: 0,
    bytes: THREAD_OVERHEAD_BYTES,
  });
  await deps.budgets.settle(key, thread.id);
  return thread;
}

/**
 * Whether a caller may open `thread` on the messaging surface: a thread of its agent, and
 * one of no visitor's, of the caller's own visitor (the token's `uid`), or any when the
 * token is a login session's, which management reads all of anyway (docs/protocol.md
 * "Visitors"). A thread it may not open is answered as a missing one.
 */
export const opens = (thread: ThreadRecord, caller: Pick<Caller, 'agentId' | 'visitor' | 'everyVisitor'>): boolean =>
  thread.agentId === caller.agentId && (thread.visitor === null || thread.visitor === caller.visitor || caller.everyVisitor === true);

/**
 * A body's `user_id` from a caller whose token was exchanged for a visitor: it must be that
 * visitor (403 `auth.user_mismatch`), or the token would speak for someone else.
 */
export function actsFor(visitor: string | undefined, userId: string | undefined): void {
  if (visitor !== undefined && userId !== undefined && userId !== visitor) {
    throw new ApiError(403, 'auth.user_mismatch', 'This access token was issued for another user_id.', [
      { message: 'Must be the user_id the token was exchanged for.', field: 'user_id' },
    ]);
  }
}
