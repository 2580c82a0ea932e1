/** Feedback on replies (attribute `feedback`): a lazy chunk the turn controls fetch. */
export { FeedbackControl, styles } from './feedback.js';
export { strings } from './strings.js';
