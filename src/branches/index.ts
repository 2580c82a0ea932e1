/**
 * Branches, a lazy chunk fetched with the first message sent (or as a thread loads):
 * regenerate and edit as reruns into new threads, and the navigator between the versions
 * of a turn. The branch relations themselves are kept by the conversation's state
 * (src/state/branches.ts).
 */
export { renderBranchNav, renderEditButton, renderRegenerate } from './controls.js';
export { renderEditor, type EditorOptions } from './editor.js';
export { styles } from './branches.styles.js';
export { TurnControls } from './controller.js';
export { strings } from './strings.js';
