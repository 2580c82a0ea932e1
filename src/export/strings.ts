import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the save button (the other languages' tables carry it too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['export']> = {
  exportConversation: 'Save conversation',
};
