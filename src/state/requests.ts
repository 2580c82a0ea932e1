/**
 * What the conversation asks of the service, over the client: a client per configuration,
 * and opening a conversation. A turn goes through `AgentClient.turn()` (src/state/turns.ts).
 */
import { AgentClient } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import type { Message } from '../client/types.js';
import { sessionTokenCache } from './identity.js';
import type { ChatConfig } from './types.js';
import type { ConversationCode } from './code.js';

/**
 * The client of a configuration, its tokens exchanged for the conversation's user (`userId`,
 * read at each exchange). Only exchanged tokens are kept (the client checks), and only
 * where the host lets the widget keep anything: sessionStorage, for this tab.
 */
export function createClient(config: ChatConfig, scope: string, userId: () => string, code: ConversationCode): AgentClient {
  // The service, the credential and the reply limit, by the client's own names.
  return new AgentClient(
    { ...config, userId, tokenCache: config.persist === 'none' ? undefined : sessionTokenCache(scope) },
    { stream: code.stream, socket: code.websocket },
  );
}

/** What opening a conversation fetched (docs/protocol.md "Opening a conversation"). */
export interface FetchedConversation {
  welcome: string;
  /** The thread's messages, oldest first; null for a new conversation or an unknown thread. */
  transcript: Message[] | null;
  /** The stored thread is one the service no longer knows: not an error, start afresh. */
  unknownThread: boolean;
  /** Starter suggestions, fetched only when there is no transcript to show. */
  starters: string[];
}

/**
 * The welcome message, then either the thread's transcript or the starter suggestions
 * (asked with the page's URL and title under the host's `suggestionContext`).
 */
export async function fetchConversation(
  client: AgentClient,
  threadId: string | null,
  context: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<FetchedConversation> {
  let unknownThread = false;
  const transcript = async (id: string) => {
    try {
      return await client.transcript(id, { signal });
    } catch (error) {
      if (!isApiError(error) || error.status !== 404) throw error;
      unknownThread = true;
      return null;
    }
  };
  const [welcome, messages] = await Promise.all([client.welcomeMessage({ signal }), threadId ? transcript(threadId) : null]);
  const found = messages?.length ? messages : null;
  const page = typeof location !== 'undefined' ? { url: location.href, title: document.title } : {};
  const starters = found ? [] : await client.followupSuggestions({ ...page, ...context }, { signal });
  return { welcome, transcript: messages, unknownThread, starters };
}
