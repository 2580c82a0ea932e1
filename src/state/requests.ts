/**
 * What the conversation asks of the service, over the client: a client per configuration,
 * opening a conversation, and delivering a turn over the configured transport.
 */
import { AgentClient } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import type { StreamHandlers, StreamOptions } from '../client/stream.js';
import type { Message, SendMessageBody } from '../client/types.js';
import { sessionTokenCache } from './identity.js';
import type { ChatConfig } from './types.js';

/**
 * The client of a configuration. Only exchanged tokens are kept (the client checks), and
 * only where the host lets the widget keep anything: sessionStorage, for this tab.
 */
export function createClient(config: ChatConfig, scope: string): AgentClient {
  return new AgentClient({
    baseUrl: config.baseUrl,
    publishableKey: config.publishableKey,
    accessToken: config.accessToken,
    tokenProvider: config.tokenProvider,
    tokenCache: config.persist === 'none' ? undefined : sessionTokenCache(scope),
  });
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

/**
 * Sends one turn over the configured transport and resolves with the final reply (null when
 * a stream ended without one). The service has taken the turn once `onThread` is called:
 * REST calls it with the response, the streams with their `thread` frame. Both streams
 * resume a dropped connection the same way and share the handlers (src/client/stream.ts).
 */
export async function deliverTurn(
  client: AgentClient,
  transport: ChatConfig['transport'],
  body: SendMessageBody,
  signal: AbortSignal,
  handlers: StreamHandlers,
  resume?: StreamOptions['resume'],
): Promise<Message | null> {
  if (transport === 'rest') {
    const response = await client.send(body, { signal });
    handlers.onThread?.(response.thread_id);
    return response.message;
  }
  const stream = transport === 'websocket' ? client.streamSocket.bind(client) : client.stream.bind(client);
  return (await stream(body, handlers, { signal, resume })).message;
}
