import type { Message } from '@agent-chat/wire';

/**
 * A turn the server stopped before it ended (a shutdown past its grace period, a crash, a
 * kill): what its clients and its transcript are told (docs/protocol.md "Restarts").
 */

/** What an interrupted turn's error frame says, and its envelope code. */
export const INTERRUPTED = {
  code: 'turn.interrupted',
  status: 503,
  message: 'The server stopped before this reply was complete.',
} as const;

/** The line an interrupted reply ends with in the transcript (messages have no state field). */
export const INTERRUPTED_NOTE = '_(This reply was interrupted: the server stopped before it was complete.)_';

/** The reply an interrupted turn leaves in its transcript: what it had said, then the note. */
export function interruptedReply(id: string, text: string, userId: string): Message {
  return {
    id,
    created_at: new Date().toISOString(),
    text: text ? `${text}\n\n${INTERRUPTED_NOTE}` : INTERRUPTED_NOTE,
    sender: { type: 'agent' },
    receiver: { type: 'user', id: userId },
    cards: [],
    followup_suggestions: [],
    input_tokens: 0,
    output_tokens: 0,
  };
}
