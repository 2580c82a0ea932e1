import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { keepOpen, wasOpen } from '../../src/shell/tab-view.js';
import { readPlace } from '../../src/log/reading.js';
import { PREFIX } from '../../src/state/storage.js';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

const keys = (storage: Storage) => Array.from({ length: storage.length }, (_, i) => storage.key(i));

describe('what follows the visitor from page to page of a tab (src/shell/tab-view.ts)', () => {
  it('keeps the launcher open per scope, in this tab only', () => {
    keepOpen('local', 'a', true);
    keepOpen('session', 'b', true);
    keepOpen('session', 'b', false);
    expect(wasOpen('local', 'a')).to.equal(true);
    expect(wasOpen('local', 'b')).to.equal(false);
    expect(keys(sessionStorage)).to.deep.equal([`${PREFIX}a:open`]);
    expect(localStorage.length).to.equal(0);
  });

  it('keeps nothing with persist="none"', () => {
    keepOpen('none', 'a', true);
    expect(wasOpen('none', 'a')).to.equal(false);
    expect(sessionStorage.length).to.equal(0);
  });

  it('reads a kept reading place only when every field is well formed', () => {
    const place = { thread: '6b08919dd3f64f8dccac04c6', at: 'user:x:3', offset: -12 };
    sessionStorage.setItem(`${PREFIX}s:place`, JSON.stringify(place));
    expect(readPlace('local', 's')).to.deep.equal(place);
    expect(readPlace('none', 's')).to.equal(null);
    // In a long reply with boxes, the block at the log's top: kept when it is an index, dropped otherwise.
    sessionStorage.setItem(`${PREFIX}s:place`, JSON.stringify({ ...place, block: 150 }));
    expect(readPlace('local', 's')).to.deep.equal({ ...place, block: 150 });
    for (const block of [-1, 1.5, '150', null, 2 ** 60]) {
      sessionStorage.setItem(`${PREFIX}s:place`, JSON.stringify({ ...place, block }));
      expect(readPlace('local', 's'), String(block)).to.deep.equal(place);
    }
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (raw) => {
        sessionStorage.setItem(`${PREFIX}s:place`, raw);
        const read = readPlace('local', 's');
        if (read === null) return;
        const { block, ...rest } = read;
        expect(Object.keys(rest).sort()).to.deep.equal(['at', 'offset', 'thread']);
        expect(block === undefined || (Number.isSafeInteger(block) && block >= 0)).to.equal(true);
        expect(typeof read.thread === 'string' && read.thread.length <= 128).to.equal(true);
        expect(read.at === null || (typeof read.at === 'string' && read.at.length <= 128)).to.equal(true);
        expect(Number.isFinite(read.offset)).to.equal(true);
      }),
    );
  });
});
