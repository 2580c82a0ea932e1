import { newHexId } from '../http/ids.js';
import type { AgentRecord, AgentVersion } from '../store/records.js';

/**
 * Agents and their versions as the management surface shows them (docs/protocol.md
 * "Management"), and the demo's: each publishable key of the demo has an agent of its own
 * with two versions of the script, `v1.0` (live) and `v1.1-preview` (a draft whose replies
 * say which version answered).
 */

/** The demo shop's agent, its project and versions: fixed ids, so a page or a test may name them. */
export const DEMO_AGENT_ID = '65f1a7c2e4b0d3a9c8f01234';
export const DEMO_PROJECT_ID = '65f1a7c2e4b0d3a9c8f0b000';
export const DEMO_VERSION_IDS = ['65f1a7c2e4b0d3a9c8f0a100', '65f1a7c2e4b0d3a9c8f0a101'] as const;
/** The project every minted key's agent belongs to. */
export const TEST_PROJECT_ID = '65f1a7c2e4b0d3a9c8f0b001';

export const LIVE_TAG = 'v1.0';
export const PREVIEW_TAG = 'v1.1-preview';

/** A demo agent: the script's two versions, the first live. */
export function newDemoAgent(init: { id: string; projectId: string; name: string; versionIds?: readonly [string, string] }): AgentRecord {
  const now = new Date().toISOString();
  const [liveId, previewId] = init.versionIds ?? [newHexId(), newHexId()];
  return {
    id: init.id,
    projectId: init.projectId,
    name: init.name,
    createdAt: now,
    updatedAt: now,
    versions: [
      { id: liveId, tag: LIVE_TAG, state: 'published', name: init.name, createdAt: now, publishedAt: now, settings: {} },
      { id: previewId, tag: PREVIEW_TAG, state: 'draft', name: null, createdAt: now, publishedAt: null, settings: { preview: true } },
    ],
    liveVersionId: liveId,
  };
}

export const liveVersion = (agent: AgentRecord): AgentVersion => agent.versions.find((v) => v.id === agent.liveVersionId)!;

export const versionById = (agent: AgentRecord, id: string): AgentVersion | undefined =>
  agent.versions.find((v) => v.id === id.toLowerCase());

export const versionByTag = (agent: AgentRecord, tag: string): AgentVersion | undefined => agent.versions.find((v) => v.tag === tag);

/** The Agent resource of the reference, plus the live version's tag. */
export function agentJson(agent: AgentRecord) {
  return {
    id: agent.id,
    project_id: agent.projectId,
    name: agent.name,
    created_at: agent.createdAt,
    updated_at: agent.updatedAt,
    live_version_id: agent.liveVersionId,
    live_version_tag: liveVersion(agent).tag,
  };
}

/** A version record (the reference shows only its tag and its use as the live version). */
export function versionJson(agent: AgentRecord, version: AgentVersion) {
  return {
    id: version.id,
    agent_id: agent.id,
    tag: version.tag,
    state: version.state,
    live: version.id === agent.liveVersionId,
    name: version.name,
    created_at: version.createdAt,
    published_at: version.publishedAt,
    // What the version says (docs/protocol.md "Agents"): each only when set.
    ...(version.settings.welcome !== undefined ? { welcome_message: version.settings.welcome } : {}),
    ...(version.settings.suggestions !== undefined ? { starter_suggestions: version.settings.suggestions } : {}),
    ...(version.settings.model !== undefined ? { model: version.settings.model } : {}),
    ...(version.settings.instructions !== undefined ? { instructions: version.settings.instructions } : {}),
  };
}
