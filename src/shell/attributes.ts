import type { AgentVariables } from '../client/types.js';

/** Bad JSON in `agent-variables` must not throw out of the attribute setter: the check reports it. */
export const jsonConverter = {
  fromAttribute(value: string | null): AgentVariables | undefined | Error {
    if (value == null || value.trim() === '') return undefined;
    try {
      // Any JSON: what is not an object is told by the configuration's check (src/state/config.ts).
      return JSON.parse(value) as AgentVariables;
    } catch {
      return new Error('agent-variables is not valid JSON');
    }
  },
};
