import { type ChildPart, noChange, nothing } from 'lit-html';
import { Directive, directive } from 'lit-html/directive.js';
import { insertPart, setChildPartValue } from 'lit-html/directive-helpers.js';

type Key = (item: never) => string;
type Deps = (item: never, index: number) => readonly unknown[];
type Render = (item: never, index: number) => unknown;
type From = readonly unknown[];

/**
 * The log's list of messages: one part per key, kept while its key is shown (left in place,
 * or moved, never rebuilt, as messages come and go around it) and rendered again only when
 * one of its `deps` changed. Lit's `repeat` and `guard` do the same in two directives at
 * 0.6 KB of the inline budget, and lit-html 3.3's `repeat` left a comment node behind per
 * removed item (see `remove`). Keys must be unique, as for `repeat`.
 */
class KeyedList extends Directive {
  private __parts = new Map<string, { part: ChildPart; deps: readonly unknown[] }>();
  /** What the list was last drawn from. */
  private __from: From = [];

  render(_items: readonly unknown[], _key: Key, _deps: Deps, _render: Render, _from: From): unknown {
    return noChange;
  }

  override update(container: ChildPart, [items, key, deps, render, from]: Parameters<this['render']>): unknown {
    // Drawn from the same values as last time (a keystroke): not even the keys are walked.
    if (from.every((value, i) => value === this.__from[i])) return noChange;
    this.__from = from;
    const keys = items.map((item) => key(item as never));
    const shown = new Set(keys);
    // What leaves goes first: then every part that stays is in order already, and moves only
    // when the order itself changed.
    for (const [k, { part }] of this.__parts) if (!shown.has(k)) remove(part);
    const parts = new Map<string, { part: ChildPart; deps: readonly unknown[] }>();
    let next: ChildPart | undefined;
    for (let i = items.length; i--;) {
      const item = items[i] as never;
      const old = this.__parts.get(keys[i]!);
      const part = insertPart(container, next, old?.part);
      const now = deps(item, i);
      if (!old || now.some((value, j) => value !== old.deps[j])) setChildPartValue(part, render(item, i));
      parts.set(keys[i]!, { part, deps: now });
      next = part;
    }
    this.__parts = parts;
    return noChange;
  }
}

/**
 * Empties a part, then takes its two markers out. Lit-html 3.3's `removePart` leaves the
 * end marker in the DOM (lit/lit#5010): one comment node per message that ever left the log.
 */
function remove(part: ChildPart): void {
  setChildPartValue(part, nothing);
  // A part made by insertPart has both markers (they are typed as possibly absent for a root part).
  (part.startNode as ChildNode).remove();
  (part.endNode as ChildNode).remove();
}

/**
 * `render(item, index)` for each of `items`, in a part kept per `key(item)`; drawn again only
 * when `deps(item, index)` differs (by identity, value by value) from the last time. `from`:
 * everything `deps` and `render` read (`items` among them, or the items themselves led by
 * their count: a `from` of varying length must start with its length); the same values as
 * last time leave the list as it is.
 */
export const keyed = directive(KeyedList) as <T>(
  items: readonly T[],
  key: (item: T) => string,
  deps: (item: T, index: number) => readonly unknown[],
  render: (item: T, index: number) => unknown,
  from: readonly unknown[],
) => unknown;
