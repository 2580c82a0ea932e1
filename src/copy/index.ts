/** Copy a reply (part `copy-button`), a lazy chunk: feature.ts fetches it with the first finished reply. */
export { CopyReply } from './copy.js';
export { strings } from './strings.js';
export { smallButtonStyles as styles } from '../icons/small-buttons.styles.js';
