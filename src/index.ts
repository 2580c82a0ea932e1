/** Package entry for bundler users: the element (registered), its types and the client. */
export { AgentChat } from './agent-chat.js';
export type { CardRenderer, CardRendererApi, LinkTarget, Mode, Theme, Transport } from './agent-chat-element.js';
export type { CardAction, CardVariantChoice } from './cards/actions.js';
export { agentChatContext, type AgentChatContext } from './shell/context.js';
export type { ChatStatus, ThreadReason } from './state/chat-controller.js';
export type { ChatMessage } from './state/messages.js';
export type { Strings } from './i18n/strings.js';
export type {
  AgentChatEventMap,
  AgentChatEventName,
  CardActionDetail,
  CardClickDetail,
  ChannelDetail,
  DisclaimerAcceptDetail,
  EmptyDetail,
  ErrorEventDetail,
  FeedbackCategory,
  FeedbackDetail,
  LinkClickDetail,
  MessageDetail,
  PreviewRenameDetail,
  ReadyDetail,
  SendDetail,
  SuggestionDetail,
  ThreadDetail,
} from './events.js';
export * from './client/index.js';
