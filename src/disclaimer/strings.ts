import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the disclaimer (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['disclaimer']> = {
  disclaimerAccept: 'Accept',
  disclaimerHint: 'Accept the notice above to send. Your message is kept.',
};
