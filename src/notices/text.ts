import type { Strings } from '../i18n/index.js';
import type { Notice } from '../state/notice.js';

/** What a conversation notice says, in the UI language. */
export function noticeText(t: Strings, notice: Notice): string {
  switch (notice.kind) {
    case 'offline':
      return t.errorOffline;
    case 'network':
      return t.errorNetwork;
    case 'auth':
      return t.errorAuth;
    case 'validation':
      return t.errorValidation();
    case 'rate-limit':
      return t.errorRateLimited(waitSeconds(notice.retryAt));
    case 'server':
      return t.errorServer;
    case 'timeout':
      return t.errorTimeout;
    case 'stream':
      return t.errorStreamInterrupted;
    case 'model-busy':
      return t.errorModelBusy(waitSeconds(notice.retryAt));
    case 'model-unavailable':
      return t.errorModelUnavailable;
    case 'model-failed':
      return t.errorModelFailed;
    case 'config':
      return t.errorConfiguration();
    case 'thread-gone':
      return t.threadGone;
    case 'other-tab':
      return t.otherTab;
    case 'unsent':
      return t.unsent;
    case 'chunk':
      return t.loadFailed;
    default:
      return t.errorGeneric;
  }
}

/**
 * Seconds to wait before `retryAt`, for the rate-limit notice: a figure a reader can act
 * on, 1 to 120. A longer wait reads "please wait a moment" rather than "7,200 s".
 */
export function waitSeconds(retryAt: number | undefined): number | undefined {
  if (retryAt === undefined || !Number.isFinite(retryAt)) return undefined;
  const seconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return seconds <= 120 ? seconds : undefined;
}
