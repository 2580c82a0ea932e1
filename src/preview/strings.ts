import { type FeatureKeys, type Strings, withDetails } from '../i18n/strings.js';

/**
 * The English of the builder's preview (the other languages' tables carry these too): added
 * to the table when this chunk arrives.
 */
export const strings: Pick<Strings, FeatureKeys['preview']> = {
  trace: 'Trace',
  closeTrace: 'Close trace',
  traceLoading: 'Loading the trace…',
  traceFailed: (details) => withDetails('The trace could not be loaded.', details),
  traceTruncated: 'More steps were recorded than are shown.',
  rerunVersion: 'Rerun on a version',
  versionLive: (tag) => `${tag} (live)`,
  untitledThread: 'Untitled',
  renameThread: 'Rename',
  saveTitle: 'Save',
  cancelRename: 'Cancel',
  threadTitle: 'Thread title',
  renameFailed: (details) => withDetails('The title could not be saved.', details),
  previewNoManagement: 'Preview off: this token serves messaging only (its scope has no "management"). Sign in as a builder to preview.',
  previewRefused: 'Preview off: the service refused management with this token.',
};
