import type { Db, Queryable } from './db.js';
import type { AgentRecord, AgentVersion, VersionSettings } from './records.js';

/**
 * Agents and their versions (the port; docs/protocol.md "Agents"). An agent has versions
 * and one live version, the one messaging runs on; publishing another makes it live.
 * Agents are read on every turn, so each is kept in this process once read; every change
 * goes through here and refreshes it.
 */
export interface AgentStore {
  get(id: string): Promise<AgentRecord | undefined>;
  /** Adds an agent with its versions, or leaves the one with that id as it is. */
  ensure(agent: AgentRecord): Promise<AgentRecord>;
  rename(id: string, name: string, now: string): Promise<AgentRecord | undefined>;
  /** Adds a draft version; undefined when the agent has one with that tag. */
  addVersion(agentId: string, version: AgentVersion): Promise<AgentVersion | undefined>;
  /** Makes a version live, published now with the agent's current name. */
  publish(agentId: string, versionId: string, now: string): Promise<AgentRecord | undefined>;
  /** Every agent's id, oldest first. */
  ids(): Promise<string[]>;
  /** Removes an agent no key serves any more (a minted key's, with it); false when a key still does. */
  remove(id: string): Promise<boolean>;
}

interface AgentRow {
  id: string;
  project_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  live_version_id: string;
}

interface VersionRow {
  id: string;
  agent_id: string;
  tag: string;
  state: AgentVersion['state'];
  name: string | null;
  created_at: string;
  published_at: string | null;
  settings: VersionSettings;
}

const CACHED_AGENTS = 256;

export class SqlAgentStore implements AgentStore {
  private readonly cache = new Map<string, AgentRecord>();

  constructor(private readonly db: Db) {}

  private remember(agent: AgentRecord): AgentRecord {
    this.cache.delete(agent.id);
    this.cache.set(agent.id, agent);
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= CACHED_AGENTS) break;
      this.cache.delete(oldest);
    }
    return agent;
  }

  private async load(id: string, db: Queryable = this.db): Promise<AgentRecord | undefined> {
    const { rows } = await db.query<AgentRow>('SELECT * FROM agents WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) {
      this.cache.delete(id);
      return undefined;
    }
    const versions = await db.query<VersionRow>('SELECT * FROM agent_versions WHERE agent_id = $1 ORDER BY created_at, tag', [id]);
    return this.remember({
      id: row.id,
      projectId: row.project_id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      liveVersionId: row.live_version_id,
      versions: versions.rows.map((v) => ({
        id: v.id,
        tag: v.tag,
        state: v.state,
        name: v.name,
        createdAt: v.created_at,
        publishedAt: v.published_at,
        settings: v.settings ?? {},
      })),
    });
  }

  async get(id: string): Promise<AgentRecord | undefined> {
    const cached = this.cache.get(id);
    return cached ? this.remember(cached) : this.load(id);
  }

  async ensure(agent: AgentRecord): Promise<AgentRecord> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `INSERT INTO agents (id, project_id, name, created_at, updated_at, live_version_id) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [agent.id, agent.projectId, agent.name, agent.createdAt, agent.updatedAt, agent.liveVersionId],
      );
      if (rows.length) for (const version of agent.versions) await insertVersion(tx, agent.id, version);
      return (await this.load(agent.id, tx))!;
    });
  }

  async rename(id: string, name: string, now: string): Promise<AgentRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ live_version_id: string }>(
        'UPDATE agents SET name = $2, updated_at = $3 WHERE id = $1 RETURNING live_version_id',
        [id, name, now],
      );
      if (!rows[0]) return undefined;
      // A rename re-publishes the live version with the new name.
      await tx.query(`UPDATE agent_versions SET name = $2, published_at = $3, state = 'published' WHERE id = $1`, [
        rows[0].live_version_id,
        name,
        now,
      ]);
      return this.load(id, tx);
    });
  }

  async addVersion(agentId: string, version: AgentVersion): Promise<AgentVersion | undefined> {
    const added = await this.db.transaction(async (tx) => {
      const taken = await tx.query('SELECT 1 FROM agent_versions WHERE agent_id = $1 AND tag = $2', [agentId, version.tag]);
      if (taken.rows.length) return false;
      await insertVersion(tx, agentId, version);
      await this.load(agentId, tx);
      return true;
    });
    return added ? version : undefined;
  }

  async publish(agentId: string, versionId: string, now: string): Promise<AgentRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        `UPDATE agents SET live_version_id = $2, updated_at = $3 WHERE id = $1
           AND EXISTS (SELECT 1 FROM agent_versions WHERE id = $2 AND agent_id = $1) RETURNING name`,
        [agentId, versionId, now],
      );
      if (!rows[0]) return undefined;
      await tx.query(`UPDATE agent_versions SET state = 'published', name = $2, published_at = $3 WHERE id = $1`, [
        versionId,
        rows[0].name,
        now,
      ]);
      return this.load(agentId, tx);
    });
  }

  async remove(id: string): Promise<boolean> {
    this.cache.delete(id);
    const { rows } = await this.db.query(
      'DELETE FROM agents WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM publishable_keys WHERE agent_id = $1) RETURNING id',
      [id],
    );
    return rows.length > 0;
  }

  async ids(): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>('SELECT id FROM agents ORDER BY created_at, id');
    return rows.map((r) => r.id);
  }
}

async function insertVersion(db: Queryable, agentId: string, v: AgentVersion): Promise<void> {
  await db.query(
    `INSERT INTO agent_versions (id, agent_id, tag, state, name, created_at, published_at, settings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
    [v.id, agentId, v.tag, v.state, v.name, v.createdAt, v.publishedAt, JSON.stringify(v.settings)],
  );
}
