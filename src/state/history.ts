/** The threads this browser has had with one agent, newest first. */
export interface HistoryEntry {
  id: string;
  /** The first user message, shortened. */
  title: string;
  /** ISO time of the last activity. */
  updatedAt: string;
}

/** Enough to find an old conversation; storage stays small. */
export const HISTORY_LIMIT = 50;

export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Records activity on a thread; a known thread keeps its title and moves to the top. */
export function touch(entries: readonly HistoryEntry[], id: string, title: string, at = new Date()): HistoryEntry[] {
  const existing = entries.find((e) => e.id === id);
  const entry: HistoryEntry = { id, title: existing?.title || titleFrom(title), updatedAt: at.toISOString() };
  return [entry, ...entries.filter((e) => e.id !== id)].slice(0, HISTORY_LIMIT);
}
