import type { Card } from '../client/types.js';
import { emit } from '../events.js';
import type { PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { warnOnce } from '../warn.js';
import { cardActions, chosenVariant, customAction } from './actions.js';
import { CARD_STEP, renderCardRow, type CardRenderer } from './cards.js';
import type { CardsView } from './slot.js';

/**
 * A reply's cards as the panel shows them: `CARD_STEP` at a time (`cards.shown` keeps, per
 * message, how many the reader asked for), the host's `renderer` inside its error boundary,
 * `agent-chat-card-click` before a card link opens, and with `cardActions` the options
 * chosen on each card (`cards.choices`) and `agent-chat-card-action` when an action is pressed.
 */
export function renderReplyCards(ctx: PanelContext, m: ChatMessage, cards: ViewState<CardsView>, renderer: CardRenderer | undefined) {
  const { host, view, text } = ctx;
  const { shown, choices } = cards.value;
  return renderCardRow(m.cards, {
    actions: cardActions(host.cardActions),
    choicesOf: (card) => choices.get(card) ?? [],
    onChoose: (card, group, option) => {
      // Read now: the reader may choose twice before the next render.
      const chosen = [...(cards.value.choices.get(card) ?? [])];
      chosen[group] = option;
      cards.set({ choices: new Map(cards.value.choices).set(card, chosen) });
    },
    onAction: (card, cardView, action) =>
      emit(host, 'agent-chat-card-action', { action, card, variant: chosenVariant(cardView, cards.value.choices.get(card) ?? []) }),
    // A host's card acts through the same event, with what it says was chosen.
    api: (card, index) => ({
      index,
      send: (text) => host.send(text),
      action: (id, variant) => {
        const press = customAction(cardActions(host.cardActions), id, variant);
        if (press) emit(host, 'agent-chat-card-action', { ...press, card });
      },
    }),
    strings: text,
    lang: view.locale,
    rtl: view.direction === 'rtl',
    shown: shown.get(m.key) ?? CARD_STEP,
    renderer,
    onMore: () => void showMore(ctx, cards, m.key),
    onCardClick: (event: Event, card: Card, url: string | null) => {
      if (!emit(host, 'agent-chat-card-click', { card, url }, true)) event.preventDefault();
    },
    onRendererError: (error: unknown) => warnOnce('cardRenderer failed; the built-in card is shown instead.', error),
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
