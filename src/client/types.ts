/**
 * The wire types, as the widget reads them: the service's own (the `@agent-chat/wire`
 * module, which the server imports too) plus what only this client adds to them. Field
 * names are the service's (snake_case); nothing here is a UI concept.
 *
 * The reference does not say which Message fields are always present, so every field a
 * server may plausibly omit is optional and the UI treats it that way.
 */
import type { Message as WireMessage } from '@agent-chat/wire';

export { HEX_ID_PATTERN, isHexId, isObject } from '@agent-chat/wire';
export type {
  AgentVariables,
  Card,
  CardData,
  Channel,
  ChannelThreadBody,
  ChannelThreadResponse,
  ErrorDetail,
  ErrorEnvelope,
  ErrorFrame,
  FollowupSuggestionsBody,
  FollowupSuggestionsResponse,
  HexId,
  MessageFrame,
  Participant,
  ParticipantType,
  RerunBody,
  RerunResponse,
  Scalar,
  SendMessageBody,
  SendMessageResponse,
  StreamFrame,
  SubEntityGroup,
  ThreadFrame,
  TokenFrame,
  TokenRequestBody,
  TokenResponse,
  UnknownFrame,
  WelcomeMessageResponse,
} from '@agent-chat/wire';

/** A message of the service, with what this client may note on it. */
export interface Message extends WireMessage {
  /**
   * Not the service's: this client cut `text` at its `maxReplyLength` (the reply was longer,
   * or came in a frame too large to read) and says so here (docs/protocol.md "Size limits").
   */
  truncated?: boolean;
}

/**
 * Characters of one reply a client keeps (`maxReplyLength`; the element's `max-reply-length`):
 * past it the reply is cut, marked `truncated`, and its turn ends there as complete. The
 * default holds any reply meant for reading whole, and is what a reload keeps of a running
 * one; the most, a million, still renders in seconds, not minutes (BENCHMARKS.md "Size limits").
 */
export const REPLY_LENGTH = { min: 1_000, default: 200_000, max: 1_000_000 } as const;
