import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the dictation (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['voice']> = {
  dictate: 'Dictate',
  dictateStop: 'Stop dictation',
  micDenied: 'The microphone is blocked. Allow it in the browser to dictate.',
  dictationFailed: 'Dictation stopped: speech could not be recognised.',
};
