// Solid: `<agent-chat>` with attributes, properties (plain or `prop:`) and `on:` listeners.
import type {} from 'agent-chat/jsx/solid';

export const ok = (
  <agent-chat
    base-url="https://agents.example.com"
    publishable-key="pk_live_123"
    mode="inline"
    prop:strings={{ heading: 'Help' }}
    tokenProvider={async () => 'token'}
    on:agent-chat-message={(e) => e.detail.message.text.toUpperCase()}
  />
);

export const bad = [
  // @ts-expect-error mode is inline or launcher
  <agent-chat mode="sideways" />,
  // @ts-expect-error a send event's detail has no message
  <agent-chat on:agent-chat-send={(e) => e.detail.message} />,
];
