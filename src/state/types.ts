import type { AgentVariables } from '../client/types.js';
import type { ThreadReason } from '../events.js';
import type { PersistMode } from './storage.js';

/** The conversation's status, an explicit union (docs/architecture.md); `render()` branches on it, never on loose flags. */
export type ChatStatus = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'error';

export type { ThreadReason };

export interface ChatConfig {
  baseUrl: string;
  publishableKey?: string;
  accessToken?: string;
  tokenProvider?: () => Promise<string>;
  userId?: string;
  threadId?: string;
  transport: 'sse' | 'rest' | 'websocket';
  agentVariables?: AgentVariables;
  persist: PersistMode;
  suggestionContext?: Record<string, unknown>;
  /** Pin reruns to an agent version (preview use). */
  versionId?: string;
  versionTag?: string;
  /** Characters of one reply shown; a longer one is cut there, with a note (`max-reply-length`). */
  maxReplyLength: number;
}

/** The agent version a rerun runs on instead of the live one: by id or by tag. */
export type VersionPin = Pick<ChatConfig, 'versionId' | 'versionTag'>;
