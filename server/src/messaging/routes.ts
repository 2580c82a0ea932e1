import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Message } from '@agent-chat/wire';
import { ApiError, notFound, validationError } from '../http/errors.js';
import { keepKey, keyedTurn, notReceived, readIdempotencyKey, threadTurn } from './idempotency.js';
import type { Caller, Deps } from '../deps.js';
import {
  channelBodySchema,
  channelSchema,
  followupBodySchema,
  rerunBodySchema,
  sendBodySchema,
  type RerunBodyParsed,
  type SendBody,
} from '../http/schemas.js';
import { streamTurn } from './sse.js';
import { versionById, versionByTag, type AgentRecord, type AgentVersion } from '../agents/versions.js';
import { newHexId, type Admission, type ThreadRecord } from '../store/store.js';
import { startTurn, type Turn, type TurnOptions, type TurnResult } from './turn.js';
import { parseBody, pathId } from '../http/validate.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const notResumable = () => new ApiError(409, 'stream.not_resumable', 'There is no turn of this thread to resume for this message.');

const titleFrom = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/** The messaging surface, mounted under `/messaging/v1` behind bearer auth. */
export function messagingRoutes(deps: Deps): Hono {
  const app = new Hono();
  const { store, agent } = deps;

  const paceOf = (caller: Caller): number => caller.key.plan.paceMs ?? deps.paceMs;

  const findThread = (caller: Caller, id: string): ThreadRecord => {
    const thread = store.thread(caller.agentId, id);
    if (!thread) throw notFound('Thread');
    return thread;
  };

  /** The body's thread, or a new one: the service has no separate create-thread call. */
  const threadFor = (caller: Caller, body: SendBody): ThreadRecord =>
    body.thread_id
      ? findThread(caller, body.thread_id)
      : store.createThread(caller.key, { userId: body.user_id, title: titleFrom(body.text) });

  /**
   * A new turn's leave from the key (429 when it has no room: before any thread is made for
   * it) and its thread; the leave is given back when there is no such thread (404).
   */
  const admit = (caller: Caller, body: SendBody): { thread: ThreadRecord; admitted: Admission } => {
    const admitted = store.admitTurn(caller.key);
    try {
      return { thread: threadFor(caller, body), admitted };
    } catch (error) {
      admitted.done();
      throw error;
    }
  };

  const versionOf = (thread: ThreadRecord): AgentVersion => store.versionOf(thread);

  const unwrap = (result: TurnResult): Message => {
    if (result.ok) return result.message;
    if (result.status === 409) throw new ApiError(409, 'conflict', result.message);
    // The agent's own failure (a model that is down or busy) keeps its status and code.
    if (result.code) throw new ApiError(result.status as ContentfulStatusCode, result.code, result.message);
    throw new ApiError(500, 'internal_error', result.message);
  };

  /**
   * The `intakeDelayMs` knob: a request waits before the service takes it, and one whose
   * client went meanwhile leaves nothing behind, as a request lost on its way would.
   */
  const taken = async (c: Context, caller: Caller): Promise<boolean> => {
    const wait = caller.key.plan.intakeDelayMs;
    if (!wait) return true;
    await sleep(wait);
    return !c.req.raw.signal.aborted;
  };
  const gone = (c: Context) => c.body(null, 499 as 200);

  /** A turn for this request's caller; each route says how it differs (pace, faults, version). */
  const start = (
    c: Context,
    thread: ThreadRecord,
    body: Pick<SendBody, 'text' | 'user_id' | 'image_url' | 'agent_variables'>,
    extra: Pick<TurnOptions, 'paceMs' | 'version' | 'admitted'> & Partial<TurnOptions>,
  ): Turn =>
    startTurn({
      store,
      agent,
      origin: new URL(c.req.url).origin,
      key: c.get('caller').key,
      thread,
      text: body.text,
      userId: body.user_id,
      imageUrl: body.image_url,
      variables: body.agent_variables,
      ...extra,
    });

  app.post('/messages', async (c) => {
    const caller = c.get('caller');
    const body = await parseBody(c, sendBodySchema);
    const key = readIdempotencyKey(c.req.header('idempotency-key'));
    if (!(await taken(c, caller))) return gone(c);
    // Once here, the request has arrived: a resume may have spent its key while it was on its
    // way (idempotency.ts), and from now on one that asks by the key finds the turn.
    const keyed = key === undefined ? undefined : keyedTurn(caller.key, key, body);
    if (keyed === null) throw notReceived();
    if (keyed) return c.json({ thread_id: keyed.threadId, message: unwrap(await keyed.result) });
    const { thread, admitted } = admit(caller, body);
    const turn = start(c, thread, body, { version: versionOf(thread), paceMs: null, admitted });
    if (key !== undefined) keepKey(caller.key, key, body, turn);
    // A short think before answering, so a REST client's typing indicator is visible in the demo.
    await sleep(Math.min(paceOf(caller) * 4, 400));
    return c.json({ thread_id: thread.id, message: unwrap(await turn.result) });
  });

  app.post('/messages/stream', async (c) => {
    const caller = c.get('caller');
    const body = await parseBody(c, sendBodySchema);
    const plan = caller.key.plan;
    const lastEventId = c.req.header('last-event-id');
    const key = readIdempotencyKey(c.req.header('idempotency-key'));

    let after = -1;
    if (lastEventId !== undefined) {
      if (!/^\d{1,15}$/.test(lastEventId.trim())) {
        throw validationError([{ message: 'Must be a non-negative integer (the last seq received).', field: 'Last-Event-ID' }]);
      }
      after = Number(lastEventId.trim());
    }
    if (lastEventId === undefined && !(await taken(c, caller))) return gone(c);
    const latest = body.thread_id ? store.thread(caller.agentId, body.thread_id)?.latestTurn : undefined;
    const registered = key === undefined ? undefined : keyedTurn(caller.key, key, body);
    const keyed = registered === undefined && key !== undefined ? threadTurn(latest, key, body) : registered;
    if (keyed === null) throw notReceived();

    let turn: Turn;
    if (keyed) {
      // The key's turn, whoever asks again (a resume, a retry, another page): never a second one.
      if (lastEventId !== undefined && plan.unresumable) throw notResumable();
      turn = keyed;
    } else if (lastEventId !== undefined) {
      // A resume for a key never seen: that request never arrived, and is spent now.
      if (key !== undefined) {
        keepKey(caller.key, key, body, null);
        throw notReceived();
      }
      // Resume attaches to the turn the client lost; it never starts a new one.
      if (!latest || latest.userText !== body.text || !latest.resumes(after) || plan.unresumable) throw notResumable();
      turn = latest;
    } else {
      const { thread, admitted } = admit(caller, body);
      const failNow = plan.errorFrame !== undefined && caller.key.budget.errorFrames > 0;
      if (failNow) caller.key.budget.errorFrames -= 1;
      turn = start(c, thread, body, {
        version: versionOf(thread),
        paceMs: paceOf(caller),
        chunkChars: plan.chunkChars,
        errorFrame: failNow ? plan.errorFrame : undefined,
        admitted,
      });
      if (key !== undefined) keepKey(caller.key, key, body, turn);
    }
    const connection = caller.key.stats.streamConnections;
    caller.key.stats.streamConnections += 1;
    const raw = lastEventId === undefined ? plan.rawTurns?.[caller.key.streamedTurns++] : undefined;
    if (plan.holdStream) {
      // No answer at all until the client gives up (the turn above runs regardless).
      await new Promise<void>((resolve) => c.req.raw.signal.addEventListener('abort', () => resolve(), { once: true }));
      return c.body(null, 499 as 200);
    }
    // The `threadFrameDelayMs` knob: the turn runs, its answer waits.
    if (plan.threadFrameDelayMs) await sleep(plan.threadFrameDelayMs);
    return streamTurn(c, turn, { after, plan, connection, raw });
  });

  app.post('/threads/:threadId/rerun', async (c) => {
    const caller = c.get('caller');
    const sourceId = pathId(c.req.param('threadId'), 'thread_id');
    const body = await parseBody(c, rerunBodySchema);
    const source = findThread(caller, sourceId);
    const pinned = pinnedVersion(caller.key.agent, body);
    const interactionId = body.interaction_id.toLowerCase();
    const at = source.messages.findIndex((m) => m.id === interactionId);
    if (at < 0) throw notFound('Interaction');

    // A branch, not an edit: the new thread gets copies, the source keeps its own history.
    const admitted = store.admitTurn(caller.key);
    // Pinned, the branch keeps running on that version; else on the live one, whichever it is then.
    const branch = store.createThread(caller.key, { userId: body.user_id ?? source.userId, title: source.title, version: pinned });
    branch.branchedFrom = { threadId: source.id, interactionId };
    store.append(branch, ...structuredClone(source.messages.slice(0, at)));
    const turn = start(c, branch, { ...body, user_id: branch.userId }, { version: versionOf(branch), paceMs: null, admitted });
    return c.json({ thread_id: branch.id, message: unwrap(await turn.result) });
  });

  app.get('/threads/:threadId/messages', (c) => {
    const caller = c.get('caller');
    const thread = findThread(caller, pathId(c.req.param('threadId'), 'thread_id'));
    return caller.key.plan.rawTranscript === undefined ? c.json(thread.messages) : c.json(caller.key.plan.rawTranscript as object);
  });

  app.get('/welcome-message', (c) => {
    const plan = c.get('caller').key.plan;
    // The template keeps its {{placeholders}}: this operation has no body to fill them from.
    return c.json({ welcome_message: plan.welcome ?? agent.welcomeTemplate() });
  });

  app.post('/followup-suggestions', async (c) => {
    const plan = c.get('caller').key.plan;
    const body = await parseBody(c, followupBodySchema, {});
    return c.json({ suggestions: plan.suggestions ?? agent.suggestionsFor(body.context) });
  });

  app.post('/channels/:channel/threads', async (c) => {
    const caller = c.get('caller');
    const channel = channelSchema.safeParse(c.req.param('channel'));
    if (!channel.success) throw notFound('Channel');
    const body = await parseBody(c, channelBodySchema);
    let thread: ThreadRecord;
    if (body.thread_id) {
      thread = findThread(caller, body.thread_id);
      // Binding someone else's conversation to your phone would leak it: same 404 as a missing one.
      if (thread.userId !== body.user_id) throw notFound('Thread');
    } else {
      thread = store.createThread(caller.key, { userId: body.user_id, title: null });
    }
    const channelName = channel.data === 'sms' ? 'SMS' : 'WhatsApp';
    const opening: Message = {
      id: newHexId(),
      created_at: new Date().toISOString(),
      text:
        `Hi! This is ${body.agent_display_name ?? 'the Trailhead shop assistant'}. ` +
        `We can continue our conversation here on ${channelName}: just reply to this message.`,
      sender: { type: 'agent' },
      receiver: { type: 'user', id: body.user_id },
      cards: [],
      followup_suggestions: [],
      input_tokens: 0,
      output_tokens: 0,
    };
    store.append(thread, opening);
    thread.channels.push({ channel: channel.data, phoneNumber: body.phone_number, boundAt: opening.created_at! });
    return c.json({
      thread_id: thread.id,
      channel: channel.data,
      phone_number: body.phone_number,
      status: 'sent',
      message: opening,
    });
  });

  return app;
}

/** `version_id` and `version_tag` pin a rerun to one of the agent's versions; when both are given they must agree. */
function pinnedVersion(agent: AgentRecord, body: RerunBodyParsed): AgentVersion | undefined {
  let version: AgentVersion | undefined;
  if (body.version_id) {
    version = versionById(agent, body.version_id);
    if (!version) throw notFound('Agent version');
  }
  if (body.version_tag) {
    const byTag = versionByTag(agent, body.version_tag);
    if (!byTag) throw notFound('Agent version');
    if (version && version !== byTag) {
      throw validationError([{ message: 'Names a different version than version_id.', field: 'version_tag' }]);
    }
    version = byTag;
  }
  return version;
}
