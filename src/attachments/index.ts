/**
 * Image input, a lazy chunk: fetched with its stylesheet when the host sets `uploadImage`
 * (pages that take no images never download it). The state (`state.ts`: which files,
 * the upload through the host's function, the preview's object URL), the composer's
 * templates (`templates.ts`) and the picker, paste, drop and send with an image
 * (`control.ts`).
 */
export { Attachments, checkImage, firstFile, uploadedImageUrl } from './state.js';
export { renderAttachControl, renderAttachment, renderDropHint } from './templates.js';
export { styles } from './attachments.styles.js';
export { AttachmentsControl } from './control.js';
export { strings } from './strings.js';
