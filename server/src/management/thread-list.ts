import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ErrorDetail } from '@agent-chat/wire';
import { ApiError } from '../http/errors.js';
import { HEX_ID } from '../http/schemas.js';
import type { ThreadRecord } from '../store/records.js';
import type { ThreadQuery, ThreadStore } from '../store/threads.js';
import type { RuleOutcome } from '../agents/trace.js';

/**
 * `GET /management/v1/threads`: its query read strictly, its filters, its order and its
 * cursors (docs/protocol.md "Management: listing threads"). Values OR within one
 * parameter, AND across parameters. A malformed or out-of-range parameter, an unknown one,
 * a repeated one that may not repeat, or a cursor of another query: 400 with one detail
 * per parameter.
 */

const RULE_OUTCOMES: readonly RuleOutcome[] = ['fired', 'blocked', 'passed'];
const SORTS = ['created_at', 'updated_at'] as const;
type SortBy = (typeof SORTS)[number];

interface ParamFilter {
  key: string;
  op: ':' | '>' | '<' | '>=' | '<=';
  /** `null`: `key:*`, any value. */
  value: string | number | null;
}

export interface ListQuery {
  projectId?: string;
  agentIds?: Set<string>;
  userId?: string;
  externalId?: string;
  /** Milliseconds: one timestamp is `from`, two a range (both ends included). */
  created?: { from: number; to?: number };
  tools?: string[];
  rules?: Array<{ code: string; outcome?: RuleOutcome }>;
  params?: ParamFilter[];
  size: number;
  after?: Position;
  before?: Position;
  sortBy: SortBy;
  order: 'asc' | 'desc';
  /** The filters and order a cursor was made for: one of another query is refused. */
  fingerprint: string;
}

interface Position {
  value: string;
  id: string;
}

const REPEATABLE = new Set(['agent_id', 'created', 'tool', 'rule', 'param']);
const SINGLE = new Set(['project_id', 'user_id', 'external_id', 'page[size]', 'page[after]', 'page[before]', 'sort_by', 'sort_order']);
/** Values one repeatable parameter may have: each is a pass over the threads. */
const MAX_VALUES = 20;
const CODE = /^[\w.-]{1,128}$/;
/**
 * An RFC 3339 timestamp's time in ms, or NaN: one that names a day or hour that does not
 * exist (2025-02-30, hour 24, minute 60, an offset past 23:59) is not one, though
 * `Date.parse` would roll it over into another.
 */
export function rfc3339(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(value);
  if (!m) return NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return NaN;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return NaN;
  return Date.parse(value.replace(' ', 'T'));
}

const PARAM = /^([\w.-]{1,128})(>=|<=|>|<|:)(.{1,256})$/s;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

function fingerprintOf(url: URL): string {
  const filters = [...url.searchParams].filter(([name]) => !name.startsWith('page[')).sort(([a, x], [b, y]) => (a + x < b + y ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
}

const sign = (secret: Uint8Array, payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);

/** An opaque cursor: where the page ended, for which query, signed so it cannot be edited. */
function cursor(secret: Uint8Array, query: ListQuery, position: Position): string {
  const payload = Buffer.from(JSON.stringify({ v: position.value, i: position.id, f: query.fingerprint })).toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

function readCursor(secret: Uint8Array, raw: string, fingerprint: string): Position | string {
  const [payload, mac, extra] = raw.split('.');
  if (!payload || !mac || extra !== undefined || raw.length > 1024) return 'Not a cursor this server made.';
  const given = Buffer.from(mac, 'base64url');
  const expected = sign(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'Not a cursor this server made (or it was changed).';
  let decoded: { v?: unknown; i?: unknown; f?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof decoded;
  } catch {
    return 'Not a cursor this server made.';
  }
  if (typeof decoded.v !== 'string' || typeof decoded.i !== 'string') return 'Not a cursor this server made.';
  if (decoded.f !== fingerprint) return 'This cursor belongs to a query with other filters or another order.';
  return { value: decoded.v, id: decoded.i };
}

/** The query of a list request, or a 400 naming every parameter that is wrong. */
export function parseListQuery(url: URL, secret: Uint8Array): ListQuery {
  const details: ErrorDetail[] = [];
  const wrong = (field: string, message: string) => details.push({ field, message });
  const all = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) all.set(name, [...(all.get(name) ?? []), value]);
  for (const [name, values] of all) {
    if (values.some((v) => v.includes('\0'))) wrong(name, 'Must not contain NUL characters.');
    else if (!REPEATABLE.has(name) && !SINGLE.has(name)) wrong(name, 'Unknown parameter.');
    else if (SINGLE.has(name) && values.length > 1) wrong(name, 'Given more than once; it takes one value.');
    else if (values.length > MAX_VALUES) wrong(name, `At most ${MAX_VALUES} values.`);
  }
  const one = (name: string) => (all.get(name)?.length === 1 ? all.get(name)![0] : undefined);
  const many = (name: string) => (all.get(name)?.length ? all.get(name)! : undefined);
  const fingerprint = fingerprintOf(url);
  const query: ListQuery = { size: DEFAULT_PAGE_SIZE, sortBy: 'created_at', order: 'desc', fingerprint };

  const projectId = one('project_id');
  if (projectId !== undefined) {
    if (HEX_ID.test(projectId)) query.projectId = projectId.toLowerCase();
    else wrong('project_id', 'Must be 24 hexadecimal characters.');
  }
  const agentIds = many('agent_id');
  if (agentIds) {
    for (const id of agentIds) if (!HEX_ID.test(id)) wrong('agent_id', `"${id.slice(0, 40)}" is not 24 hexadecimal characters.`);
    query.agentIds = new Set(agentIds.map((id) => id.toLowerCase()));
  }
  for (const [name, field] of [
    ['user_id', 'userId'],
    ['external_id', 'externalId'],
  ] as const) {
    const value = one(name);
    if (value === undefined) continue;
    if (value.length < 1 || value.length > 256) wrong(name, 'Must be 1 to 256 characters.');
    else query[field] = value;
  }

  const created = many('created');
  if (created) {
    const times = created.map(rfc3339);
    if (created.length > 2) wrong('created', 'One timestamp, or exactly two for a range.');
    else if (times.some((t) => Number.isNaN(t))) wrong('created', 'Must be RFC 3339 timestamps, e.g. 2025-03-01T00:00:00Z.');
    else if (times.length === 2 && times[0]! > times[1]!) wrong('created', 'A range starts before it ends.');
    else query.created = { from: times[0]!, to: times[1] };
  }

  const tools = many('tool');
  if (tools) {
    for (const tool of tools) if (!CODE.test(tool)) wrong('tool', `"${tool.slice(0, 40)}" is not a tool code (letters, digits, _ . -).`);
    query.tools = tools;
  }
  const rules = many('rule');
  if (rules) {
    query.rules = [];
    for (const rule of rules) {
      const [code, outcome, extra] = rule.split(':');
      if (!code || !CODE.test(code) || extra !== undefined) wrong('rule', `"${rule.slice(0, 40)}" is not \`code\` or \`code:outcome\`.`);
      else if (outcome !== undefined && !RULE_OUTCOMES.includes(outcome as RuleOutcome))
        wrong('rule', `The outcome of "${rule.slice(0, 40)}" is one of fired, blocked, passed.`);
      else query.rules.push({ code, outcome: outcome as RuleOutcome | undefined });
    }
  }
  const params = many('param');
  if (params) {
    query.params = [];
    for (const param of params) {
      const match = PARAM.exec(param);
      const op = match?.[2] as ParamFilter['op'] | undefined;
      if (!match || !op) {
        wrong('param', `"${param.slice(0, 40)}" is not key:value, key:*, or key followed by >, <, >=, <= and a number.`);
      } else if (op === ':') {
        query.params.push({ key: match[1]!, op, value: match[3] === '*' ? null : match[3]! });
      } else if (!/^-?\d+(\.\d+)?$/.test(match[3]!)) {
        wrong('param', `"${param.slice(0, 40)}" compares with a number.`);
      } else {
        query.params.push({ key: match[1]!, op, value: Number(match[3]) });
      }
    }
  }

  const size = one('page[size]');
  if (size !== undefined) {
    if (!/^\d{1,4}$/.test(size) || Number(size) < 1 || Number(size) > MAX_PAGE_SIZE)
      wrong('page[size]', `An integer from 1 to ${MAX_PAGE_SIZE}.`);
    else query.size = Number(size);
  }
  const sortBy = one('sort_by');
  if (sortBy !== undefined) {
    if ((SORTS as readonly string[]).includes(sortBy)) query.sortBy = sortBy as SortBy;
    else wrong('sort_by', `One of ${SORTS.join(', ')}.`);
  }
  const order = one('sort_order');
  if (order !== undefined) {
    if (order === 'asc' || order === 'desc') query.order = order;
    else wrong('sort_order', 'asc or desc.');
  }
  const after = one('page[after]');
  const before = one('page[before]');
  if (after !== undefined && before !== undefined) {
    wrong('page[before]', 'Give page[after] or page[before], not both.');
  } else {
    for (const [name, raw] of [
      ['page[after]', after],
      ['page[before]', before],
    ] as const) {
      if (raw === undefined) continue;
      const position = readCursor(secret, raw, fingerprint);
      if (typeof position === 'string') wrong(name, position);
      else query[name === 'page[after]' ? 'after' : 'before'] = position;
    }
  }
  if (details.length) throw new ApiError(400, 'validation_error', 'The query is not valid.', details);
  return query;
}

/** The list item of the reference (id, title, created_at, version_tag), with the agent and the last change. */
export const listItem = (thread: ThreadRecord) => ({
  id: thread.id,
  title: thread.title,
  created_at: thread.createdAt,
  updated_at: thread.updatedAt,
  version_tag: thread.versionTag,
  agent_id: thread.agentId,
});

const positionOf = (query: ListQuery, thread: ThreadRecord): Position => ({
  value: query.sortBy === 'created_at' ? thread.createdAt : thread.updatedAt,
  id: thread.id,
});

/**
 * One page of the matching threads in the query's order (ties by id), with the page
 * envelope: `has_more` says whether more lie in the direction the page was asked for (after
 * it, or before it for `page[before]`); each cursor is set when there is a page that way.
 * `visibleAgents`: the agents the caller may see (undefined: all).
 */
export async function page(
  threads: ThreadStore,
  query: ListQuery,
  visibleAgents: readonly string[] | undefined,
  url: URL,
  secret: Uint8Array,
) {
  const q: ThreadQuery = {
    visibleAgents,
    projectId: query.projectId,
    agentIds: query.agentIds && [...query.agentIds],
    userId: query.userId,
    externalId: query.externalId,
    created: query.created && {
      from: new Date(query.created.from).toISOString(),
      to: query.created.to === undefined ? undefined : new Date(query.created.to).toISOString(),
    },
    tools: query.tools,
    rules: query.rules,
    params: query.params,
    sortBy: query.sortBy,
    order: query.order,
    after: query.after,
    before: query.before,
    // One more than the page: whether there are more that way.
    limit: query.size + 1,
  };
  const found = await threads.list(q);
  const more = found.length > query.size;
  const results = query.before ? found.slice(found.length - Math.min(found.length, query.size)) : found.slice(0, query.size);
  const first = results[0];
  const last = results.at(-1);
  // Past the page the way it was asked for: `more`; the other way: a look beyond its other end.
  const later = !!last && (query.before ? await threads.exists(q, 'after', positionOf(query, last)) : more);
  const earlier = !!first && (query.before ? more : query.after ? await threads.exists(q, 'before', positionOf(query, first)) : false);
  const afterCursor = later ? cursor(secret, query, positionOf(query, last!)) : null;
  const beforeCursor = earlier ? cursor(secret, query, positionOf(query, first!)) : null;
  const link = (name: 'page[after]' | 'page[before]', value: string | null) => {
    if (value === null) return null;
    const next = new URL(url);
    next.searchParams.delete('page[after]');
    next.searchParams.delete('page[before]');
    next.searchParams.set(name, value);
    return next.href;
  };
  return {
    results: results.map(listItem),
    meta: { has_more: query.before ? earlier : later, after_cursor: afterCursor, before_cursor: beforeCursor },
    links: { next: link('page[after]', afterCursor), prev: link('page[before]', beforeCursor) },
  };
}
