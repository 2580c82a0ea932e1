import type { Message } from '@agent-chat/wire';
import type { KeyLimits } from './limits.js';

/**
 * What the stores keep, as the server's code reads it (the rows of schema.ts, camel-cased).
 * Plain data: a record changes only through its store's operations, never by mutation.
 */

/**
 * A publishable key: the demo shop's (`demo`), one an operator defined for an agent
 * (`operator`), or one a test minted with a fault plan (`minted`, only with the fault knobs).
 */
export interface KeyRecord {
  key: string;
  agentId: string;
  kind: 'demo' | 'operator' | 'minted';
  /** A minted key's fault plan, as the test wrote it (faults/plan.ts reads it); `{}` for the others. */
  plan: Readonly<Record<string, unknown>>;
  /** What the key may hold and ask for (limits.ts). */
  limits: KeyLimits;
  /** Seconds its access tokens live, when not the default (a minted key's plan may set it). */
  tokenTtl?: number;
  createdAt: string;
}

/** What a version says about its agent's answers (docs/protocol.md "Agents"). */
export interface VersionSettings {
  /** The welcome message template (`{{name}}` placeholders from `agent_variables.static`). */
  welcome?: string;
  /** Starter suggestions, shown before the first message. */
  suggestions?: string[];
  /** The model bridge's model for this version (else the server's `AGENT_MODEL`). */
  model?: string;
  /** The system prompt's instructions, before the welcome message and the variables. */
  instructions?: string;
  /** The scripted demo agent's preview script (its replies say which version answered). */
  preview?: boolean;
}

export interface AgentVersion {
  id: string;
  tag: string;
  /** The lifecycle stages the reference names; the server has two of them. */
  state: 'draft' | 'published';
  /** The agent's name as this version was last published (a rename re-publishes the live one). */
  name: string | null;
  createdAt: string;
  publishedAt: string | null;
  settings: VersionSettings;
}

export interface AgentRecord {
  id: string;
  projectId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  liveVersionId: string;
  /** Oldest first. */
  versions: AgentVersion[];
}

/** What a thread's traces recorded, for the thread list's `tool`, `rule` and `param` filters. */
export interface Facets {
  tools: string[];
  /** Rule code → the outcomes it had. */
  rules: Record<string, string[]>;
  /** Parameter key → the values it took. */
  params: Record<string, Array<string | number | boolean>>;
}

export interface ThreadRecord {
  id: string;
  agentId: string;
  projectId: string;
  /** The publishable key whose budget the thread counts against. */
  key: string;
  userId: string;
  /**
   * The visitor it belongs to: the `user_id` of the token that created it (auth/tokens.ts),
   * and only a token exchanged for that visitor opens it on the messaging surface. Null for
   * a thread created with a token exchanged without one (docs/protocol.md "Visitors").
   */
  visitor: string | null;
  title: string | null;
  createdAt: string;
  /** Its last turn or change (a rename, a new turn). */
  updatedAt: string;
  /** The version of its latest turn: the agent's live one, or the one a rerun pinned. */
  versionId: string;
  versionTag: string;
  /** Made by a rerun pinned to a version: its turns keep running on it. */
  pinned: boolean;
  /** Set by management (PATCH): a caller's id for the thread; its welcome message and suggestions when changed there. */
  externalId: string | null;
  welcome: string | null;
  suggestions: string[] | null;
  /** Last `seq` a finished turn handed out; numbering continues across the turns of a thread. */
  lastSeq: number;
  /** Its latest turn's interaction id: the one a resume attaches to. */
  latestTurn: string | null;
  branchedFrom: { threadId: string; interactionId: string } | null;
  channels: Array<{ channel: string; phoneNumber: string; boundAt: string }>;
  facets: Facets;
  messageCount: number;
  /** Counted bytes (limits.ts `sizeOf`): its messages, traces and latest turn's frames. */
  bytes: number;
}

/** How a turn ended; `interrupted`: the server stopped while it ran. */
export type TurnStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

export type TurnResult =
  | { ok: true; message: Message }
  /**
   * `code`: the envelope's code for a REST caller (the agent's failure), when not the status's;
   * `retryAfter`: the seconds the agent said to wait (a model's `Retry-After`), its `Retry-After`.
   */
  | { ok: false; message: string; status: number; code?: string; retryAfter?: number };

/** A turn's result as its record keeps it: the reply itself is the transcript's. */
export type StoredTurnResult = ({ ok: true } | { ok: false; message: string; status: number; code?: string; retryAfter?: number }) & {
  /** Counted bytes of its frames, while it is its thread's latest turn. */
  frame_bytes?: number;
};

export interface TurnRecord {
  id: string;
  threadId: string;
  key: string;
  userId: string;
  userText: string;
  /** The thread's last seq when the turn began: its frames come after it. */
  startSeq: number;
  status: TurnStatus;
  /** Set when it ended. An ok turn's reply is kept once, in the transcript (its id is the turn's). */
  result: StoredTurnResult | null;
  idempotencyKey: string | null;
  /** Who started it, as far as the service knows them: the token's session (its `jti`). */
  caller: string;
  /** It started its thread (the request named none): a new conversation. */
  openedThread: boolean;
  createdAt: string;
  endedAt: string | null;
}

/**
 * One frame of a turn's log: its replay position (the frame's `seq`, or for an unsequenced
 * error frame the previous seq plus one half, so a resume from that seq still gets it).
 */
export interface LoggedFrame {
  key: number;
  frame: { type: string; seq?: number; data: unknown };
}
