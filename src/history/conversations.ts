import { branchIndex } from '../state/branch-index.js';
import type { BranchEvent } from '../state/branches.js';

/**
 * The history as conversations rather than threads (src/state/branches.ts keeps how reruns
 * made threads of threads, src/state/branch-index.ts indexes them). Part of the history's
 * chunk: only its list needs it.
 */

/**
 * The history as a list of conversations: the branches of one conversation (regenerated or
 * edited turns) are one entry: the branch last active, under its own title (its first
 * question, so an edit of the first question retitles the entry). The branch navigator
 * reaches the others. `entries` are newest first.
 */
export function conversations<E extends { id: string; title: string }>(entries: readonly E[], events: readonly BranchEvent[]): E[] {
  if (!events.length) return [...entries];
  const index = branchIndex(events);
  const byRoot = new Map<string, E>();
  for (const entry of entries) {
    const root = index.root(entry.id);
    if (!byRoot.has(root)) byRoot.set(root, entry);
  }
  return [...byRoot.values()];
}

/** Every thread of the conversation `thread` belongs to (its root and all branches). */
export function conversationOf(events: readonly BranchEvent[], thread: string): string[] {
  return branchIndex(events).conversation(thread);
}
