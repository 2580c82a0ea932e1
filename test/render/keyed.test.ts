import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { html, render } from 'lit-html';
import { keyed } from '../../src/log/keyed.js';

/**
 * The log's keyed list (src/log/keyed.ts), under random changes of the list: it shows the
 * items in order, keeps the element of every key that stays, renders an item only when its
 * deps changed, and leaves no node behind for an item that went.
 */
interface Item {
  key: string;
  version: number;
}

describe('keyed list', () => {
  it('shows any sequence of lists in order, keeping the nodes of the keys that stay', () => {
    const list = fc.uniqueArray(fc.record({ key: fc.constantFrom(...'abcdefghij'), version: fc.nat(2) }), {
      selector: (item) => item.key,
      maxLength: 10,
    });
    fc.assert(
      fc.property(fc.array(list, { minLength: 1, maxLength: 12 }), (lists) => {
        const box = document.createElement('div');
        let rendered = 0;
        const draw = (items: Item[], into = box) =>
          render(
            html`<p>before</p>${keyed(
              items,
              (item) => item.key,
              (item) => [item.version],
              (item) => (rendered++, html`<b data-key=${item.key}>${item.key}${item.version}</b>`),
              [items],
            )}<p>after</p>`,
            into,
          );
        // The template's own nodes (paragraphs, lit's markers), without any item.
        const bare = document.createElement('div');
        draw([], bare);
        const empty = bare.childNodes.length;
        let previous: Item[] = [];
        for (const items of lists) {
          const before = new Map([...box.querySelectorAll('b')].map((b) => [b.dataset.key!, b]));
          rendered = 0;
          draw(items);
          const shown = [...box.querySelectorAll('b')];
          expect(shown.map((b) => b.textContent)).to.deep.equal(items.map((item) => `${item.key}${item.version}`));
          for (const b of shown)
            if (before.has(b.dataset.key!)) expect(b, `the node of ${b.dataset.key} is kept`).to.equal(before.get(b.dataset.key!));
          const changed = items.filter((item) => previous.find((p) => p.key === item.key)?.version !== item.version).length;
          expect(rendered, 'items rendered').to.equal(changed);
          // Each item: its element and its part's two markers, besides the template's own nodes.
          expect(box.childNodes.length, 'nodes in the box').to.equal(empty + items.length * 3);
          previous = items;
        }
        draw([]);
        expect(box.childNodes.length, 'nothing left of the items').to.equal(empty);
      }),
      { numRuns: 200 },
    );
  });

  it('drawn from the same values again (a keystroke), walks nothing; a value that changed walks the list', () => {
    const box = document.createElement('div');
    const items: Item[] = [
      { key: 'a', version: 0 },
      { key: 'b', version: 0 },
    ];
    let calls = 0;
    const draw = (from: unknown[], list = items) =>
      render(
        keyed(
          list,
          (item) => (calls++, item.key),
          (item) => (calls++, [item.version]),
          (item) => (calls++, html`<b>${item.key}${item.version}</b>`),
          from,
        ),
        box,
      );
    draw([items, 1]);
    calls = 0;
    draw([items, 1]);
    expect(calls, 'nothing called').to.equal(0);
    // A list changed in place with the same `from` is the caller's mistake: what shows stays as it was.
    draw([items, 1], [{ key: 'a', version: 1 }]);
    expect(box.textContent).to.equal('a0b0');
    draw([items, 2], [{ key: 'a', version: 1 }]);
    expect(box.textContent).to.equal('a1');
    expect(calls).to.be.greaterThan(0);
  });

  it("drawn from its items themselves (the log's hidden messages): a new array of them walks nothing, a shorter one drops the rest", () => {
    const box = document.createElement('div');
    const [a, b, c] = ['a', 'b', 'c'].map((key) => ({ key, version: 0 }));
    let calls = 0;
    const draw = (list: Item[]) =>
      render(
        keyed(
          list,
          (item) => (calls++, item.key),
          (item) => [item],
          (item) => html`<b>${item.key}</b>`,
          [list.length, ...list],
        ),
        box,
      );
    draw([a!, b!, c!]);
    calls = 0;
    // A streamed token makes a new array of the same messages: none of them is looked at.
    draw([a!, b!, c!]);
    expect(calls, 'no key worked out').to.equal(0);
    // The window grew over the last one: the list is its first two, and shows them only.
    draw([a!, b!]);
    expect(box.textContent).to.equal('ab');
    expect(calls).to.be.greaterThan(0);
  });
});
