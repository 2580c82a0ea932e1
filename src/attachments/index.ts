/**
 * Image input, a lazy chunk: fetched with its stylesheet when the host sets `uploadImage`
 * (pages that take no images never download it). The state (`state.ts`: which files,
 * the upload through the host's function, the preview's object URL) and the composer's
 * templates (`templates.ts`).
 */
export { Attachments, checkImage, firstFile, uploadedImageUrl } from './state.js';
export { renderAttachControl, renderAttachment, renderDropHint } from './templates.js';
export { styles } from './attachments.styles.js';
