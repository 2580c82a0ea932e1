import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the read-aloud button (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['readAloud']> = {
  readAloud: 'Read aloud',
  readAloudStop: 'Stop reading',
};
