import { errorFromException, isObject } from './errors.js';
import { isMessage, isStringArray } from './guards.js';
import { requestJson, type HttpContext, type RequestOptions } from './http.js';
import { streamTurn, type StreamHandlers, type StreamOptions, type StreamResult } from './stream.js';
import { TokenManager } from './token.js';
import type {
  Channel,
  ChannelThreadBody,
  ChannelThreadResponse,
  FollowupSuggestionsResponse,
  Message,
  RerunBody,
  RerunResponse,
  SendMessageBody,
  SendMessageResponse,
  WelcomeMessageResponse,
} from './types.js';

export interface ClientConfig {
  /** Service base address; the reference's paths are appended (a trailing slash is dropped). */
  baseUrl: string;
  /** Browser-safe key, exchanged at `POST /management/v1/auth/token`. */
  publishableKey?: string;
  /** A ready token; wins over `publishableKey`. Fixed unless `tokenProvider` can replace it. */
  accessToken?: string;
  /** Host-supplied tokens; called again after a 401 and before a JWT's `exp`. */
  tokenProvider?: () => Promise<string>;
  /** Per plain request, default 30000 ms. */
  timeoutMs?: number;
}

const isSendResponse = (v: unknown): v is SendMessageResponse =>
  isObject(v) && typeof v.thread_id === 'string' && isMessage(v.message);
const isMessageList = (v: unknown): v is Message[] => Array.isArray(v) && v.every(isMessage);
const isWelcome = (v: unknown): v is WelcomeMessageResponse => isObject(v) && typeof v.welcome_message === 'string';
const isSuggestions = (v: unknown): v is FollowupSuggestionsResponse => isObject(v) && isStringArray(v.suggestions);
const isChannelThread = (v: unknown): v is ChannelThreadResponse => isObject(v) && typeof v.thread_id === 'string';

/**
 * The widget's only HTTP speaker: the messaging operations of the agent service, with
 * token handling, typed errors (every rejection is an ApiError) and resumable streaming.
 * No DOM beyond fetch and AbortSignal.
 */
export class AgentClient {
  private readonly ctx: HttpContext;

  constructor(config: ClientConfig) {
    const baseUrl = config.baseUrl.replace(/\/+$/, '');
    const timeoutMs = config.timeoutMs ?? 30_000;
    this.ctx = { baseUrl, timeoutMs, tokens: new TokenManager({ ...config, baseUrl, timeoutMs }) };
  }

  /** `POST /messaging/v1/messages`: one complete JSON reply. */
  send(body: SendMessageBody, opts?: RequestOptions): Promise<SendMessageResponse> {
    return requestJson(this.ctx, 'POST', '/messaging/v1/messages', body, isSendResponse, 'a reply', opts);
  }

  /** `POST /messaging/v1/messages/stream`, resumed across dropped connections. */
  stream(body: SendMessageBody, handlers: StreamHandlers, opts?: StreamOptions): Promise<StreamResult> {
    return streamTurn(this.ctx, body, handlers, opts);
  }

  /**
   * The same turn over the WebSocket session (`transport="websocket"`, CONTRACT.md,
   * provisional): same handlers, options, result and resume guarantees as `stream`.
   */
  async streamSocket(body: SendMessageBody, handlers: StreamHandlers, opts?: StreamOptions): Promise<StreamResult> {
    // A lazy chunk: only widgets with `transport="websocket"` download the session code.
    // Failing to load it is a network failure like any other (retryable, text kept).
    const { streamOverSocket } = await import('./websocket.js').catch((e: unknown) => {
      throw errorFromException(e, opts?.signal, () => false);
    });
    return streamOverSocket(this.ctx, body, handlers, opts);
  }

  /** `POST /messaging/v1/threads/{threadId}/rerun`; the response names the NEW thread. */
  rerun(threadId: string, body: RerunBody, opts?: RequestOptions): Promise<RerunResponse> {
    const path = `/messaging/v1/threads/${encodeURIComponent(threadId)}/rerun`;
    return requestJson(this.ctx, 'POST', path, body, isSendResponse, 'a rerun reply', opts);
  }

  /** `GET /messaging/v1/threads/{threadId}/messages`, oldest first. */
  transcript(threadId: string, opts?: RequestOptions): Promise<Message[]> {
    const path = `/messaging/v1/threads/${encodeURIComponent(threadId)}/messages`;
    return requestJson(this.ctx, 'GET', path, undefined, isMessageList, 'a transcript', opts);
  }

  /** `GET /messaging/v1/welcome-message`. */
  async welcomeMessage(opts?: RequestOptions): Promise<string> {
    const path = '/messaging/v1/welcome-message';
    return (await requestJson(this.ctx, 'GET', path, undefined, isWelcome, 'a welcome message', opts)).welcome_message;
  }

  /** `POST /messaging/v1/followup-suggestions` with an optional `context` object. */
  async followupSuggestions(context?: Record<string, unknown>, opts?: RequestOptions): Promise<string[]> {
    const body = context === undefined ? {} : { context };
    const path = '/messaging/v1/followup-suggestions';
    return (await requestJson(this.ctx, 'POST', path, body, isSuggestions, 'suggestions', opts)).suggestions;
  }

  /** `POST /messaging/v1/channels/{channel}/threads`: hand the conversation to WhatsApp or SMS. */
  startChannelThread(channel: Channel, body: ChannelThreadBody, opts?: RequestOptions): Promise<ChannelThreadResponse> {
    const path = `/messaging/v1/channels/${encodeURIComponent(channel)}/threads`;
    return requestJson(this.ctx, 'POST', path, body, isChannelThread, 'a channel thread', opts);
  }
}
