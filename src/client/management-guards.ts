import { warnOnce } from '../warn.js';
import { cutText } from './guards.js';
import { isHexId, isObject } from './types.js';

/**
 * What the management surface sends, checked and bounded where it enters (docs/protocol.md
 * "Management"), in the manner of guards.ts: a field of the wrong type takes its empty
 * value, an item that is not one is left out, and every size a service could grow has a
 * bound here, whatever the service promises. A trace is the service's record of what a turn
 * did: its inputs and outputs are any JSON, shown as text, so they are cut to a budget of
 * values and characters that a render and a screen reader get through at once.
 */

/** Steps kept of one trace (the reference server records at most 64). */
export const MAX_STEPS = 100;
/** Versions kept for the rerun menu. */
export const MAX_VERSIONS = 50;
/** Characters of a name, tag, status or code; of a title; of an error's message. */
const NAME = 200;
const TITLE = 1_000;
const MESSAGE = 2_000;

/** What one JSON value of a step keeps at most: its values (nodes) and characters (of strings and keys). */
export const JSON_BUDGET = { nodes: 500, chars: 8_000, depth: 6 } as const;

export interface TraceError {
  code: string;
  message: string;
}

/**
 * One step of a turn (docs/protocol.md "Traces"). `type` is open: `param`, `intent`,
 * `tool`, `rule`, `model` and `reply` are the reference server's; another is shown as it is.
 */
export interface TraceStep {
  type: string;
  name: string;
  started_at: string | null;
  duration_ms: number | null;
  /** Any JSON, bounded (`JSON_BUDGET`); absent when the step has none. */
  input?: unknown;
  output?: unknown;
  /** A rule's: `fired`, `blocked` or `passed`. */
  outcome?: string;
  error?: TraceError;
}

/** The trace of one interaction (`GET /management/v1/interactions/{id}/trace`). */
export interface Trace {
  interaction_id: string;
  thread_id: string | null;
  version_id: string | null;
  version_tag: string | null;
  /** `running`, `completed`, `failed` or `cancelled` on the reference server. */
  status: string;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  error: TraceError | null;
  steps: TraceStep[];
  /** The service, or this client (past `MAX_STEPS`), left steps out. */
  truncated: boolean;
}

/** An agent version, as the rerun menu offers it. */
export interface AgentVersion {
  id: string;
  tag: string;
  /** The version messaging runs on. */
  live: boolean;
  name: string | null;
}

/** What the preview reads of a thread (`GET`/`PATCH /management/v1/threads/{id}`). */
export interface ThreadRecord {
  id: string;
  title: string | null;
  /** The version its latest turn ran on. */
  version_tag: string | null;
  version_id: string | null;
  agent_id: string | null;
}

const text = (value: unknown, max: number): string | null => (typeof value === 'string' ? cutText(value, max) : null);
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const hexId = (value: unknown): string | null => (isHexId(value) ? value : null);

function traceError(value: unknown): TraceError | null {
  if (!isObject(value)) return null;
  return { code: text(value.code, NAME) ?? '', message: text(value.message, MESSAGE) ?? '' };
}

/**
 * `value` as JSON of a bounded size: strings cut, lists and objects to their first entries
 * with a note of how many were left out, nesting to `JSON_BUDGET.depth`, and the whole to
 * `JSON_BUDGET.nodes` values and `JSON_BUDGET.chars` characters. Keys stay keys (an own
 * `__proto__` included: `fromEntries` defines, never assigns).
 */
export function boundedJson(value: unknown): unknown {
  const left = { nodes: JSON_BUDGET.nodes, chars: JSON_BUDGET.chars };
  const cut = (s: string): string => {
    const kept = cutText(s, Math.max(0, left.chars));
    left.chars -= kept.length;
    return kept.length < s.length ? `${kept}… (${s.length} characters)` : kept;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (--left.nodes < 0 || left.chars <= 0) return '…';
    if (typeof v === 'string') return cut(v);
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'boolean' || v === null) return v;
    if (Array.isArray(v)) {
      if (depth >= JSON_BUDGET.depth) return `[${v.length} items]`;
      const items: unknown[] = [];
      for (const item of v) {
        if (left.nodes <= 0 || left.chars <= 0) break;
        items.push(walk(item, depth + 1));
      }
      if (items.length < v.length) items.push(`… ${v.length - items.length} more`);
      return items;
    }
    if (!isObject(v)) return null;
    if (depth >= JSON_BUDGET.depth) return '{…}';
    const entries: Array<[string, unknown]> = [];
    const keys = Object.keys(v);
    for (const key of keys) {
      if (left.nodes <= 0 || left.chars <= 0) break;
      entries.push([cut(key), walk(v[key], depth + 1)]);
    }
    if (entries.length < keys.length) entries.push(['…', `${keys.length - entries.length} more`]);
    return Object.fromEntries(entries);
  };
  return walk(value, 0);
}

/** One step, or null for what is not an object. */
export function readStep(value: unknown): TraceStep | null {
  if (!isObject(value)) return null;
  const step: TraceStep = {
    type: text(value.type, NAME) ?? '',
    name: text(value.name, NAME) ?? '',
    started_at: text(value.started_at, NAME),
    duration_ms: number(value.duration_ms),
  };
  if (value.input !== undefined) step.input = boundedJson(value.input);
  if (value.output !== undefined) step.output = boundedJson(value.output);
  const outcome = text(value.outcome, NAME);
  if (outcome !== null) step.outcome = outcome;
  const error = traceError(value.error);
  if (error) step.error = error;
  return step;
}

/** A trace, or null when it is not one (not an object, or without a list of steps). */
export function readTrace(value: unknown): Trace | null {
  if (!isObject(value) || !Array.isArray(value.steps)) return null;
  const steps: TraceStep[] = [];
  for (const item of value.steps) {
    if (steps.length === MAX_STEPS) break;
    const step = readStep(item);
    if (step) steps.push(step);
    else warnOnce('a trace carries a step that is not an object; it is left out.');
  }
  return {
    interaction_id: text(value.interaction_id, NAME) ?? '',
    thread_id: hexId(value.thread_id),
    version_id: hexId(value.version_id),
    version_tag: text(value.version_tag, NAME),
    status: text(value.status, NAME) ?? '',
    started_at: text(value.started_at, NAME),
    ended_at: text(value.ended_at, NAME),
    duration_ms: number(value.duration_ms),
    error: traceError(value.error),
    steps,
    truncated: value.truncated === true || value.steps.length > steps.length,
  };
}

/**
 * The versions of a page of them (`GET /management/v1/agents/{id}/versions`), the first
 * `MAX_VERSIONS` with an id and a tag; null when it is not a page.
 */
export function readVersions(value: unknown): AgentVersion[] | null {
  if (!isObject(value) || !Array.isArray(value.results)) return null;
  const versions: AgentVersion[] = [];
  for (const item of value.results) {
    if (versions.length === MAX_VERSIONS) break;
    const tag = isObject(item) ? text(item.tag, NAME)?.trim() : null;
    if (isObject(item) && isHexId(item.id) && tag)
      versions.push({ id: item.id, tag, live: item.live === true, name: text(item.name, NAME) });
    else warnOnce('an agent version without an id or a tag is left out of the rerun menu.');
  }
  return versions;
}

/** A thread record, or null when it names no thread. */
export function readThread(value: unknown): ThreadRecord | null {
  if (!isObject(value) || !isHexId(value.id)) return null;
  return {
    id: value.id,
    title: text(value.title, TITLE),
    version_tag: text(value.version_tag, NAME),
    version_id: hexId(value.version_id),
    agent_id: hexId(value.agent_id),
  };
}
