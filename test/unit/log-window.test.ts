import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOST, WINDOW } from '../../src/log/window.js';
import { moveWindow } from '../../src/log/reading.js';

/** A window of the log as the log keeps it: at most MOST messages, `end` ≤ `count`. */
const windows = fc
  .integer({ min: 1, max: 3000 })
  .chain((count) =>
    fc
      .integer({ min: 0, max: count - 1 })
      .chain((start) => fc.integer({ min: start + 1, max: Math.min(count, start + MOST) }).map((end) => ({ count, start, end }))),
  );

describe('the log window (src/log/reading.ts)', () => {
  it('takes in the message asked for, keeps at most MOST, and the edge it moved from', () => {
    fc.assert(
      fc.property(
        windows.chain((w) => fc.integer({ min: 0, max: w.count - 1 }).map((index) => ({ ...w, index }))),
        ({ count, start, end, index }) => {
          const next = moveWindow(start, end, index, count);
          const last = Math.min(next.end, count);
          expect(index).to.be.within(next.start, last - 1);
          expect(last - next.start).to.be.at.most(MOST);
          expect(next.end === Infinity || next.end < count).to.equal(true);
          // Inside the window nothing moves; toward an edge, at least a step (or to the end).
          if (index >= start && index < end) expect(next).to.deep.equal({ start, end: end < count ? end : Infinity });
          if (index < start) {
            expect(next.start).to.be.at.most(Math.max(0, start - WINDOW));
            if (index >= start - MOST + 1) expect(last).to.be.above(start); // the edge message stays
          }
          if (index >= end) {
            expect(last).to.be.at.least(Math.min(count, end + WINDOW));
            if (index < end + MOST - 1) expect(next.start).to.be.below(end); // the edge message stays
          }
        },
      ),
    );
  });

  it('reaching the latest follows them', () => {
    expect(moveWindow(1900, 1960, 1960, 2000)).to.deep.equal({ start: 1915, end: 1975 });
    expect(moveWindow(1925, 1985, 1985, 2000)).to.deep.equal({ start: 1940, end: Infinity });
    expect(moveWindow(15, 75, 14, 2000)).to.deep.equal({ start: 0, end: 60 });
  });
});
