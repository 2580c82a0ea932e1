/**
 * The agent service client: the only code of the widget that speaks HTTP. Tree-shakable;
 * usable without the element (`agent-chat/client`).
 */
import { AgentClient as Client, type ClientConfig } from './client.js';
import * as stream from './stream.js';
import * as socket from './websocket.js';

/**
 * The client with its streaming code in the same bundle: a bundler splits it as the app
 * needs. (The widget fetches that code as chunks, src/chunks.ts.)
 */
export class AgentClient extends Client {
  constructor(config: ClientConfig) {
    super(config, { stream: async () => stream, socket: async () => socket });
  }
}
export type { ClientConfig, StreamingCode, Transport } from './client.js';
export { ApiError, isApiError, isRetryableStatus, parseRetryAfter, type ApiErrorInit, type ErrorKind } from './errors.js';
export type { RequestOptions } from './http.js';
export { errorFromFrame, parseFrame, readFrames, type DataFrame, type FrameCallbacks, type ReadOutcome } from './sse.js';
export { backoffDelay, type StreamHandlers, type StreamOptions, type StreamResult } from './stream.js';
export { SESSION_PATH, sessionUrl, streamOverSocket } from './websocket.js';
export { TokenManager, jwtExpiry, jwtPayload, refreshTime, type CachedToken, type TokenCache, type TokenSource } from './token.js';
export {
  ManagementClient,
  tokenAccess,
  type AgentVersion,
  type ThreadRecord,
  type TokenAccess,
  type Trace,
  type TraceError,
  type TraceStep,
} from './management.js';
export { isMessage } from './guards.js';
export * from './types.js';
