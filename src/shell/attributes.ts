import type { AgentVariables } from '../client/types.js';

/** Bad JSON in `agent-variables` must not throw out of the attribute setter: the check reports it. */
export const jsonConverter = {
  fromAttribute(value: string | null): AgentVariables | string | undefined | Error {
    if (value == null || value.trim() === '') return undefined;
    try {
      const parsed: unknown = JSON.parse(value);
      // What is not an object stays the text it was: the configuration's check parses it again
      // and says what is wrong with it (src/state/config.ts `readAgentVariables`).
      return parsed && typeof parsed === 'object' ? (parsed as AgentVariables) : value;
    } catch {
      return new Error('agent-variables is not valid JSON');
    }
  },
};
