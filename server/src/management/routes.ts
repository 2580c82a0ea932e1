import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { agentJson, versionById, versionJson } from '../agents/versions.js';
import type { Deps } from '../deps.js';
import { ApiError, notFound } from '../http/errors.js';
import { newVersion, versionSettingsSchema } from '../agents/config.js';
import { sees } from '../auth/management-auth.js';
import { MAX_TEXT_CHARS } from '../http/schemas.js';
import { sizeOf } from '../store/limits.js';
import type { AgentRecord, ThreadRecord } from '../store/records.js';
import { agentOf, welcomeOf } from '../messaging/threads.js';
import { page, parseListQuery } from './thread-list.js';
import { parseBody, pathId } from '../http/validate.js';
import type { Trace } from '../agents/trace.js';

/**
 * The management surface under `/management/v1`, behind `managementAuth` (docs/protocol.md
 * "Management"): threads (list, read, rename, transcript, traces), interactions' traces,
 * agents (read, rename) and their versions (list, publish). An agent or thread the caller
 * may not see answers 404, exactly as a missing one.
 */

const text = (max: number) =>
  z
    .string({ error: 'Must be a string.' })
    .min(1, { error: 'Must not be empty.' })
    .max(max, { error: `At most ${max} characters.` });

const threadPatchSchema = z.strictObject(
  {
    title: text(200).nullable().optional(),
    user_id: text(256).optional(),
    external_id: text(256).nullable().optional(),
    welcome_message: text(MAX_TEXT_CHARS).optional(),
    followup_suggestions: z
      .array(text(200), { error: 'Must be an array of strings.' })
      .max(10, { error: 'At most 10 suggestions.' })
      .optional(),
  },
  { error: 'The body must be a JSON object.' },
);

const agentPatchSchema = z.strictObject({ name: text(120) }, { error: 'The body must be a JSON object.' });

export function managementRoutes(deps: Deps): Hono {
  const app = new Hono();
  const { stores } = deps;

  /** The agents the caller may see: undefined for every one. */
  const visibleAgents = (c: Context): string[] | undefined => {
    const manager = c.get('manager');
    return manager.kind === 'organization' ? undefined : [manager.key.agentId];
  };

  const findThread = async (c: Context): Promise<ThreadRecord> => {
    const id = pathId(c.req.param('threadId')!, 'thread_id');
    const thread = await stores.threads.get(id);
    if (!thread || !sees(c.get('manager'), thread.agentId)) throw notFound('Thread');
    return thread;
  };

  const findAgent = async (c: Context): Promise<AgentRecord> => {
    const id = pathId(c.req.param('agentId')!, 'agent_id');
    const agent = sees(c.get('manager'), id) ? await stores.agents.get(id) : undefined;
    if (!agent) throw notFound('Agent');
    return agent;
  };

  /** The full thread record: the reference's four named fields, and what a builder's preview shows. */
  const threadJson = async (thread: ThreadRecord) => {
    const key = await stores.keys.get(thread.key);
    const agent = await agentOf(deps, thread.agentId);
    const messages = thread.suggestions ? [] : await stores.threads.messages(thread.id);
    const lastReply = messages.findLast((m) => m.sender.type === 'agent');
    const live = agent.versions.find((v) => v.id === agent.liveVersionId);
    return {
      id: thread.id,
      title: thread.title,
      created_at: thread.createdAt,
      updated_at: thread.updatedAt,
      version_tag: thread.versionTag,
      version_id: thread.versionId,
      agent_id: agent.id,
      project_id: agent.projectId,
      user_id: thread.userId,
      external_id: thread.externalId,
      welcome_message: thread.welcome ?? (key ? await welcomeOf(deps, key) : (live?.settings.welcome ?? '')),
      followup_suggestions: thread.suggestions ?? lastReply?.followup_suggestions ?? [],
      message_count: thread.messageCount,
      branched_from: thread.branchedFrom
        ? { thread_id: thread.branchedFrom.threadId, interaction_id: thread.branchedFrom.interactionId }
        : null,
    };
  };

  app.get('/threads', async (c) => {
    const url = new URL(c.req.url);
    const query = parseListQuery(url, deps.signing.current.secret);
    return c.json(await page(stores.threads, query, visibleAgents(c), url, deps.signing.current.secret));
  });

  app.get('/threads/:threadId', async (c) => c.json(await threadJson(await findThread(c))));

  app.patch('/threads/:threadId', async (c) => {
    const thread = await findThread(c);
    const body = await parseBody(c, threadPatchSchema);
    // Omitted fields stay as they are; `null` clears the ones that may be empty.
    const patch = {
      title: body.title,
      userId: body.user_id,
      externalId: body.external_id,
      welcome: body.welcome_message,
      suggestions: body.followup_suggestions,
    };
    // What the thread keeps counts against its key, as messages do.
    let grow = 0;
    for (const [field, value] of Object.entries(patch) as Array<[keyof typeof patch, unknown]>) {
      if (value !== undefined) grow += sizeOf(value) - sizeOf(thread[field]);
    }
    const updated = await stores.threads.update(thread.id, {
      ...patch,
      grow,
      updatedAt: Object.keys(body).length ? new Date().toISOString() : undefined,
    });
    if (!updated) throw notFound('Thread');
    const key = await stores.keys.get(updated.key);
    if (key && grow > 0) await deps.budgets.settle(key, updated.id);
    return c.json(await threadJson(updated));
  });

  app.get('/threads/:threadId/messages', async (c) => c.json(await stores.threads.messages((await findThread(c)).id)));

  app.get('/threads/:threadId/trace', async (c) => {
    const thread = await findThread(c);
    return c.json({ thread_id: thread.id, traces: (await stores.traces.forThread(thread.id)).map((t) => liveTrace(t)) });
  });

  app.get('/interactions/:interactionId/trace', async (c) => {
    const id = pathId(c.req.param('interactionId'), 'interaction_id');
    const trace = await stores.traces.get(id);
    if (!trace || !sees(c.get('manager'), trace.agent_id)) throw notFound('Interaction');
    return c.json(liveTrace(trace));
  });

  /** A running turn's trace as it stands: its steps so far, from the turn running here. */
  const liveTrace = (trace: Trace): Trace => {
    if (trace.status !== 'running') return trace;
    const turn = deps.live.get(trace.interaction_id);
    return turn ? { ...trace, steps: turn.trace.steps } : trace;
  };

  app.get('/agents/:agentId', async (c) => c.json(agentJson(await findAgent(c))));

  // A rename re-publishes the live version with the new name; which version is live stays.
  app.patch('/agents/:agentId', async (c) => {
    const agent = await findAgent(c);
    const { name } = await parseBody(c, agentPatchSchema);
    const renamed = await stores.agents.rename(agent.id, name, new Date().toISOString());
    if (!renamed) throw notFound('Agent');
    return c.json(agentJson(renamed));
  });

  app.get('/agents/:agentId/versions', async (c) => {
    const agent = await findAgent(c);
    return c.json({
      results: agent.versions.map((v) => versionJson(agent, v)),
      meta: { has_more: false, after_cursor: null, before_cursor: null },
      links: { next: null, prev: null },
    });
  });

  // A new draft version (docs/protocol.md "Agents"): publish it to make it live.
  app.post('/agents/:agentId/versions', async (c) => {
    const agent = await findAgent(c);
    const input = await parseBody(c, versionSettingsSchema);
    const version = await stores.agents.addVersion(agent.id, newVersion(input, new Date().toISOString()));
    if (!version) throw new ApiError(409, 'agents.version_exists', `The agent has a version tagged ${input.tag} already.`);
    const updated = (await stores.agents.get(agent.id))!;
    return c.json(versionJson(updated, version), 201);
  });

  // Makes the version live: new turns of the agent's threads run on it (a pinned rerun's keep theirs).
  app.post('/agents/:agentId/versions/:versionId/publish', async (c) => {
    const agent = await findAgent(c);
    const version = versionById(agent, pathId(c.req.param('versionId'), 'version_id'));
    if (!version) throw notFound('Agent version');
    const published = await stores.agents.publish(agent.id, version.id, new Date().toISOString());
    if (!published) throw notFound('Agent version');
    return c.json(versionJson(published, versionById(published, version.id)!));
  });

  return app;
}
