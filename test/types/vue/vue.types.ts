// Vue: what vue-tsc checks a template's `<agent-chat …>` against (GlobalComponents).
import type {} from 'agent-chat/jsx/vue';
import type { GlobalComponents } from 'vue';

type Props = InstanceType<GlobalComponents['agent-chat']>['$props'];

export const ok: Props = {
  'base-url': 'https://agents.example.com',
  'publishable-key': 'pk_live_123',
  mode: 'launcher',
  isOpen: true,
  tokenProvider: async () => 'token',
  onAgentChatMessage: (e) => e.detail.message.text.toUpperCase(),
  onAgentChatThread: (e) => e.detail.reason,
};

// @ts-expect-error mode is inline or launcher
export const badMode: Props = { mode: 'sideways' };
// @ts-expect-error an error event's detail has no text
export const badEvent: Props = { onAgentChatError: (e) => e.detail.text };
