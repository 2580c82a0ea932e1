/**
 * Wire types of the agent service's messaging surface and token exchange, as the service's
 * API reference and, where it is silent, docs/protocol.md describe them. Field names are
 * the service's own (snake_case); nothing here is a UI or storage concept. The widget
 * (src/client/types.ts) and the server (server/src) both import this module.
 *
 * The reference does not say which Message fields are always present, so every field a
 * server may plausibly omit is optional and the UI treats it that way.
 */

/** 24 hexadecimal characters: thread, interaction, agent and version ids. */
export type HexId = string;

export declare const HEX_ID_PATTERN: RegExp;

/** Whether `value` is a thread, interaction, agent or version id. */
export declare function isHexId(value: unknown): value is HexId;

export type Scalar = string | number | boolean | null;

/** `sender.type` values seen are `user` and `agent`; the set is open. */
export type ParticipantType = 'user' | 'agent' | (string & {});

export interface Participant {
  /** Absent for the agent. */
  id?: string;
  type: ParticipantType;
}

export interface SubEntityGroup {
  name: string;
  items: Array<Record<string, Scalar>>;
}

export interface CardData {
  /** Flat key-value map; keys are defined by the agent's card templates, not a schema. */
  entity: Record<string, Scalar>;
  sub_entities?: SubEntityGroup[];
}

export interface Card {
  /** Ready-made JSX. Never executed or inserted as markup (docs/protocol.md "Agent content"). */
  rendered_jsx?: string;
  json_data: CardData;
  is_recommended?: boolean;
  index?: number;
}

export interface Message {
  /** Interaction id (agent replies and the user message of that turn) or message id. */
  id: string;
  created_at?: string;
  text: string;
  sender: Participant;
  receiver?: Participant;
  cards?: Card[];
  welcome_message?: string;
  followup_suggestions?: string[];
  url?: string;
  /** The image a user message was sent with (`image_url` of the send body), as the transcript keeps it. */
  image_url?: string;
  input_tokens?: number;
  output_tokens?: number;
}

export interface AgentVariables {
  static?: Record<string, unknown>;
  dynamic?: Record<string, unknown>;
}

/** Body of send and stream. `agent_id` does not exist: the token names the agent. */
export interface SendMessageBody {
  text: string;
  user_id: string;
  thread_id?: string;
  image_url?: string;
  agent_variables?: AgentVariables;
}

export interface SendMessageResponse {
  thread_id: string;
  message: Message;
}

export interface RerunBody {
  interaction_id: HexId;
  text: string;
  user_id?: string;
  image_url?: string;
  version_id?: HexId;
  version_tag?: string;
}

/** Same shape as send; `thread_id` is the NEW branched thread. */
export type RerunResponse = SendMessageResponse;

export interface WelcomeMessageResponse {
  welcome_message: string;
}

export interface FollowupSuggestionsBody {
  context?: Record<string, unknown>;
}

export interface FollowupSuggestionsResponse {
  suggestions: string[];
}

export type Channel = 'whatsapp' | 'sms';

/** The provisional body for channel hand-off (docs/protocol.md "Channel hand-off"). */
export interface ChannelThreadBody {
  user_id: string;
  agent_display_name?: string;
  /** E.164, e.g. `+4915112345678`. */
  phone_number: string;
  thread_id?: string;
}

export interface ChannelThreadResponse {
  thread_id: string;
  [key: string]: unknown;
}

export interface TokenRequestBody {
  publishable_key: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | (string & {});
  expires_in: number;
}

export interface ErrorDetail {
  message: string;
  field: string | null;
}

export interface ErrorEnvelope {
  error: {
    code: string;
    message: string;
    request_id: string | null;
    details: ErrorDetail[] | null;
  };
}

/** SSE frames, discriminated on `type`. */
export interface ThreadFrame {
  type: 'thread';
  data: { thread_id: string };
}

export interface TokenFrame {
  type: 'event';
  seq: number;
  data: { text?: string; [key: string]: unknown };
}

export interface MessageFrame {
  type: 'message';
  seq: number;
  data: Message;
}

export interface ErrorFrame {
  type: 'error';
  seq?: number;
  /** The status may sit under any of these names (docs/protocol.md "Error frames"). */
  data: {
    message: string;
    code?: string | number;
    status?: number;
    status_code?: number;
    [key: string]: unknown;
  };
}

/** A frame whose `type` this client does not know; tolerated and skipped. */
export interface UnknownFrame {
  type: string;
  seq?: number;
  data?: unknown;
}

export type StreamFrame = ThreadFrame | TokenFrame | MessageFrame | ErrorFrame;

/** A plain JSON object (not null, not an array): what every wire object must be. */
export declare function isObject(value: unknown): value is Record<string, unknown>;
