/**
 * Hand-off to WhatsApp or SMS, a lazy chunk: fetched with its stylesheet when a page sets
 * `channels` (pages that offer no hand-off never download it). The header button, the
 * form and its state (phone number check, the channel-thread request).
 */
export { parseChannels, CHANNELS, CHANNEL_NAMES } from './channels.js';
export { renderChannelButton } from './button.js';
export { renderChannelForm } from './form.js';
export { HandOff, toE164 } from './state.js';
export { styles } from './handoff.styles.js';
export { HandOffControl } from './controller.js';
export { strings } from './strings.js';
