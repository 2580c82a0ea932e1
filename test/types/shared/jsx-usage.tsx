// `<agent-chat>` in JSX with its attributes, properties and listeners typed: compiled by the
// React 19 and the Preact projects (test/types/react, test/types/preact), each with its own
// jsxImportSource and its own `agent-chat/jsx/…` declarations.
import type { AgentChat } from 'agent-chat';

export const ok = (
  <agent-chat
    ref={(element: AgentChat | null) => void element?.open()}
    base-url="https://agents.example.com"
    publishable-key="pk_live_123"
    mode="launcher"
    thread-id="65f1a7c2e4b0d3a9c8f0a100"
    theme="dark"
    transport="websocket"
    allowHtml
    isOpen={false}
    strings={{ heading: 'Help' }}
    tokenProvider={async () => 'token'}
    onagent-chat-message={(e) => e.detail.message.text.toUpperCase()}
    onagent-chat-thread={(e) => e.detail.reason}
  />
);

export const bad = [
  // @ts-expect-error mode is inline or launcher
  <agent-chat mode="sideways" />,
  // @ts-expect-error a thread event has no text
  <agent-chat onagent-chat-thread={(e) => e.detail.text} />,
  // @ts-expect-error `open` would replace the open() method: the prop is isOpen
  <agent-chat open />,
  // @ts-expect-error tokenProvider returns a promise of a token
  <agent-chat tokenProvider={() => 42} />,
];
