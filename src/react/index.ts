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
import { createComponent } from '@lit/react';
// Importing the registration (not just the class) defines `<agent-chat>` for React to render.
import { AgentChat as AgentChatElement } from '../agent-chat.js';
// One `on…` prop per event the element fires, generated from the manifest (scripts/react-events.ts).
import { events } from './events.js';

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
