import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the history list (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['history']> = {
  removeConversation: 'Remove conversation',
  historyEmpty: 'No earlier conversations',
  closeHistory: 'Close conversations',
  untitledConversation: 'Untitled conversation',
};
