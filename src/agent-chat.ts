/**
 * The script-tag entry: loading this module defines `<agent-chat>`. The class lives in
 * agent-chat-element.ts without side effects, so bundler users can register it under
 * another name (subclasses extend its reactive base, src/shell/host.ts, not Lit's).
 */
import { AgentChat } from './agent-chat-element.js';
import type { AgentChatEventMap } from './events.js';

export { AgentChat };

// Without a DOM (server rendering) there is nothing to register; the browser does it on load.
if (globalThis.customElements && !customElements.get('agent-chat')) customElements.define('agent-chat', AgentChat);

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat': AgentChat;
  }
  // The events bubble and are composed, so any element, the document or the window may
  // hear them: `addEventListener('agent-chat-message', (e) => e.detail.message)` is typed.
  /* eslint-disable @typescript-eslint/no-empty-object-type -- merges, not new types */
  interface HTMLElementEventMap extends AgentChatEventMap {}
  interface DocumentEventMap extends AgentChatEventMap {}
  interface WindowEventMap extends AgentChatEventMap {}
  /* eslint-enable @typescript-eslint/no-empty-object-type */
}
