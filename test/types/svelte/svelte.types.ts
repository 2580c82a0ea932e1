// Svelte: what svelte-check checks `<agent-chat …>` against (SvelteHTMLElements).
import type {} from 'agent-chat/jsx/svelte';
import type { SvelteHTMLElements } from 'svelte/elements';

type Props = SvelteHTMLElements['agent-chat'];

export const ok: Props = {
  'base-url': 'https://agents.example.com',
  'publishable-key': 'pk_live_123',
  theme: 'auto',
  strings: { heading: 'Help' },
  'onagent-chat-message': (e) => e.detail.message.text.toUpperCase(),
  'on:agent-chat-thread': (e) => e.detail.reason,
};

// @ts-expect-error theme is light, dark or auto
export const badTheme: Props = { theme: 'blue' };
// @ts-expect-error a send event's detail has no message
export const badEvent: Props = { 'onagent-chat-send': (e) => e.detail.message };
