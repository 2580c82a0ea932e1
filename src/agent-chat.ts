/**
 * The script-tag entry: loading this module defines `<agent-chat>`. The class lives in
 * agent-chat-element.ts without side effects, so bundler users can register it under
 * another name or subclass it.
 */
import { AgentChat } from './agent-chat-element.js';

export { AgentChat };

if (!customElements.get('agent-chat')) customElements.define('agent-chat', AgentChat);

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat': AgentChat;
  }
}
