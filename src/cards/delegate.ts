/**
 * What the controls of the cards do, for every row of a widget at once: their clicks go
 * through the panel's one listener (`PanelContext.onMessageAction`, by `data-act`), and the
 * rows' keys, focus, scroll and pointer are heard by one listener each on the shadow root.
 * Bound per control, a reply of twelve cards with actions and options held some sixty
 * listeners, kept for as long as it was shown.
 */
import { emit } from '../events.js';
import type { PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { type CardsView, cardActions, chosenVariant } from './actions.js';
import { CARD_STEP, cachedCardView, cardsInOrder } from './cards.js';

const delegated = new WeakSet<PanelContext>();

/** Wires the cards' controls of the widget of `ctx` (once): a row rendered after binds nothing. */
export function delegateCards(ctx: PanelContext, cards: ViewState<CardsView>): void {
  if (delegated.has(ctx)) return;
  delegated.add(ctx);
  const { host } = ctx;
  const cardOf = (m: ChatMessage, control: HTMLElement) =>
    cardsInOrder(m.cards)[Number(control.closest<HTMLElement>('[data-card]')?.dataset.card)];

  ctx.onMessageAction('card-link', (m, control, event) => {
    const card = cardOf(m, control);
    // The host may veto the link (a shop opening the product in its own page instead).
    if (card && !emit(host, 'agent-chat-card-click', { card, url: control.getAttribute('href') }, true)) event.preventDefault();
  });
  ctx.onMessageAction('card-choose', (m, control) => {
    const card = cardOf(m, control);
    if (!card) return;
    const group = Number(control.dataset.group);
    const option = Number(control.dataset.option);
    // Read now: the reader may choose twice before the next render.
    const chosen = [...(cards.value.choices.get(card) ?? [])];
    chosen[group] = chosen[group] === option ? undefined : option;
    cards.set({ choices: new Map(cards.value.choices).set(card, chosen) });
  });
  ctx.onMessageAction('card-action', (m, control) => {
    const card = cardOf(m, control);
    const action = cardActions(host.cardActions)[Number(control.dataset.action)];
    if (!card || !action) return;
    const view = cachedCardView(card, { lang: ctx.view.locale, strings: ctx.text });
    emit(host, 'agent-chat-card-action', { action, card, variant: chosenVariant(view, cards.value.choices.get(card) ?? []) });
  });
  ctx.onMessageAction('cards-more', (m) => void showMore(ctx, cards, m.key));
  ctx.onMessageAction('cards-scroll', (_, control) => scrollRow(control));

  const root = host.renderRoot;
  // `target`, not the composed path: heard on the shadow root, it is the element of this
  // tree (a host's card with a shadow root of its own is its element here), and a host's
  // markup inside a card is not taken for a row.
  const within = (event: Event, selector: string) => (event.target as Element).closest?.<HTMLElement>(selector) ?? null;
  const rowOf = (event: Event) => within(event, '.cards-row > .cards');
  root.addEventListener('keydown', (event) => {
    const row = /^Arrow(Left|Right)$/.test((event as KeyboardEvent).key) && rowOf(event);
    if (row) moveBetweenCards(row, event as KeyboardEvent);
  });
  // Focus that reaches a card (a click, Shift+Tab back into the row) makes it the row's Tab stop.
  root.addEventListener('focusin', (event) => {
    const row = rowOf(event);
    const card = within(event, '[part~="card"]');
    if (row && card) makeCurrent(row, card);
  });
  // Scroll does not bubble: heard on its way down.
  root.addEventListener(
    'scroll',
    (event) => {
      const row = event.target as Element;
      if (row.matches?.('.cards-row > .cards')) syncRow(row as HTMLElement);
    },
    true,
  );
  // The buttons are for a pointer: they appear when one comes over a row that scrolls (the
  // panel may have been resized since the row was drawn).
  root.addEventListener('pointerover', (event) => {
    const box = within(event, '.cards-row');
    const from = (event as PointerEvent).relatedTarget;
    const row = box?.querySelector<HTMLElement>(':scope > .cards');
    if (row && !(from instanceof Node && box!.contains(from))) syncRow(row);
  });
}

/** The next step of a reply's cards; focus moves to the first card that was added. */
async function showMore(ctx: PanelContext, cards: ViewState<CardsView>, key: string): Promise<void> {
  const { host } = ctx;
  const before = cards.value.shown.get(key) ?? CARD_STEP;
  cards.set({ shown: new Map(cards.value.shown).set(key, before + CARD_STEP) });
  await host.updateComplete;
  const items = host.renderRoot.querySelectorAll<HTMLElement>(`[data-key="${CSS.escape(key)}"] .cards > li`);
  items[before]?.querySelector<HTMLElement>('a[href], button, [tabindex]')?.focus();
}

/** The row's buttons: shown while the row scrolls, each disabled at its end. */
function syncRow(row: HTMLElement): void {
  const box = row.parentElement;
  const prev = box?.querySelector<HTMLButtonElement>('.card-nav.prev');
  const next = box?.querySelector<HTMLButtonElement>('.card-nav.next');
  if (!prev || !next) return;
  const scrolls = row.scrollWidth > row.clientWidth + 1;
  // scrollLeft runs negative in a right-to-left row: its distance from the start is the same.
  // Slack of the row's padding (5 px, room for a card's focus ring) and a pixel: snapping rests
  // the first or last card on the padding, not at 0.
  const from = Math.abs(row.scrollLeft);
  prev.hidden = next.hidden = !scrolls;
  prev.disabled = from <= 6;
  next.disabled = from + row.clientWidth >= row.scrollWidth - 6;
}

/** Previous/next: one card's width towards the row's start or end. */
function scrollRow(button: HTMLElement): void {
  const row = button.parentElement?.querySelector<HTMLElement>('.cards');
  if (!row) return;
  const step = (row.querySelector('li')?.getBoundingClientRect().width ?? row.clientWidth * 0.8) + 10;
  const forward = button.classList.contains('next');
  const rtl = getComputedStyle(row).direction === 'rtl';
  // Smooth unless the reader asked for less motion (the row's CSS scroll-behavior decides).
  row.scrollBy({ left: (forward !== rtl ? 1 : -1) * step });
}

/** A built-in card's controls: its link, and with `cardActions` its options and actions. */
const CONTROLS = 'a[href], button:not(:disabled)';
const cardsWithControls = (row: HTMLElement) =>
  Array.from(row.querySelectorAll<HTMLElement>('[part~="card"]')).filter((card) => card.querySelector(CONTROLS));

/** Makes `card` the row's Tab stop: its controls are in the Tab order, other cards' are not. */
function makeCurrent(row: HTMLElement, card: Element): void {
  for (const control of row.querySelectorAll<HTMLElement>(`[part~="card"] :is(${CONTROLS})`))
    control.tabIndex = card.contains(control) ? 0 : -1;
}

/** Arrow keys move between the cards of a row (the row's own direction), as in a listbox. */
function moveBetweenCards(row: HTMLElement, event: KeyboardEvent): void {
  const rtl = getComputedStyle(row).direction === 'rtl';
  const active = (row.getRootNode() as Document | ShadowRoot).activeElement;
  const cards = cardsWithControls(row);
  const index = cards.findIndex((card) => card.contains(active));
  const next = cards[index + ((event.key === 'ArrowRight') !== rtl ? 1 : -1)];
  if (next) {
    event.preventDefault();
    // The row's one Tab stop moves with it.
    makeCurrent(row, next);
    next.querySelector<HTMLElement>(CONTROLS)!.focus();
    next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
