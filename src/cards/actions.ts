/**
 * Card actions (property `cardActions`): buttons on each built-in card (part `card-action`),
 * and the options of its `sub_entities` groups made choosable, one per group (part
 * `card-variant`, `aria-pressed`). A press fires `agent-chat-card-action` with the action,
 * the card and the options chosen as the agent sent them, so a shop can put the chosen size
 * in its cart or open a size guide without leaving the chat.
 */
import { html, nothing } from 'lit-html';
import type { Card } from '../client/types.js';
import type { Strings } from '../i18n/strings.js';
import { warnOnce } from '../warn.js';

export interface CardAction {
  /** What the host's handler tells actions apart by, e.g. `add-to-cart`. */
  id: string;
  /** The button's text. */
  label: string;
}

/** An option the reader chose: its group's name and the item, as the agent sent them. */
export interface CardVariantChoice {
  group: string;
  item: unknown;
}

/** The chosen option of each variant group of one card (an index into its options). */
export type Choices = Array<number | undefined>;

/** What of a card's view (cards.ts `CardVariantGroup`) the choices read. */
interface VariantGroup {
  key: string;
  options: Array<{ label: string; available: boolean; item: unknown }>;
}

/** A card is a summary: a few actions at most, with short labels. */
const MAX_ACTIONS = 4;
const MAX_LABEL = 40;

const checked = new WeakMap<object, CardAction[]>();

/** `cardActions` as the host set it, checked once per value: bad entries are dropped with a warning. */
export function cardActions(value: unknown): CardAction[] {
  if (!Array.isArray(value)) {
    if (value != null) warnOnce('cardActions must be an array of {id, label}; no card actions are shown.');
    return [];
  }
  let actions = checked.get(value);
  if (!actions) {
    actions = value
      .filter(
        (a): a is CardAction => !!a && typeof a.id === 'string' && a.id !== '' && typeof a.label === 'string' && a.label.trim() !== '',
      )
      .slice(0, MAX_ACTIONS)
      .map((a) => ({ id: a.id, label: a.label.trim().slice(0, MAX_LABEL) }));
    if (actions.length < Math.min(value.length, MAX_ACTIONS)) warnOnce('cardActions: entries without a string id and label are left out.');
    checked.set(value, actions);
  }
  return actions;
}

/**
 * What a host's card reports through `api.action(id, variant)` (src/cards/cards.ts
 * `CardRendererApi`), in the shape a built-in card's press has: the `cardActions` entry of
 * that id, else `{id, label: id}`; `variant` as the card gives it. Null for an id that is
 * not a string, which only warns: a card's bug must not break the row.
 */
export function customAction(actions: readonly CardAction[], id: unknown, variant: unknown): Omit<CardActionPress, 'card'> | null {
  if (typeof id !== 'string' || !id) {
    warnOnce('a card renderer called api.action() without an action id; nothing was fired.');
    return null;
  }
  if (variant != null && !Array.isArray(variant))
    warnOnce('api.action(id, variant): variant must be an array of {group, item}; [] was sent.');
  return { action: actions.find((a) => a.id === id) ?? { id, label: id }, variant: Array.isArray(variant) ? variant : [] };
}

/** The chosen options of a card, for `agent-chat-card-action`. */
export function chosenVariant(view: { variants: VariantGroup[] }, choices: Choices): CardVariantChoice[] {
  return choices.flatMap((option, g) => {
    const group = view.variants[g];
    const chosen = option === undefined ? undefined : group?.options[option];
    return group && chosen ? [{ group: group.key, item: chosen.item }] : [];
  });
}

/**
 * A variant group's options as toggle buttons, one chosen at most; an unavailable one cannot
 * be. A press (src/cards/delegate.ts) reads the group and option from `data-group`/`data-option`.
 */
export function renderChoosable(group: VariantGroup, g: number, chosen: number | undefined, strings: Strings, tabIndex: number) {
  return group.options.map(
    (option, i) =>
      html`<li class="choice">
        <button
          part="card-variant"
          type="button"
          class=${option.available ? '' : 'unavailable'}
          tabindex=${tabIndex}
          aria-pressed=${chosen === i ? 'true' : 'false'}
          ?disabled=${!option.available}
          data-act="card-choose"
          data-group=${g}
          data-option=${i}
        >
          ${option.label}${option.available ? nothing : html`<span class="sr-only"> (${strings.unavailable})</span>`}
        </button>
      </li>`,
  );
}

/** The card's action buttons; a press (src/cards/delegate.ts) finds its action by `data-action`. */
export function renderActions(actions: readonly CardAction[], tabIndex: number) {
  return html`<div class="card-actions">
    ${actions.map(
      (action, i) =>
        html`<button part="card-action" class="card-action" type="button" tabindex=${tabIndex} data-act="card-action" data-action=${i}>${action.label}</button>`,
    )}
  </div>`;
}

/** What a press of an action sends: the card as the agent sent it and the options chosen. */
export interface CardActionPress {
  action: CardAction;
  card: Card;
  variant: CardVariantChoice[];
}

/** What the reader did with a reply's cards: how many each reply shows, the options chosen on each card. */
export interface CardsView {
  /** Cards shown per message key, when the reader asked for more than the first step. */
  readonly shown: ReadonlyMap<string, number>;
  readonly choices: ReadonlyMap<Card, Choices>;
}
