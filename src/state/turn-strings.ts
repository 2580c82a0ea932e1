import type { FeatureKeys, Strings } from '../i18n/strings.js';

/**
 * The English of what only a turn can say (a reply stopped or cut off, a stream resuming,
 * another tab's message at the same moment), added when the turns' chunk arrives; the other
 * languages' tables carry these too.
 */
export const strings: Pick<Strings, FeatureKeys['turns']> = {
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  reconnecting: 'Reconnecting…',
  errorStreamInterrupted: 'The reply was interrupted.',
  // The service said why: the agent's model, not the visitor (who sent one message).
  errorModelBusy: (seconds) =>
    seconds
      ? `The assistant is busy right now. Try again in ${seconds} s.`
      : 'The assistant is busy right now. Please try again in a moment.',
  errorModelUnavailable: 'The assistant is unavailable right now. Please try again later.',
  errorModelFailed: 'The assistant could not answer this time. Please try again.',
  otherTab: 'Another tab sent a message at the same moment. Yours is back in the text field.',
  unsent: 'Your message did not reach the service before the page changed. It is back in the text field.',
};
