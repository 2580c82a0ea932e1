/**
 * The host page's configuration, checked where it enters: every attribute and property the
 * element reads goes through here before anything uses it. A bad value never throws and
 * never blanks the UI: it is reported (the element warns once per problem) and falls back
 * to its default. Problems that leave nothing to talk to (no service, no credential) keep
 * the conversation from starting; the others only cost the setting.
 */
import { REPLY_LENGTH, isHexId, isObject, type AgentVariables } from '../client/types.js';
import type { ChatConfig } from './types.js';
import { warnOnce } from '../warn.js';
import type { PersistMode } from './storage.js';

export type Transport = 'sse' | 'rest' | 'websocket';
export type Mode = 'inline' | 'launcher';
export type Theme = 'light' | 'dark' | 'auto';
/** Where links in agent text open (attribute `link-target`). */
export type LinkTarget = 'blank' | 'auto';

/**
 * The element's properties that make up the conversation's configuration: a change of any
 * of them is read again here (and may reload the conversation). The one list: the element
 * and the panel watch these keys (typed against the element's own properties), and what
 * `readConfig` takes is derived from it.
 */
export const CONFIG_KEYS = [
  'baseUrl',
  'publishableKey',
  'accessToken',
  'tokenProvider',
  'userId',
  'threadIdAttribute',
  'transport',
  'agentVariables',
  'persist',
  'suggestionContext',
  'versionId',
  'versionTag',
  'maxReplyLength',
] as const;

/** What the element holds for each configuration key, as a host may have set it: anything at all. */
export type ConfigInput = { readonly [K in (typeof CONFIG_KEYS)[number]]?: unknown };

export interface CheckedConfig {
  /** Null when there is nothing to talk to (no service address or no credential). */
  config: ChatConfig | null;
  problems: string[];
  /** What is required and absent (the service address, a credential), not wrong: it may still be on its way. */
  missing: string[];
}

/**
 * Runs a check and warns once per problem it reports: a bad setting takes its default,
 * and the console says why. `reported((p) => hook('uploadImage', value, p))`.
 */
export function reported<T>(check: (problems: string[]) => T): T {
  const problems: string[] = [];
  const value = check(problems);
  problems.forEach((problem) => warnOnce(problem));
  return value;
}

/** One of `allowed`, or the default (the first) with a problem. */
export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], problems: string[]): T {
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  problems.push(`${name} ${describe(value)} is not one of ${allowed.join(', ')}; using ${allowed[0]}`);
  return allowed[0]!;
}

/** A string setting: non-strings are reported and read as empty. */
export function text(name: string, value: unknown, problems: string[]): string {
  if (value == null) return '';
  if (typeof value === 'string') return value.trim();
  problems.push(`${name} must be a string, not ${describe(value)}`);
  return '';
}

/** A function setting (hooks such as `tokenProvider`): anything else is reported and ignored. */
export function hook<F extends (...args: never[]) => unknown>(name: string, value: unknown, problems: string[]): F | undefined {
  if (value == null) return undefined;
  if (typeof value === 'function') return value as F;
  problems.push(`${name} must be a function, not ${describe(value)}`);
  return undefined;
}

/** A plain-object setting (`strings`, `suggestionContext`): anything else is reported and ignored. */
export function record(name: string, value: unknown, problems: string[]): Record<string, unknown> | undefined {
  if (value == null) return undefined;
  if (isObject(value)) return value;
  problems.push(`${name} must be an object, not ${describe(value)}`);
  return undefined;
}

/**
 * `agent-variables` / `agentVariables`: `{static?: object, dynamic?: object}`, from JSON
 * text or an object. A part that is not an object is dropped; a value that cannot be sent
 * as JSON (a cycle, nesting too deep) is dropped whole.
 */
export function readAgentVariables(value: unknown, problems: string[]): AgentVariables | undefined {
  if (value == null || value === '') return undefined;
  if (value instanceof Error) {
    problems.push(value.message);
    return undefined;
  }
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      problems.push('agent-variables is not valid JSON');
      return undefined;
    }
  }
  if (!isObject(parsed)) {
    problems.push('agent-variables must be an object like {"static": {...}, "dynamic": {...}}');
    return undefined;
  }
  const out: AgentVariables = {};
  for (const part of ['static', 'dynamic'] as const) {
    const v = parsed[part];
    if (v === undefined) continue;
    if (isObject(v)) out[part] = v;
    else problems.push(`agent-variables.${part} must be an object, not ${describe(v)}; it is left out`);
  }
  let json = '';
  try {
    // The depth first: Chromium serialises 300,000 levels that Firefox cannot.
    if (!deeperThan(out, VARIABLE_LIMITS.depth)) json = JSON.stringify(out);
  } catch {
    problems.push('agent-variables cannot be sent as JSON (a cycle, or a value JSON cannot hold); it is left out');
    return undefined;
  }
  if (!json) {
    problems.push(`agent-variables cannot be sent as JSON (nested deeper than ${VARIABLE_LIMITS.depth}); it is left out`);
    return undefined;
  }
  if (json.length > VARIABLE_LIMITS.chars) {
    problems.push(`agent-variables is larger than ${VARIABLE_LIMITS.chars / 1024} KB as JSON; it is left out`);
    return undefined;
  }
  // A copy: what was checked is what goes out, whatever the host does to its object later.
  return JSON.parse(json) as AgentVariables;
}

/**
 * What `agent_variables` may be: it goes with every message, and a browser may serialise
 * what another cannot (Chromium walks 300,000 levels, Firefox throws at a few thousand).
 */
export const VARIABLE_LIMITS = { depth: 32, chars: 32 * 1024 } as const;

/** Whether `root` nests objects deeper than `max`, checked without recursion (cycles end the walk). */
function deeperThan(root: unknown, max: number): boolean {
  const seen = new Set<object>();
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    if (depth > max) return true;
    seen.add(value);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A developer's own machine: configuration problems show in full there, whatever `debug`
 * says, and a service may be reached over plain http.
 */
export function isLocalHost(hostname: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$|\.localhost$/.test(hostname);
}

const TRANSPORTS = ['sse', 'rest', 'websocket'] as const;
const PERSIST = ['local', 'session', 'none'] as const;

/** The conversation's configuration from the element's attributes and properties. */
export function readConfig(input: ConfigInput): CheckedConfig {
  const problems: string[] = [];
  const missing: string[] = [];
  const rawBase = text('base-url', input.baseUrl, problems);
  let baseUrl: string | null = null;
  if (!input.baseUrl) missing.push('base-url is required');
  else if (rawBase) {
    try {
      const url = new URL(rawBase, location.href);
      // Tokens and every message go there: https, or http to this machine (a local service).
      if (url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHost(url.hostname))) baseUrl = url.href.replace(/\/+$/, '');
      else problems.push(`base-url "${rawBase}" must be an https address (http only on localhost)`);
    } catch {
      problems.push(`base-url "${rawBase}" is not a URL`);
    }
  }
  const publishableKey = text('publishable-key', input.publishableKey, problems);
  const accessToken = text('access-token', input.accessToken, problems);
  const tokenProvider = hook<() => Promise<string>>('tokenProvider', input.tokenProvider, problems);
  const credential = !!(publishableKey || accessToken || tokenProvider);
  if (!credential) {
    const absent = !(input.publishableKey || input.accessToken || input.tokenProvider);
    (absent ? missing : problems).push('one of publishable-key, access-token or tokenProvider is required');
  }

  const transport = oneOf('transport', input.transport, TRANSPORTS, problems);
  const persist: PersistMode = oneOf('persist', input.persist, PERSIST, problems);
  const agentVariables = readAgentVariables(input.agentVariables, problems);
  const userId = text('user-id', input.userId, problems);
  const threadId = text('thread-id', input.threadIdAttribute, problems);
  if (threadId && !isHexId(threadId)) problems.push(`thread-id "${threadId}" is not a 24-character hex id`);
  const versionId = text('version-id', input.versionId, problems);
  if (versionId && !isHexId(versionId))
    problems.push(`version-id "${versionId}" is not a 24-character hex id; reruns use the live version`);
  const versionTag = text('version-tag', input.versionTag, problems);
  const suggestionContext = record('suggestionContext', input.suggestionContext, problems);
  // Characters of one reply: a number within REPLY_LENGTH's bounds (past one, that bound).
  const { min, max } = REPLY_LENGTH;
  const asked = input.maxReplyLength ?? REPLY_LENGTH.default;
  const wanted = typeof asked === 'symbol' ? NaN : Math.floor(Number(asked));
  const maxReplyLength = wanted < min ? min : wanted > max ? max : wanted || REPLY_LENGTH.default;
  if (maxReplyLength !== wanted) problems.push(`max-reply-length must be a number from ${min} to ${max}; using ${maxReplyLength}`);

  if (!baseUrl || !credential) return { config: null, problems, missing };
  return {
    problems,
    missing,
    config: {
      baseUrl,
      publishableKey: publishableKey || undefined,
      accessToken: accessToken || undefined,
      tokenProvider,
      userId: userId || undefined,
      threadId: threadId && isHexId(threadId) ? threadId : undefined,
      transport,
      agentVariables,
      persist,
      suggestionContext,
      versionId: versionId && isHexId(versionId) ? versionId : undefined,
      versionTag: versionTag || undefined,
      maxReplyLength,
    },
  };
}

/** A value for a console message: short, and never the whole of a large one. */
function describe(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value.slice(0, 40))
    : Array.isArray(value)
      ? 'an array'
      : value === null
        ? 'null'
        : typeof value;
}
