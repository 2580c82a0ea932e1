import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { agentJson, publish, versionById, versionJson } from '../agents/versions.js';
import type { Deps } from '../deps.js';
import { notFound } from '../http/errors.js';
import { sees } from '../auth/management-auth.js';
import { MAX_TEXT_CHARS } from '../http/schemas.js';
import type { KeyRecord, ThreadRecord } from '../store/store.js';
import { matches, page, parseListQuery } from './thread-list.js';
import { parseBody, pathId } from '../http/validate.js';

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
  const { store } = deps;

  /** Every key the caller may see. */
  const visibleKeys = (c: Context): KeyRecord[] => {
    const manager = c.get('manager');
    return manager.kind === 'organization' ? [...store.keys.values()] : [manager.key];
  };

  const findThread = (c: Context): ThreadRecord => {
    const id = pathId(c.req.param('threadId')!, 'thread_id');
    const thread = store.threads.get(id);
    if (!thread || !sees(c.get('manager'), thread.key)) throw notFound('Thread');
    return thread;
  };

  const findAgent = (c: Context): KeyRecord => {
    const key = store.agentKey(pathId(c.req.param('agentId')!, 'agent_id'));
    if (!key || !sees(c.get('manager'), key)) throw notFound('Agent');
    return key;
  };

  /** The full thread record: the reference's four named fields, and what a builder's preview shows. */
  const threadJson = (thread: ThreadRecord) => {
    const { agent, plan } = thread.key;
    const lastReply = thread.messages.findLast((m) => m.sender.type === 'agent');
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
      welcome_message: thread.welcome ?? plan.welcome ?? deps.agent.welcomeTemplate(),
      followup_suggestions: thread.suggestions ?? lastReply?.followup_suggestions ?? [],
      message_count: thread.messages.length,
      branched_from: thread.branchedFrom
        ? { thread_id: thread.branchedFrom.threadId, interaction_id: thread.branchedFrom.interactionId }
        : null,
    };
  };

  app.get('/threads', (c) => {
    const url = new URL(c.req.url);
    const query = parseListQuery(url, deps.secret);
    const threads: ThreadRecord[] = [];
    for (const key of visibleKeys(c)) for (const thread of key.threads.values()) if (matches(query, thread)) threads.push(thread);
    return c.json(page(query, threads, url, deps.secret));
  });

  app.get('/threads/:threadId', (c) => c.json(threadJson(findThread(c))));

  app.patch('/threads/:threadId', async (c) => {
    const thread = findThread(c);
    const body = await parseBody(c, threadPatchSchema);
    // Omitted fields stay as they are; `null` clears the ones that may be empty.
    if (body.title !== undefined) thread.title = body.title;
    if (body.user_id !== undefined) thread.userId = body.user_id;
    if (body.external_id !== undefined) thread.externalId = body.external_id;
    if (body.welcome_message !== undefined) thread.welcome = body.welcome_message;
    if (body.followup_suggestions !== undefined) thread.suggestions = body.followup_suggestions;
    if (Object.keys(body).length) thread.updatedAt = new Date().toISOString();
    return c.json(threadJson(thread));
  });

  app.get('/threads/:threadId/messages', (c) => c.json(findThread(c).messages));

  app.get('/threads/:threadId/trace', (c) => {
    const thread = findThread(c);
    return c.json({ thread_id: thread.id, traces: [...thread.traces.values()] });
  });

  app.get('/interactions/:interactionId/trace', (c) => {
    const id = pathId(c.req.param('interactionId'), 'interaction_id');
    const thread = store.interaction(id);
    const trace = thread?.traces.get(id);
    if (!thread || !trace || !sees(c.get('manager'), thread.key)) throw notFound('Interaction');
    return c.json(trace);
  });

  app.get('/agents/:agentId', (c) => c.json(agentJson(findAgent(c).agent)));

  // A rename re-publishes the live version with the new name; which version is live stays.
  app.patch('/agents/:agentId', async (c) => {
    const { agent } = findAgent(c);
    const { name } = await parseBody(c, agentPatchSchema);
    agent.name = name;
    publish(
      agent,
      agent.versions.find((v) => v.id === agent.liveVersionId)!,
    );
    return c.json(agentJson(agent));
  });

  app.get('/agents/:agentId/versions', (c) => {
    const { agent } = findAgent(c);
    return c.json({
      results: agent.versions.map((v) => versionJson(agent, v)),
      meta: { has_more: false, after_cursor: null, before_cursor: null },
      links: { next: null, prev: null },
    });
  });

  // Makes the version live: new turns of the agent's threads run on it (a pinned rerun's keep theirs).
  app.post('/agents/:agentId/versions/:versionId/publish', (c) => {
    const { agent } = findAgent(c);
    const version = versionById(agent, pathId(c.req.param('versionId'), 'version_id'));
    if (!version) throw notFound('Agent version');
    publish(agent, version);
    return c.json(versionJson(agent, version));
  });

  return app;
}
