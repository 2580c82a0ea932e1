import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { notFound } from './errors.js';
import type { Deps } from './env.js';
import type { FaultPlan } from './faults.js';
import { clockBodySchema, faultPlanSchema } from './schemas.js';
import { parseBody } from './validate.js';

/**
 * `/__demo/*` is NOT part of the agent service. It exists only on this reference server so
 * tests and demos can mint publishable keys with fault plans attached (see faults.ts) and
 * read back what the server saw. A widget must never call it.
 */
export function demoKeyRoutes(deps: Deps): Hono {
  const app = new Hono();
  const started = Date.now();

  // Fault plans may carry large hostile replies (a megabyte of text, thousands of cards).
  app.post('/__demo/keys', bodyLimit({ maxSize: 32 * 1024 * 1024 }), async (c) => {
    // Cards in `replies` are deliberately loose in the schema; the plan is trusted test input.
    const plan = (await parseBody(c, faultPlanSchema, {})) as FaultPlan;
    const record = deps.store.createKey(plan);
    return c.json({ publishable_key: record.key, agent_id: record.agentId });
  });

  app.get('/__demo/keys/:key/stats', (c) => {
    const record = deps.store.key(c.req.param('key'));
    if (!record) throw notFound('Key');
    return c.json(record.stats);
  });

  // Moves the key's clock on: its tokens expire as if that time had passed (auth.ts).
  app.post('/__demo/keys/:key/clock', async (c) => {
    const record = deps.store.key(c.req.param('key'));
    if (!record) throw notFound('Key');
    const { advanceMs } = await parseBody(c, clockBodySchema);
    record.clockOffsetMs += advanceMs;
    return c.json({ offset_ms: record.clockOffsetMs });
  });

  app.get('/__demo/health', (c) =>
    c.json({
      status: 'ok',
      uptime_s: Math.round((Date.now() - started) / 1000),
      threads: deps.store.threads.size,
      keys: deps.store.keys.size,
    }),
  );

  return app;
}
