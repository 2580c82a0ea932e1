import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the feedback thumbs (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['feedback']> = {
  feedbackLabel: 'Rate this reply',
  feedbackUp: 'Good reply',
  feedbackDown: 'Bad reply',
  feedbackReasonTitle: 'What was wrong?',
  feedbackInaccurate: 'Not accurate',
  feedbackUnhelpful: 'Not helpful',
  feedbackUnsafe: 'Harmful or offensive',
  feedbackOther: 'Tell us more (optional)',
  feedbackSend: 'Send',
  feedbackThanks: 'Thanks for your feedback',
};
