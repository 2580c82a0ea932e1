import { addBranch } from '../../../src/state/branches.js';
import { touch } from '../../../src/state/history.js';
import type { Saved } from '../../../src/state/saved.js';

/** The changes the conversation and its features make to the kept lists (Saved.edit), as they make them. */
export const lists = {
  touch: (saved: Saved, id: string, title: string) => saved.edit('history', (history) => touch(history, id, title)),
  branch: (saved: Saved, from: string, turn: number, to: string) =>
    saved.edit('branches', (branches) => addBranch(branches, { from, turn, to }), { threadId: to }),
  forget: (saved: Saved, ids: readonly string[]) => saved.edit('history', (history) => history.filter((e) => !ids.includes(e.id))),
};
