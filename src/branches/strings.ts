import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of the turn controls (regenerate, edit, versions) (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['branches']> = {
  regenerate: 'Regenerate',
  edit: 'Edit',
  save: 'Save',
  cancel: 'Cancel',
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionPosition: (current, total) => `Version ${current} of ${total}`,
};
