/**
 * The agent service client: the only code of the widget that speaks HTTP. Tree-shakable;
 * usable without the element (`agent-chat/client`).
 */
export { AgentClient, type ClientConfig } from './client.js';
export { ApiError, isApiError, isRetryableStatus, parseRetryAfter, type ApiErrorInit, type ErrorKind } from './errors.js';
export type { RequestOptions } from './http.js';
export { errorFromFrame, parseFrame, readFrames, type DataFrame, type FrameCallbacks, type ReadOutcome } from './sse.js';
export { backoffDelay, type StreamHandlers, type StreamOptions, type StreamResult } from './stream.js';
export { SESSION_PATH, sessionUrl, streamOverSocket } from './websocket.js';
export { TokenManager, jwtExpiry, refreshTime, type CachedToken, type TokenCache, type TokenSource } from './token.js';
export { isMessage } from './guards.js';
export * from './types.js';
