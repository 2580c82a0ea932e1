/**
 * `agent-chat/react`: `<agent-chat>` as a React component, through @lit/react.
 *
 * Props that name a property of the element (`baseUrl`, `publishableKey`, `tokenProvider`,
 * `cardRenderer`, `strings`...) are set as properties, so objects and functions pass
 * through unchanged; `on*` props listen to the element's events with typed details.
 * React is an optional peer dependency of the package: it is never bundled, and this
 * module is the only one that needs it.
 *
 * ```tsx
 * import { AgentChat } from 'agent-chat/react';
 *
 * <AgentChat baseUrl="https://agents.example.com" publishableKey="pk_live_..."
 *   onMessage={(e) => console.log(e.detail.message.text)} />
 * ```
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
// Importing the registration (not just the class) defines `<agent-chat>` for React to render.
import { AgentChat as AgentChatElement } from '../agent-chat.js';
import type { AgentChatEventMap } from '../events.js';

type Event<K extends keyof AgentChatEventMap> = EventName<AgentChatEventMap[K]>;

/** React prop name to element event name, one entry per event of the element (src/events.ts). */
const events = {
  onReady: 'agent-chat-ready' as Event<'agent-chat-ready'>,
  onSend: 'agent-chat-send' as Event<'agent-chat-send'>,
  onMessage: 'agent-chat-message' as Event<'agent-chat-message'>,
  onThread: 'agent-chat-thread' as Event<'agent-chat-thread'>,
  // Replaces React's `onError` on this component: a native `error` event never reaches the
  // host (it does not cross the shadow root), the widget's own error event does.
  onError: 'agent-chat-error' as Event<'agent-chat-error'>,
  onSuggestion: 'agent-chat-suggestion' as Event<'agent-chat-suggestion'>,
  onCardClick: 'agent-chat-card-click' as Event<'agent-chat-card-click'>,
  onOpen: 'agent-chat-open' as Event<'agent-chat-open'>,
  onClose: 'agent-chat-close' as Event<'agent-chat-close'>,
  onChannel: 'agent-chat-channel' as Event<'agent-chat-channel'>,
};

/**
 * The `<agent-chat>` element for React. A `ref` receives the element itself, for its
 * methods (`send`, `newThread`, `open`, `close`, `toggle`, `focusInput`).
 */
export const AgentChat = createComponent({
  tagName: 'agent-chat',
  elementClass: AgentChatElement,
  react: React,
  events,
  displayName: 'AgentChat',
});

export type AgentChatProps = React.ComponentProps<typeof AgentChat>;
export type { AgentChatElement };
export type * from '../events.js';
