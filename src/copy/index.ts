/** Copy a reply (part `copy-button`), a lazy chunk: slot.ts fetches it with the first finished reply. */
export { CopyReply } from './copy.js';
export { strings } from './strings.js';
