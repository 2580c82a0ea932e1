import type { AgentVariables, ChannelThreadBody, RerunBody, SendMessageBody } from './types.js';

/**
 * Request bodies built from what the widget knows, in one place: state speaks in its own
 * terms (camelCase, absent rather than empty) and only the client knows the wire's field
 * names and which of them the service wants left out when empty (docs/protocol.md).
 */

export interface TurnRequest {
  text: string;
  userId: string;
  /** The conversation to continue; absent to start one. */
  threadId?: string | null;
  imageUrl?: string;
  agentVariables?: AgentVariables;
}

export function turnBody(turn: TurnRequest): SendMessageBody {
  const body: SendMessageBody = { text: turn.text, user_id: turn.userId };
  if (turn.threadId) body.thread_id = turn.threadId;
  if (turn.imageUrl) body.image_url = turn.imageUrl;
  if (turn.agentVariables) body.agent_variables = turn.agentVariables;
  return body;
}

export interface RerunRequest {
  /** The reply the new branch replaces. */
  replyId: string;
  text: string;
  userId: string;
  imageUrl?: string;
  versionId?: string;
  versionTag?: string;
}

export function rerunBody(rerun: RerunRequest): RerunBody {
  const body: RerunBody = { interaction_id: rerun.replyId, text: rerun.text, user_id: rerun.userId };
  if (rerun.imageUrl) body.image_url = rerun.imageUrl;
  if (rerun.versionId) body.version_id = rerun.versionId;
  if (rerun.versionTag) body.version_tag = rerun.versionTag;
  return body;
}

export interface HandOffRequest {
  userId: string;
  /** Sent as `agent_display_name` when not blank. */
  agentDisplayName?: string;
  /** Already E.164. */
  phoneNumber: string;
  /** The current thread, when there is one: the service binds the number to it. */
  threadId?: string | null;
}

export function handOffBody(request: HandOffRequest): ChannelThreadBody {
  const body: ChannelThreadBody = { user_id: request.userId, phone_number: request.phoneNumber };
  const name = request.agentDisplayName?.trim();
  if (name) body.agent_display_name = name;
  if (request.threadId) body.thread_id = request.threadId;
  return body;
}
