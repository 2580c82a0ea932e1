import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Message } from '@agent-chat/wire';
import { ApiError, notFound, validationError } from '../http/errors.js';
import { claimKey, keepKey, notReceived, readIdempotencyKey, releaseKey, threadTurn } from './idempotency.js';
import { actsFor, agentOf, createThread, opens, versionFor, welcomeOf } from './threads.js';
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
import { liveVersion, versionById, versionByTag } from '../agents/versions.js';
import { newHexId } from '../http/ids.js';
import type { Admission } from '../store/budgets.js';
import type { AgentRecord, AgentVersion, ThreadRecord } from '../store/records.js';
import { findTurn, startTurn, type FollowableTurn, type TurnOptions, type TurnResult } from './turn.js';
import { parseBody, pathId } from '../http/validate.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a new conversation's turn may be resumed without its thread: a stored turn's life (docs/protocol.md). */
export const RESUME_WINDOW_MS = 15 * 60_000;

const notResumable = () => new ApiError(409, 'stream.not_resumable', 'There is no turn of this thread to resume for this message.');

const titleFrom = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/** The messaging surface, mounted under `/messaging/v1` behind bearer auth. */
export function messagingRoutes(deps: Deps): Hono {
  const app = new Hono();
  const { stores } = deps;

  /**
   * A thread the caller may open, touched (its key forgets it last); another agent's or
   * another visitor's is reported as missing (threads.ts `opens`).
   */
  const threadOf = async (caller: Caller, id: string): Promise<ThreadRecord | undefined> => {
    const thread = await stores.threads.get(id.toLowerCase(), { touch: Date.now() });
    return thread && opens(thread, caller) ? thread : undefined;
  };

  const findThread = async (caller: Caller, id: string): Promise<ThreadRecord> => {
    const thread = await threadOf(caller, id);
    if (!thread) throw notFound('Thread');
    return thread;
  };

  /** The body's thread, or a new one: the service has no separate create-thread call. */
  const threadFor = async (caller: Caller, body: SendBody): Promise<ThreadRecord> =>
    body.thread_id
      ? findThread(caller, body.thread_id)
      : createThread(deps, caller.key, { userId: body.user_id, visitor: caller.visitor, title: titleFrom(body.text) });

  /**
   * A new turn's leave from the key (429 when it has no room: before any thread is made for
   * it) and its thread; the leave is given back when there is no such thread (404).
   */
  const admit = async (caller: Caller, body: SendBody): Promise<{ thread: ThreadRecord; admitted: Admission }> => {
    const admitted = await deps.budgets.admitTurn(caller.key);
    try {
      return { thread: await threadFor(caller, body), admitted };
    } catch (error) {
      admitted.done();
      throw error;
    }
  };

  const versionOf = (thread: ThreadRecord): Promise<AgentVersion> => versionFor(deps, thread);

  /**
   * What a request with an Idempotency-Key decides (join a turn, refuse, or start one and
   * keep the key), one request of a key at a time in this process: a resume that arrives while
   * the first try is starting its turn waits for it, rather than finding no turn and spending
   * the key under a turn that then runs.
   */
  const deciding = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(caller: Caller, key: string | undefined, decide: () => Promise<T>): Promise<T> => {
    if (key === undefined) return decide();
    const name = `${caller.key.key}\n${key}`;
    const run = (deciding.get(name) ?? Promise.resolve()).catch(() => {}).then(decide);
    const last = run.catch(() => {});
    deciding.set(name, last);
    void last.then(() => {
      if (deciding.get(name) === last) deciding.delete(name);
    });
    return run;
  };

  /** A turn joined by its key, if its thread is one the caller may open: else that thread is missing. */
  const openable = async (caller: Caller, turn: FollowableTurn): Promise<FollowableTurn> => {
    if (!(await threadOf(caller, turn.threadId))) throw notFound('Thread');
    return turn;
  };

  /**
   * Starts the turn of a request that holds its key's claim (`claimKey`); refused (no room,
   * no such thread), it lets go of the claim, so that a later try decides. Once a turn
   * started, the claim is the turn's (`keepKey`), whatever fails after.
   */
  const settling = async <T>(caller: Caller, key: string | undefined, decide: () => Promise<T>): Promise<T> => {
    try {
      return await decide();
    } catch (error) {
      if (key !== undefined) await releaseKey(deps, caller.key, key);
      throw error;
    }
  };

  /**
   * The turn a new conversation's stream started, for the same request sent again without
   * the thread it made: the newest turn in RESUME_WINDOW_MS that opened a thread for this
   * text and user, asked with this token (docs/protocol.md "Stream resume").
   */
  const openedTurn = async (caller: Caller, body: SendBody): Promise<FollowableTurn | undefined> => {
    const record = await stores.turns.opened({
      key: caller.key.key,
      caller: caller.session,
      userId: body.user_id,
      text: body.text,
      since: new Date(Date.now() - RESUME_WINDOW_MS).toISOString(),
    });
    return findTurn(deps, record?.id);
  };

  const unwrap = (result: TurnResult): Message => {
    if (result.ok) return result.message;
    if (result.status === 409) throw new ApiError(409, 'conflict', result.message);
    // The agent's own failure (a model that is down or busy) keeps its status and code.
    if (result.code)
      throw new ApiError(
        result.status as ContentfulStatusCode,
        result.code,
        result.message,
        null,
        result.retryAfter != null ? { 'Retry-After': String(result.retryAfter) } : {},
      );
    throw new ApiError(500, 'internal_error', result.message);
  };

  /** A turn for this request's caller; each route says how it differs (pace, faults, version). */
  const start = (
    c: Context,
    thread: ThreadRecord,
    body: Pick<SendBody, 'text' | 'user_id' | 'image_url' | 'agent_variables'>,
    extra: Pick<TurnOptions, 'streaming' | 'version' | 'admitted'> & Partial<TurnOptions>,
  ) =>
    startTurn(deps, {
      origin: new URL(c.req.url).origin,
      requestId: c.get('requestId'),
      caller: c.get('caller').session,
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
    actsFor(caller.visitor, body.user_id);
    const key = readIdempotencyKey(c.req.header('idempotency-key'));
    // Once here, the request has arrived: a resume may have spent its key while it was on its
    // way (idempotency.ts), and from now on one that asks by the key finds the turn.
    const decided = await oneAtATime(caller, key, async () => {
      const keyed = key === undefined ? undefined : await claimKey(deps, caller.key, key, body);
      if (keyed === null) throw notReceived();
      // The key's turn, if its thread is one this caller may open (another visitor's is missing).
      if (keyed) return { joined: await openable(caller, keyed), thread: undefined, turn: undefined };
      const { thread, turn } = await settling(caller, key, async () => {
        const { thread, admitted } = await admit(caller, body);
        return {
          thread,
          turn: await start(c, thread, body, { version: await versionOf(thread), streaming: false, admitted, idempotencyKey: key }),
        };
      });
      if (key !== undefined) await keepKey(deps, caller.key, key, body, turn);
      return { joined: undefined, thread, turn };
    });
    if (decided.joined) return c.json({ thread_id: decided.joined.threadId, message: unwrap(await decided.joined.result) });
    const { thread, turn } = decided;
    // A short think before answering, so a REST client's typing indicator shows (at a paced agent's pace).
    await sleep(Math.min((deps.agentFor(caller.key).paceMs ?? 0) * 4, 400));
    return c.json({ thread_id: thread.id, message: unwrap(await turn.result) });
  });

  app.post('/messages/stream', async (c) => {
    const caller = c.get('caller');
    const body = await parseBody(c, sendBodySchema);
    actsFor(caller.visitor, body.user_id);
    const lastEventId = c.req.header('last-event-id');
    const key = readIdempotencyKey(c.req.header('idempotency-key'));

    let after = -1;
    if (lastEventId !== undefined) {
      if (!/^\d{1,15}$/.test(lastEventId.trim())) {
        throw validationError([{ message: 'Must be a non-negative integer (the last seq received).', field: 'Last-Event-ID' }]);
      }
      after = Number(lastEventId.trim());
    }
    const turn: FollowableTurn = await oneAtATime(caller, key, async () => {
      const named = body.thread_id ? await threadOf(caller, body.thread_id) : undefined;
      const latest = await findTurn(deps, named?.latestTurn);
      const registered = key === undefined ? undefined : await claimKey(deps, caller.key, key, body);
      // Unregistered, a key may still be its thread's latest turn's (pushed out of the stores).
      const keyed = registered === undefined && key !== undefined ? threadTurn(latest, key, body) : registered;
      if (keyed === null) throw notReceived();

      if (keyed) {
        // The key's turn, whoever asks again (a resume, a retry, another page): never a second one.
        if (registered === undefined && key !== undefined) await releaseKey(deps, caller.key, key);
        return openable(caller, keyed);
      } else if (lastEventId !== undefined) {
        // A resume for a key never seen: that request never arrived, and is spent now.
        if (key !== undefined) {
          await keepKey(deps, caller.key, key, body, null);
          throw notReceived();
        }
        // A new conversation's stream sent again as it was (the reference's rule 3, literally:
        // no thread, no key): its turn is the newest this caller's question opened, lately.
        const lost = body.thread_id ? latest : await openedTurn(caller, body);
        // Resume attaches to the turn the client lost; it never starts a new one.
        // The body is the question: its text and its user must be the turn's.
        if (!lost || lost.userText !== body.text || lost.userId !== body.user_id || !lost.resumes(after)) throw notResumable();
        return lost;
      } else {
        const turn = await settling(caller, key, async () => {
          const { thread, admitted } = await admit(caller, body);
          return start(c, thread, body, {
            version: await versionOf(thread),
            openedThread: !body.thread_id,
            streaming: true,
            admitted,
            idempotencyKey: key,
          });
        });
        if (key !== undefined) await keepKey(deps, caller.key, key, body, turn);
        return turn;
      }
    });
    return streamTurn(c, turn, after, deps.taps.stream(c, caller.key, lastEventId !== undefined), deps.heartbeatMs);
  });

  app.post('/threads/:threadId/rerun', async (c) => {
    const caller = c.get('caller');
    const sourceId = pathId(c.req.param('threadId'), 'thread_id');
    const body = await parseBody(c, rerunBodySchema);
    actsFor(caller.visitor, body.user_id);
    const source = await findThread(caller, sourceId);
    const pinned = pinnedVersion(await agentOf(deps, caller.agentId), body);
    const interactionId = body.interaction_id.toLowerCase();
    const messages = await stores.threads.messages(source.id);
    const at = messages.findIndex((m) => m.id === interactionId);
    if (at < 0) throw notFound('Interaction');

    // A branch, not an edit: the new thread gets copies, the source keeps its own history.
    const admitted = await deps.budgets.admitTurn(caller.key);
    let branch: ThreadRecord;
    try {
      // Pinned, the branch keeps running on that version; else on the live one, whichever it is then.
      branch = await createThread(deps, caller.key, {
        // A visitor's branch is theirs; a login session's keeps the source's visitor.
        userId: body.user_id ?? caller.visitor ?? source.userId,
        visitor: caller.visitor ?? source.visitor ?? undefined,
        title: source.title,
        version: pinned,
        branchedFrom: { threadId: source.id, interactionId },
      });
      await stores.threads.append(branch.id, messages.slice(0, at), branch.createdAt);
    } catch (error) {
      admitted.done();
      throw error;
    }
    const turn = await start(
      c,
      branch,
      { ...body, user_id: branch.userId },
      { version: await versionOf(branch), streaming: false, admitted },
    );
    return c.json({ thread_id: branch.id, message: unwrap(await turn.result) });
  });

  app.get('/threads/:threadId/messages', async (c) => {
    const caller = c.get('caller');
    const thread = await findThread(caller, pathId(c.req.param('threadId'), 'thread_id'));
    return c.json(await stores.threads.messages(thread.id));
  });

  app.get('/welcome-message', async (c) => {
    // The template keeps its {{placeholders}}: this operation has no body to fill them from.
    return c.json({ welcome_message: await welcomeOf(deps, c.get('caller').key) });
  });

  app.post('/followup-suggestions', async (c) => {
    const body = await parseBody(c, followupBodySchema, {});
    const { key } = c.get('caller');
    // The live version's starter suggestions, when it has some; else what the agent suggests.
    const starters = liveVersion(await agentOf(deps, key.agentId)).settings.suggestions;
    return c.json({ suggestions: starters ?? deps.agentFor(key).suggestionsFor(body.context) });
  });

  app.post('/channels/:channel/threads', async (c) => {
    const caller = c.get('caller');
    const channel = channelSchema.safeParse(c.req.param('channel'));
    if (!channel.success) throw notFound('Channel');
    const body = await parseBody(c, channelBodySchema);
    actsFor(caller.visitor, body.user_id);
    let thread: ThreadRecord;
    if (body.thread_id) {
      thread = await findThread(caller, body.thread_id);
      // Binding someone else's conversation to your phone would leak it: same 404 as a missing one.
      if (thread.userId !== body.user_id) throw notFound('Thread');
    } else {
      thread = await createThread(deps, caller.key, { userId: body.user_id, visitor: caller.visitor, title: null });
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
    await stores.threads.append(thread.id, [opening], opening.created_at!);
    await stores.threads.update(thread.id, {
      channels: [...thread.channels, { channel: channel.data, phoneNumber: body.phone_number, boundAt: opening.created_at! }],
    });
    await deps.budgets.settle(caller.key, thread.id);
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
