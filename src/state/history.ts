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

export function remove(entries: readonly HistoryEntry[], id: string): HistoryEntry[] {
  return entries.filter((e) => e.id !== id);
}

/** "5 minutes ago", "yesterday": the largest unit that fits, in the UI language. */
export function relativeTime(iso: string, locale: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  let format: Intl.RelativeTimeFormat;
  try {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  } catch {
    format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  }
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}
