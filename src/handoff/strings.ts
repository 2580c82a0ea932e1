import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the WhatsApp/SMS hand-off (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['handoff']> = {
  channelButton: (channel) => `Continue on ${channel}`,
  channelPhoneLabel: 'Phone number',
  channelSubmit: 'Continue',
  channelCancel: 'Cancel',
  channelDone: (channel) => `The conversation continues on ${channel}.`,
  channelBack: 'Back to chat',
  channelGeneric: 'Continue on your phone',
  channelChoice: 'Continue on',
  channelPhoneHint: 'With country code, e.g. +1 415 555 0123',
  channelPhoneInvalid: 'Enter the full number with its country code, starting with +.',
  channelConsent: (channel) => `By continuing you agree to receive messages from us on ${channel} at this number.`,
  channelFailed: 'The conversation could not be moved to your phone.',
  channelSending: 'Sending…',
};
