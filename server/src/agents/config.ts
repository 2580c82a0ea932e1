import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { newHexId } from '../http/ids.js';
import { hexId } from '../http/schemas.js';
import type { Stores } from '../store/index.js';
import type { AgentRecord, AgentVersion, VersionSettings } from '../store/records.js';

/**
 * Agents defined by their operator (docs/protocol.md "Agents"): an `AGENTS_FILE` lists each
 * agent, the publishable keys that serve it and its versions (welcome message, starter
 * suggestions, model, instructions). They are stored, so they survive restarts, and applied
 * at each start: a new agent is made with its versions and its live one; an agent already
 * stored gains the versions with tags it does not have yet, and the file's live version is
 * published when it is one of those (a version published since through the management
 * surface stays live otherwise). A stored version never changes: a change is a new tag.
 */

const text = (max: number) => z.string().min(1).max(max);

/** A version's settings as the file and the management surface write them. */
export const versionSettingsSchema = z.strictObject({
  tag: z.string().regex(/^[\w.-]{1,64}$/, { error: 'A tag is 1 to 64 letters, digits, "_", "." or "-".' }),
  welcome_message: text(4000).optional(),
  starter_suggestions: z.array(text(200)).max(10).optional(),
  model: text(200).optional(),
  instructions: text(20_000).optional(),
});
export type VersionInput = z.infer<typeof versionSettingsSchema>;

const agentSchema = z
  .strictObject({
    id: hexId,
    name: text(120),
    project_id: hexId.optional(),
    publishable_keys: z
      .array(z.string().regex(/^pk_[\w-]{8,200}$/, { error: 'A publishable key is "pk_" and 8 to 200 letters, digits, "_" or "-".' }))
      .min(1)
      .max(20),
    versions: z.array(versionSettingsSchema).min(1).max(100),
    live: z.string(),
  })
  .refine((a) => new Set(a.versions.map((v) => v.tag)).size === a.versions.length, { error: 'Tags must differ.', path: ['versions'] })
  .refine((a) => a.versions.some((v) => v.tag === a.live), { error: 'The live version must be one of the versions.', path: ['live'] });

export const agentsFileSchema = z.strictObject({ agents: z.array(agentSchema).max(1000) });
export type AgentsConfig = z.infer<typeof agentsFileSchema>;

/** The settings a version keeps, from what the file or the management surface wrote. */
export function settingsOf(input: VersionInput): VersionSettings {
  return {
    ...(input.welcome_message !== undefined ? { welcome: input.welcome_message } : {}),
    ...(input.starter_suggestions !== undefined ? { suggestions: input.starter_suggestions } : {}),
    ...(input.model !== undefined ? { model: input.model } : {}),
    ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
  };
}

/** A new draft version with these settings. */
export function newVersion(input: VersionInput, now: string): AgentVersion {
  return { id: newHexId(), tag: input.tag, state: 'draft', name: null, createdAt: now, publishedAt: null, settings: settingsOf(input) };
}

/** Reads and checks `AGENTS_FILE`; throws a message naming the file and the field that is wrong. */
export function agentsFromFile(path: string): AgentsConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`AGENTS_FILE (${path}) could not be read as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = agentsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`);
    throw new Error(`AGENTS_FILE (${path}) is not valid:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/** What applying the file did, for the start-up banner. */
export interface Applied {
  agents: number;
  created: number;
  versionsAdded: number;
  /** Versions the file states differently from how they are stored (kept as stored). */
  unchanged: string[];
}

const DEFAULT_PROJECT_ID = '000000000000000000000000';

/** Makes the stores hold what `config` says (see the top of this file). */
export async function applyAgents(stores: Stores, config: AgentsConfig): Promise<Applied> {
  const applied: Applied = { agents: config.agents.length, created: 0, versionsAdded: 0, unchanged: [] };
  const now = new Date().toISOString();
  for (const entry of config.agents) {
    const id = entry.id.toLowerCase();
    for (const key of entry.publishable_keys) {
      const existing = await stores.keys.get(key);
      if (existing && existing.agentId !== id) throw new Error(`AGENTS_FILE: the key ${key} serves another agent (${existing.agentId}).`);
    }
    let agent = await stores.agents.get(id);
    if (!agent) {
      const versions = entry.versions.map((v) => newVersion(v, now));
      const live = versions.find((v) => v.tag === entry.live)!;
      Object.assign(live, { state: 'published', name: entry.name, publishedAt: now });
      const record: AgentRecord = {
        id,
        projectId: entry.project_id?.toLowerCase() ?? DEFAULT_PROJECT_ID,
        name: entry.name,
        createdAt: now,
        updatedAt: now,
        liveVersionId: live.id,
        versions,
      };
      agent = await stores.agents.ensure(record);
      applied.created += 1;
    } else {
      let publish: string | undefined;
      for (const input of entry.versions) {
        const stored = agent.versions.find((v) => v.tag === input.tag);
        if (stored) {
          if (canonical(stored.settings) !== canonical(settingsOf(input))) {
            applied.unchanged.push(`${entry.name} ${input.tag}`);
          }
          continue;
        }
        const version = newVersion(input, now);
        await stores.agents.addVersion(id, version);
        applied.versionsAdded += 1;
        if (input.tag === entry.live) publish = version.id;
      }
      if (publish) agent = (await stores.agents.publish(id, publish, now))!;
    }
    for (const key of entry.publishable_keys) await stores.keys.ensure({ key, agentId: id, kind: 'operator', plan: {} });
  }
  return applied;
}

/** Settings as JSON with their keys in one order (the database keeps them in its own). */
const canonical = (settings: VersionSettings): string =>
  JSON.stringify(Object.fromEntries(Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : 1))));
