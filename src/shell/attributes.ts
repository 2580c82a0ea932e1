import type { AgentVariables } from '../client/types.js';

/** Bad JSON in `agent-variables` must not throw out of the attribute setter: the check reports it. */
export const jsonConverter = {
  fromAttribute(value: string | null): AgentVariables | undefined | Error {
    if (value == null || value.trim() === '') return undefined;
    try {
      const parsed: unknown = JSON.parse(value);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return new Error('agent-variables must be a JSON object like {"static": {...}, "dynamic": {...}}');
      }
      return parsed as AgentVariables;
    } catch {
      return new Error('agent-variables is not valid JSON');
    }
  },
};
