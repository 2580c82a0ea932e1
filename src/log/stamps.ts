const TIME = { hour: 'numeric', minute: '2-digit' } as const;
const DAY_MS = 86_400_000;

function format(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(lang, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options); // a language tag Intl does not take
  }
}

/** The day of `date` on this device's calendar, as a number: days apart are numbers apart. */
const localDay = (date: Date): number => Math.floor((date.getTime() - date.getTimezoneOffset() * 60_000) / DAY_MS);

/**
 * A message's time stamp in the reader's language: the time alone for today's messages, with
 * the day for older ones, so a conversation picked up the next morning does not read as one
 * evening ("Yesterday 10:00 PM", "Mon 10:00 PM" within the week, "Dec 1, 10:00 PM" this
 * year, "Dec 1, 2025, 10:00 PM" before). The time's formatter is made with it (the first
 * Intl object of a page is the costly one: the log makes this when the browser is idle);
 * the others on their first use, by the stamps of older messages only.
 */
export class Stamps {
  private readonly __time: Intl.DateTimeFormat;
  private __yesterday: string | undefined;
  private __week: Intl.DateTimeFormat | undefined;
  private __date: Intl.DateTimeFormat | undefined;
  private __year: Intl.DateTimeFormat | undefined;

  constructor(private readonly __lang: string) {
    this.__time = format(__lang, TIME);
  }

  format(date: Date, now = new Date()): string {
    const lang = this.__lang;
    const days = localDay(now) - localDay(date);
    // Today, or ahead of this device's clock: the time says it.
    if (days < 1) return this.__time.format(date);
    if (days === 1) return `${(this.__yesterday ??= yesterday(lang))} ${this.__time.format(date)}`;
    if (days < 7) return (this.__week ??= format(lang, { weekday: 'short', ...TIME })).format(date);
    if (date.getFullYear() === now.getFullYear())
      return (this.__date ??= format(lang, { month: 'short', day: 'numeric', ...TIME })).format(date);
    return (this.__year ??= format(lang, { year: 'numeric', month: 'short', day: 'numeric', ...TIME })).format(date);
  }
}

/** "Yesterday" in `lang`, capitalised as it starts the stamp. */
function yesterday(lang: string): string {
  let word: string;
  try {
    word = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(-1, 'day');
  } catch {
    word = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-1, 'day');
  }
  try {
    return word.charAt(0).toLocaleUpperCase(lang) + word.slice(1);
  } catch {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
}
