import { chunkError } from './errors.js';
import { isObject } from './types.js';
import { readMessages, readSendResponse, readSuggestions } from './guards.js';
import { requestJson, type HttpContext, type RequestOptions } from './http.js';
import type { StreamHandlers, StreamOptions, StreamResult, streamTurn } from './stream.js';
import type { closeSession, streamOverSocket } from './websocket.js';
import { TokenManager, type TokenCache } from './token.js';
import {
  REPLY_LENGTH,
  isHexId,
  type Channel,
  type ChannelThreadBody,
  type ChannelThreadResponse,
  type Message,
  type RerunBody,
  type RerunResponse,
  type SendMessageBody,
  type SendMessageResponse,
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
  /**
   * The end user (`user_id`) a publishable key's token is exchanged for, read at each
   * exchange. The service opens the threads such a token creates to that user's tokens
   * only; a token asked for another user is exchanged again (docs/protocol.md "Visitors").
   */
  userId?: () => string;
  /** Per plain request, default 30000 ms. */
  timeoutMs?: number;
  /** Keeps exchanged tokens across page views (never host-minted ones); see `TokenSource.cache`. */
  tokenCache?: TokenCache;
  /**
   * Characters of one reply kept, default `REPLY_LENGTH.default`: a longer reply (a REST
   * answer, a transcript entry, a stream) is cut there and marked `truncated`; a stream
   * ends there as complete (docs/protocol.md "Size limits").
   */
  maxReplyLength?: number;
}

// Readers of the small responses; messages and cards are read by guards.ts.
const readWelcome = (v: unknown): string | null => (isObject(v) && typeof v.welcome_message === 'string' ? v.welcome_message : null);
const readSuggestionList = (v: unknown): string[] | null =>
  isObject(v) && Array.isArray(v.suggestions) ? readSuggestions(v.suggestions) : null;
const readChannelThread = (v: unknown): ChannelThreadResponse | null =>
  isObject(v) && isHexId(v.thread_id) ? { ...v, thread_id: v.thread_id } : null;

/** How a turn reaches the service (attribute `transport`). */
export type Transport = 'sse' | 'rest' | 'websocket';

/**
 * Where the streaming code comes from. The widget fetches each as a chunk the first time a
 * turn needs it (src/chunks.ts: a page that only shows a conversation never downloads
 * them); `agent-chat/client` hands over the modules themselves (src/client/index.ts).
 */
export interface StreamingCode {
  stream(): Promise<{ streamTurn: typeof streamTurn }>;
  socket(): Promise<{ streamOverSocket: typeof streamOverSocket; closeSession: typeof closeSession }>;
}

/**
 * The widget's only HTTP speaker: the messaging operations of the agent service, with
 * token handling, typed errors (every rejection is an ApiError) and resumable streaming.
 * No DOM beyond fetch and AbortSignal.
 */
export class AgentClient {
  /** What every request needs (base address, token, timeout); the management client (management.ts) shares it. */
  readonly ctx: HttpContext;
  /** The session code, once a turn went over the WebSocket session. */
  private __socket: Awaited<ReturnType<StreamingCode['socket']>> | null = null;

  constructor(
    config: ClientConfig,
    private readonly __code: StreamingCode,
  ) {
    const baseUrl = config.baseUrl.replace(/\/+$/, '');
    const timeoutMs = config.timeoutMs ?? 30_000;
    this.ctx = {
      baseUrl,
      timeoutMs,
      tokens: new TokenManager({ ...config, baseUrl, timeoutMs, cache: config.tokenCache }),
      maxReply: config.maxReplyLength ?? REPLY_LENGTH.default,
    };
  }

  /**
   * One turn over `transport`, resolving with the final reply (null when a stream ended
   * without one). The service has taken the turn once `onThread` is called: REST calls it
   * with the response, the streams with their `thread` frame. Both streams resume a dropped
   * connection the same way and share the handlers (stream.ts).
   */
  async turn(transport: Transport, body: SendMessageBody, handlers: StreamHandlers, opts: StreamOptions = {}): Promise<Message | null> {
    if (transport === 'rest') {
      const response = await this.send(body, opts);
      handlers.onThread?.(response.thread_id);
      return response.message;
    }
    const result = transport === 'websocket' ? await this.streamSocket(body, handlers, opts) : await this.stream(body, handlers, opts);
    return result.message;
  }

  /** `POST /messaging/v1/messages`: one complete JSON reply. */
  send(body: SendMessageBody, opts?: RequestOptions): Promise<SendMessageResponse> {
    return requestJson(this.ctx, 'POST', '/messaging/v1/messages', body, readSendResponse, 'a reply', opts);
  }

  /** `POST /messaging/v1/messages/stream`, resumed across dropped connections. */
  async stream(body: SendMessageBody, handlers: StreamHandlers, opts?: StreamOptions): Promise<StreamResult> {
    // A lazy chunk (the SSE reader and the resume loop): a page that shows a conversation
    // without sending in it never downloads them. Failing to load it fails the turn before
    // anything is sent (`chunk`: retryable, text kept).
    const { streamTurn } = await this.__code.stream().catch((e: unknown) => {
      throw chunkError(e);
    });
    return streamTurn(this.ctx, body, handlers, opts);
  }

  /** Fetches the streaming code ahead of the first turn (the reader is typing). */
  prefetchStreaming(): void {
    this.__code.stream().catch(() => undefined);
  }

  /**
   * The same turn over the WebSocket session (`transport="websocket"`, docs/protocol.md,
   * provisional): same handlers, options, result and resume guarantees as `stream`.
   */
  async streamSocket(body: SendMessageBody, handlers: StreamHandlers, opts?: StreamOptions): Promise<StreamResult> {
    // A lazy chunk: only widgets with `transport="websocket"` download the session code.
    // Failing to load it fails the turn before anything is sent (`chunk`, as above).
    const socket = (this.__socket = await this.__code.socket().catch((e: unknown) => {
      throw chunkError(e);
    }));
    return socket.streamOverSocket(this.ctx, body, handlers, opts);
  }

  /** Closes what stays open between turns (the WebSocket session); the next turn opens it again. */
  close(): void {
    this.__socket?.closeSession(this.ctx);
  }

  /** `POST /messaging/v1/threads/{threadId}/rerun`; the response names the NEW thread. */
  rerun(threadId: string, body: RerunBody, opts?: RequestOptions): Promise<RerunResponse> {
    const path = `/messaging/v1/threads/${encodeURIComponent(threadId)}/rerun`;
    return requestJson(this.ctx, 'POST', path, body, readSendResponse, 'a rerun reply', opts);
  }

  /** `GET /messaging/v1/threads/{threadId}/messages`, oldest first. */
  transcript(threadId: string, opts?: RequestOptions): Promise<Message[]> {
    const path = `/messaging/v1/threads/${encodeURIComponent(threadId)}/messages`;
    return requestJson(this.ctx, 'GET', path, undefined, readMessages, 'a transcript', opts);
  }

  /** `GET /messaging/v1/welcome-message`. */
  welcomeMessage(opts?: RequestOptions): Promise<string> {
    const path = '/messaging/v1/welcome-message';
    return requestJson(this.ctx, 'GET', path, undefined, readWelcome, 'a welcome message', opts);
  }

  /** `POST /messaging/v1/followup-suggestions` with an optional `context` object. */
  followupSuggestions(context?: Record<string, unknown>, opts?: RequestOptions): Promise<string[]> {
    const body = context === undefined ? {} : { context };
    const path = '/messaging/v1/followup-suggestions';
    return requestJson(this.ctx, 'POST', path, body, readSuggestionList, 'suggestions', opts);
  }

  /** `POST /messaging/v1/channels/{channel}/threads`: hand the conversation to WhatsApp or SMS. */
  startChannelThread(channel: Channel, body: ChannelThreadBody, opts?: RequestOptions): Promise<ChannelThreadResponse> {
    const path = `/messaging/v1/channels/${encodeURIComponent(channel)}/threads`;
    return requestJson(this.ctx, 'POST', path, body, readChannelThread, 'a channel thread', opts);
  }
}
