import type { Message } from '@agent-chat/wire';
import type { Stores } from '../store/index.js';
import type { KeyRecord } from '../store/records.js';
import type { FaultPlan } from './plan.js';
import type { FaultBook } from './state.js';

/**
 * The stores as the fault knobs see them: what a minted key's plan changes in what is kept
 * (its `limits`, its tokens' `tokenTtl`, `transcriptAt: "start"`), and the counters its
 * stats report (turns run, requests refused past the rate). Every call is the real store's;
 * these only look on, or add the plan's settings to a key as it is read.
 */
export function faultyStores(stores: Stores, book: FaultBook): Stores {
  const withPlan = (key: KeyRecord | undefined): KeyRecord | undefined => {
    if (key?.kind !== 'minted') return key;
    const plan = key.plan as FaultPlan;
    return { ...key, limits: { ...key.limits, ...plan.limits }, ...(plan.tokenTtl !== undefined ? { tokenTtl: plan.tokenTtl } : {}) };
  };
  const keys: Stores['keys'] = {
    ...bind(stores.keys),
    get: async (key) => withPlan(await stores.keys.get(key)),
    forAgent: async (agentId) => (await stores.keys.forAgent(agentId)).map((k) => withPlan(k)!),
    ensure: async (record) => withPlan(await stores.keys.ensure(record))!,
    mint: async (record, bytes) => withPlan(await stores.keys.mint(record, bytes))!,
  };
  /** Turns whose question joined the transcript as they started (`transcriptAt: "start"`). */
  const early = new Set<string>();
  const turns: Stores['turns'] = {
    ...bind(stores.turns),
    async begin(start) {
      if (!(await stores.turns.begin(start))) return false;
      const key = await keys.get(start.turn.key);
      if (!key || key.kind !== 'minted') return true;
      book.of(key).stats.turnsRun += 1;
      if ((key.plan as FaultPlan).transcriptAt !== 'start') return true;
      const { turn } = start;
      early.add(turn.id);
      const question: Message = {
        id: turn.id,
        created_at: turn.createdAt,
        text: turn.userText,
        sender: { type: 'user', id: turn.userId },
        receiver: { type: 'agent', id: key.agentId },
        cards: [],
        followup_suggestions: [],
        input_tokens: 0,
        output_tokens: 0,
      };
      await stores.threads.append(turn.threadId, [question], turn.createdAt);
      return true;
    },
    async finish(end) {
      if (!early.delete(end.id)) return stores.turns.finish(end);
      // Its question is in the transcript already.
      const messages = end.messages.filter((m) => !(m.id === end.id && m.sender.type === 'user'));
      return stores.turns.finish({ ...end, messages });
    },
  };
  const rates: Stores['rates'] = {
    async take(name, limits, now) {
      const wait = await stores.rates.take(name, limits, now);
      if (wait && name.startsWith('key:')) {
        const state = book.named(name.slice('key:'.length));
        if (state) state.stats.limited += 1;
      }
      return wait;
    },
  };
  return { ...stores, keys, turns, rates };
}

/** An object's methods bound to it, as plain properties (so a wrapper can spread them). */
function bind<T extends object>(target: T): T {
  const bound: Record<string, unknown> = {};
  let proto: object | null = target;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (target as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof value === 'function' && !(name in bound)) bound[name] = value.bind(target);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return bound as T;
}
