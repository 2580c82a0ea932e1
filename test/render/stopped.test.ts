import { expect } from '@open-wc/testing';
import { oneShot } from '../support/markdown.js';

/**
 * A reply stopped or interrupted mid-syntax keeps the form it had while streaming (the
 * half-typed tail held back), rather than settling into artefacts: a table's pipes as
 * literal text, or a row of nothing but empty cells (`| |`).
 */
const TABLE = 'Here are two:\n\n| Brand | Price | Weight |\n|---|---|---|\n| Trailhead | $120 | 300 g |\n| Summit | $95 | 280 g |\n';

function artefacts(html: string): string[] {
  const box = document.createElement('div');
  box.innerHTML = html;
  const found: string[] = [];
  if (box.textContent!.includes('|')) found.push('literal pipes');
  for (const row of box.querySelectorAll('tr')) {
    if (![...row.cells].some((cell) => cell.textContent!.trim())) found.push('an empty row');
  }
  return found;
}

const cutsWith = (streaming: boolean) =>
  Array.from({ length: TABLE.length }, (_, i) => i + 1).filter((cut) => artefacts(oneShot(TABLE.slice(0, cut), { streaming })).length > 0);

describe('a reply cut off mid-table', () => {
  it('shows no pipes as text and no empty row at any cut, rendered as it streamed', () => {
    expect(cutsWith(true)).to.deep.equal([]);
  });

  it('would show them at some cuts if settled as finished text (what a stopped reply avoids)', () => {
    expect(cutsWith(false).length > 0).to.equal(true);
  });
});
