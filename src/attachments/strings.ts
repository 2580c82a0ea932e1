import { withDetails, type FeatureKeys, type Strings } from '../i18n/strings.js';

/** The English of the image input (the other languages' tables carry these too): added to the table when this chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['attachments']> = {
  attachImage: 'Attach image',
  removeAttachment: 'Remove attachment',
  attachmentTypeError: (name) => `“${name}” is not a supported image. Use PNG, JPEG, GIF or WebP.`,
  attachmentSizeError: (name, max) => `“${name}” is too large. Images can be up to ${max} MB.`,
  uploadingImage: 'Uploading image…',
  uploadFailed: (details) => withDetails('The image could not be uploaded.', details),
  uploadInvalidUrl: 'The image could not be uploaded: the upload returned an unusable address.',
  dropImage: 'Drop the image to attach it',
};
