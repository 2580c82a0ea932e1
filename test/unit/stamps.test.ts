import { describe, expect, it } from 'vitest';
import { Stamps as Base } from '../../src/log/stamps.js';

/** A message's time stamp (src/log/stamps.ts): the time today, the day with it before. */
describe('time stamps', () => {
  const now = new Date(2026, 11, 7, 9, 30); // Mon 7 December 2026, 9:30 on this device's calendar
  const at = (days: number, hours: number, minutes = 0) => new Date(2026, 11, 7 - days, hours, minutes);
  // ICU puts a narrow no-break space before AM and PM since version 72: read as a space here.
  class Stamps extends Base {
    override format(date: Date, when = now): string {
      return super.format(date, when).replace(/\u202f/g, ' ');
    }
  }

  it('today: the time alone, in the reader’s language', () => {
    const en = new Stamps('en-US');
    expect(en.format(at(0, 0, 5), now)).toBe('12:05 AM');
    expect(en.format(at(0, 9, 29), now)).toBe('9:29 AM');
    expect(new Stamps('de').format(at(0, 9, 29), now)).toBe('9:29');
  });

  it('yesterday, this week, this year, before: the day joins the time', () => {
    const en = new Stamps('en-US');
    expect(en.format(at(1, 22), now)).toBe('Yesterday 10:00 PM');
    expect(en.format(at(1, 0, 1), now), 'just after the midnight before').toBe('Yesterday 12:01 AM');
    expect(en.format(at(3, 22), now)).toBe('Fri 10:00 PM');
    expect(en.format(at(6, 8), now)).toBe('Tue 8:00 AM');
    expect(en.format(at(7, 8), now)).toBe('Nov 30, 8:00 AM');
    expect(en.format(new Date(2025, 11, 24, 18, 0), now)).toBe('Dec 24, 2025, 6:00 PM');
  });

  it('says "yesterday" in the language, capitalised as it starts the stamp', () => {
    expect(new Stamps('de').format(at(1, 22), now)).toBe('Gestern 22:00');
    expect(new Stamps('fr').format(at(1, 22), now)).toBe('Hier 22:00');
  });

  it('a time ahead of this device’s clock reads as today; a tag Intl does not take, as the default language', () => {
    expect(new Stamps('en-US').format(new Date(2026, 11, 7, 11, 0), now)).toBe('11:00 AM');
    expect(new Stamps('not a tag!').format(at(0, 9), now)).toBe(
      new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(at(0, 9)),
    );
  });
});
