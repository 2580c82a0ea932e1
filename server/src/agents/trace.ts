import type { Facets } from '../store/records.js';

/**
 * Traces: what a turn really did, step by step (docs/protocol.md "Traces": the reference
 * shows no shape; this is the reference server's). The scripted agent records its matched
 * intent, the parameters it computed, the tools it pretends to call and the rules it
 * evaluated; the model bridge the prompt it sent, the model, tokens, timing and finish
 * reason; every turn its reply as streamed. The `tool`, `rule` and `param` filters of the
 * thread list read what traces record (`Facets`).
 */

export type StepType = 'intent' | 'param' | 'tool' | 'rule' | 'model' | 'reply';
export type RuleOutcome = 'fired' | 'blocked' | 'passed';
export type ParamValue = string | number | boolean;

export interface TraceStep {
  type: StepType;
  /** The intent, parameter key, tool code, rule code, model, or `stream`. */
  name: string;
  started_at: string;
  duration_ms: number;
  input?: unknown;
  output?: unknown;
  /** Rules only. */
  outcome?: RuleOutcome;
  /** A step that failed (the model's error), as the envelope would word it. */
  error?: { code: string; message: string };
}

export interface Trace {
  interaction_id: string;
  thread_id: string;
  agent_id: string;
  version_id: string;
  version_tag: string;
  /** `interrupted`: the server stopped while the turn ran. */
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  error: { code: string; message: string } | null;
  steps: TraceStep[];
  /** Steps past MAX_STEPS were left out. */
  truncated: boolean;
}

/** Steps one trace keeps; values in them are cut to a few kilobytes (`bounded`). */
export const MAX_STEPS = 64;
const MAX_STRING = 1000;
const MAX_ITEMS = 20;
const MAX_DEPTH = 4;

/** A JSON value cut to size: long strings, long lists, wide or deep objects. What a trace keeps is bounded. */
export function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => bounded(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  const entries = Object.entries(value).slice(0, MAX_ITEMS);
  return Object.fromEntries(entries.map(([k, v]) => [k.slice(0, 100), bounded(v, depth + 1)]));
}

/** Steps of one turn as they happen. */
export class TraceRecorder {
  readonly steps: TraceStep[] = [];
  truncated = false;

  /** A step that took no time of its own (the scripted agent decides at once). */
  note(type: StepType, name: string, fields: Pick<TraceStep, 'input' | 'output' | 'outcome'> = {}): void {
    this.add({ type, name, started_at: new Date().toISOString(), duration_ms: 0, ...fields });
  }

  /** A timed step; `end` records it with its output (once). */
  begin(type: StepType, name: string, input?: unknown): (fields?: Pick<TraceStep, 'output' | 'error'>) => void {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    let ended = false;
    return (fields = {}) => {
      if (ended) return;
      ended = true;
      this.add({ type, name, started_at: startedAt, duration_ms: Math.round((performance.now() - started) * 10) / 10, input, ...fields });
    };
  }

  private add(step: TraceStep): void {
    if (this.steps.length >= MAX_STEPS) {
      this.truncated = true;
      return;
    }
    const kept: TraceStep = { ...step, name: step.name.slice(0, 128) };
    if ('input' in step) kept.input = bounded(step.input);
    if ('output' in step) kept.output = bounded(step.output);
    this.steps.push(kept);
  }
}

/** Distinct values a thread's facets keep per kind; past it later values are not filterable. */
export const MAX_FACET_VALUES = 256;

/**
 * What the thread list's `tool`, `rule` and `param` filters match in one trace: its tools,
 * its rules with their outcomes, and its parameters (a `param` step's `output.value`).
 */
export function facetsOf(steps: readonly TraceStep[]): Facets {
  const facets: Facets = { tools: [], rules: {}, params: {} };
  for (const step of steps) {
    if (step.type === 'tool' && !facets.tools.includes(step.name) && facets.tools.length < MAX_FACET_VALUES) facets.tools.push(step.name);
    if (step.type === 'rule' && step.outcome) {
      const outcomes = (facets.rules[step.name] ??= []);
      if (!outcomes.includes(step.outcome)) outcomes.push(step.outcome);
    }
    if (step.type === 'param') {
      const value = (step.output as { value?: unknown } | undefined)?.value;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      const values = (facets.params[step.name] ??= []);
      if (!values.includes(value) && values.length < MAX_FACET_VALUES) values.push(value);
    }
  }
  return facets;
}
