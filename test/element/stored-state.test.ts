import { expect } from '@open-wc/testing';
import { createKey, forgetStorage, keyStats, storageKeyFor } from '../support/server.js';
import { $, input, mount, unmountAll, until } from '../support/element.js';

/**
 * What storage holds is checked where it is read (docs/architecture.md "Checked where it
 * enters"): another version of the widget, another script of the origin or a hand may have
 * written anything there. A bad field is dropped (with a console warning) and the rest
 * kept; the widget sends, and the next page does too.
 */
const MEGABYTE = 'x'.repeat(1_000_000);
const THREADISH = 'a'.repeat(24);

const hostile: Array<[string, Record<string, unknown>]> = [
  ['a history entry that is null', { history: [null] }],
  [
    'history entries of the wrong shape',
    { history: [{ id: 5 }, { id: THREADISH, title: 7 }, 'x', [], { id: THREADISH, title: 't', updatedAt: 'never' }] },
  ],
  ['a history that is not a list', { history: { id: THREADISH } }],
  ['a megabyte user id', { userId: MEGABYTE }],
  ['a user id that is not a string', { userId: { id: 1 } }],
  ['branch records of the wrong shape', { branches: [null, { from: 1, to: 2, turn: 'x' }, { from: THREADISH, to: THREADISH, turn: -1 }] }],
  ['drafts of the wrong shape', { drafts: { '': 5, nothex: 'x', [THREADISH]: { text: 'y' } }, draft: 12 }],
  ['drafts that are a list', { drafts: ['a', 'b'] }],
  ['a megabyte draft', { drafts: { '': MEGABYTE } }],
  ['a thread id that is not one', { threadId: { id: THREADISH } }],
  ['a running turn of the wrong shape', { turn: { body: null }, pending: 'yes' }],
  ['ratings of the wrong shape', { feedback: { [THREADISH]: 'sideways', '': 'up', x: null } }],
  ['a write count that is not one', { rev: 'many', unread: 3, claim: { x: 1 } }],
];

describe('<agent-chat> stored state that is not valid', function () {
  this.timeout(15_000);
  afterEach(() => {
    unmountAll();
    forgetStorage();
  });

  for (const [name, state] of hostile) {
    it(`${name}: dropped, and the widget sends, now and after a reload`, async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'answered' }] });
      localStorage.setItem(storageKeyFor(key), JSON.stringify(state));
      for (const page of ['first page', 'reload']) {
        const el = await mount({ 'publishable-key': key, persist: 'local', feedback: '' });
        expect($(el, '[part="error"]'), `${page}: no notice`).to.equal(null);
        await el.send(`asked on the ${page}`);
        await until(() => el.status === 'idle', `${page}: the turn ended`);
        expect(el.messages.map((m) => m.text).slice(-2), page).to.deep.equal([`asked on the ${page}`, 'answered']);
        expect($(el, '[part="error"]'), `${page}: no notice after the turn`).to.equal(null);
        expect(input(el).value.length, `${page}: the composer`).to.be.lessThan(1000);
        unmountAll();
      }
      const sent = (await keyStats(key)).requests.filter((r) => r.path.endsWith('/messages/stream'));
      for (const request of sent) expect(JSON.stringify(request.body).length, 'a request of normal size').to.be.lessThan(1000);
      const stored = localStorage.getItem(storageKeyFor(key))!;
      expect(stored.length, 'what is stored now is of normal size').to.be.lessThan(5000);
    });
  }
});
