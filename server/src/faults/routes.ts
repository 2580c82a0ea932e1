import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { notFound } from '../http/errors.js';
import type { Deps } from '../deps.js';
import type { MintedKeys } from './minted.js';
import type { FaultBook } from './state.js';
import type { FaultPlan, KeyStats } from './plan.js';
import { clockBodySchema, faultPlanSchema } from '../http/schemas.js';
import { parseBody } from '../http/validate.js';

/** A fault plan's JSON at most: room for a megabyte of hostile reply, not for a memory attack. */
export const MAX_PLAN_BYTES = 2 * 1024 * 1024;

/**
 * `/__demo/keys` is NOT part of the agent service: the fault knobs (faults.ts). Mounted only
 * when the server is built with `faults: true` (the test runner, the benchmarks, `npm start`
 * without a model; app.ts), because with them anyone who reaches the server can mint keys
 * that misbehave on purpose and read the requests made with them. Only keys minted here
 * have stats: the built-in demo key keeps no log of its visitors' requests. A widget must
 * never call these routes.
 */
export function demoKeyRoutes(deps: Deps, keys: MintedKeys, book: FaultBook): Hono {
  const app = new Hono();

  // Fault plans may carry large hostile replies (a megabyte of text, thousands of cards).
  app.post('/__demo/keys', bodyLimit({ maxSize: MAX_PLAN_BYTES }), async (c) => {
    // Cards in `replies` are deliberately loose in the schema; the plan is trusted test input.
    const plan = (await parseBody(c, faultPlanSchema, {})) as FaultPlan;
    const record = await keys.mint(plan, JSON.stringify(plan).length);
    return c.json({ publishable_key: record.key, agent_id: record.agentId });
  });

  /** A key minted here; the built-in demo key is not one (404, as for an unknown key). */
  const minted = async (key: string) => {
    const record = await deps.stores.keys.get(key);
    if (record?.kind !== 'minted') throw notFound('Key');
    return record;
  };

  // With what the key holds now against its limits (limits.ts): what a test of the bounds counts.
  app.get('/__demo/keys/:key/stats', async (c) => {
    const record = await minted(c.req.param('key'));
    const held = await deps.stores.threads.usage(record.key);
    const usage = { ...held, running: deps.budgets.runningOf(record.key) };
    return c.json({ ...book.of(record).stats, usage, limits: record.limits } satisfies KeyStats);
  });

  // Moves the key's clock on: its tokens expire as if that time had passed (auth.ts).
  app.post('/__demo/keys/:key/clock', async (c) => {
    const record = await minted(c.req.param('key'));
    const { advanceMs } = await parseBody(c, clockBodySchema);
    const state = book.of(record);
    state.clockOffsetMs += advanceMs;
    return c.json({ offset_ms: state.clockOffsetMs });
  });

  return app;
}
