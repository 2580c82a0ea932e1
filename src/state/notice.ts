import { ApiError } from '../client/errors.js';
import { offline } from './online.js';

/** What went wrong, in the terms a reader needs: each kind has its own wording and action. */
export type NoticeKind =
  | 'offline'
  | 'network'
  | 'auth'
  | 'validation'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'stream'
  /** The agent's model failed the turn: busy, unreachable, or it refused (the service said which). */
  | 'model-busy'
  | 'model-unavailable'
  | 'model-failed'
  | 'config'
  /** The stored conversation is gone from the service; not an error of the reader's. */
  | 'thread-gone'
  /** Another tab's turn has the conversation: this tab's question is back in its composer. */
  | 'other-tab'
  /** A page before this one sent the question and went; it never reached the service and is back in the composer. */
  | 'unsent'
  /** A chunk of the widget's code (the turns, the streaming code) could not be fetched or did not run. */
  | 'chunk'
  | 'generic';

/** What the retry button does: resend the failed text, reload the conversation, or nothing. */
export type RetryAction = 'send' | 'load' | null;

export interface Notice {
  kind: NoticeKind;
  /** Per-field messages from the error envelope, shown under the notice. */
  details: string[];
  retry: RetryAction;
  /** When the server asked to wait (Retry-After), retry is offered after this time. */
  retryAt?: number;
  error?: ApiError;
}

/**
 * The service's codes for a turn its agent's model failed (docs/protocol.md): what the
 * visitor reads names the assistant, not the visitor's messages or the connection.
 */
const MODEL_FAILURES: Record<string, NoticeKind> = {
  'agents.model_rate_limited': 'model-busy',
  'agents.model_unavailable': 'model-unavailable',
  'agents.model_error': 'model-failed',
};

/** The service's code for a page on an origin it does not serve (server/README.md "Running it for others"). */
const ORIGIN_REFUSED = 'cors.origin_not_allowed';

export function noticeKind(error: ApiError): NoticeKind {
  if (error.code === 'chunk') return 'chunk';
  // Not the visitor's to fix, nor a sign-in that may work later: the site's setup.
  if (error.code === ORIGIN_REFUSED) return 'config';
  if (Object.hasOwn(MODEL_FAILURES, error.code)) return MODEL_FAILURES[error.code]!;
  // A request that may have started the turn: the reply was cut off, not the connection.
  if (error.mayHaveRun) return 'stream';
  switch (error.kind) {
    case 'network':
      return offline() ? 'offline' : 'network';
    case 'auth':
      return 'auth';
    case 'timeout':
      return 'timeout';
    case 'stream':
      return error.status === 429 ? 'rate-limit' : 'stream';
    case 'protocol':
      return 'stream';
    case 'http':
      if (error.status === 429) return 'rate-limit';
      if (error.status === 401 || error.status === 403) return 'auth';
      if (error.status !== null && error.status >= 500) return 'server';
      if (error.status === 400 || error.status === 413 || error.status === 422) return 'validation';
      return 'generic';
    default:
      return 'generic';
  }
}

export function noticeFor(error: ApiError, retry: RetryAction): Notice {
  const kind = noticeKind(error);
  return {
    kind,
    error,
    details: error.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)),
    // A request the server judged invalid fails the same way again; the reader edits instead.
    // Nor does a refused setup (the site's to fix) pass on a retry.
    retry: kind === 'validation' || kind === 'config' ? null : retry,
    retryAt: error.retryAfterMs != null ? Date.now() + error.retryAfterMs : undefined,
  };
}

/**
 * What the page's developer reads in the console beside the visitor's notice, where the
 * service's own words say more than the notice may: a model's failure, or a refusal of this
 * page's origin with the setting that fixes it. Null for the rest.
 */
export function developerNote(error: ApiError, kind: NoticeKind): string | null {
  if (kind.startsWith('model-')) return `the agent's model failed the reply (${error.code}): ${error.message}`;
  if (error.code !== ORIGIN_REFUSED) return null;
  const page = globalThis.location?.origin ?? 'this page';
  return `the service refused pages on ${page} (${error.code}): add ${page} to the origins it allows (ALLOWED_ORIGINS for agent-chat-server). It said: ${error.message}`;
}

/** The payload of `agent-chat-error`, as the README documents it. */
export function errorDetail(error: ApiError) {
  return {
    // A malformed stream is, to the host, a stream failure like any other.
    code: error.kind === 'protocol' ? 'stream' : error.code,
    message: error.message,
    status: error.status,
    requestId: error.requestId,
    retryable: error.retryable,
  };
}
