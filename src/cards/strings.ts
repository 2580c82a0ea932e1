import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the product cards (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['cards']> = {
  recommended: 'Recommended',
  unavailable: 'unavailable',
  cardsLabel: 'Results',
  previousCards: 'Previous results',
  nextCards: 'Next results',
  cardLink: 'View details',
  yes: 'Yes',
  no: 'No',
  showMoreCards: (count) => `Show ${count} more results`,
};
