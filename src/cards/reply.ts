import { emit } from '../events.js';
import type { PanelContext, ViewState } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { warnOnce } from '../warn.js';
import { type CardsView, cardActions, customAction } from './actions.js';
import { delegateCards } from './delegate.js';
import { CARD_STEP, renderCardRow, type CardRenderer } from './cards.js';

/**
 * A reply's cards as the panel shows them: `CARD_STEP` at a time (`cards.shown` keeps, per
 * message, how many the reader asked for), the host's `renderer` inside its error boundary,
 * and with `cardActions` the options chosen on each card (`cards.choices`). What the
 * controls do is wired once per widget (src/cards/delegate.ts).
 */
export function renderReplyCards(ctx: PanelContext, m: ChatMessage, cards: ViewState<CardsView>, renderer: CardRenderer | undefined) {
  const { host, view, text } = ctx;
  const { shown, choices } = cards.value;
  delegateCards(ctx, cards);
  return renderCardRow(m.cards, {
    actions: cardActions(host.cardActions),
    choicesOf: (card) => choices.get(card) ?? [],
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
    onRendererError: (error: unknown) => warnOnce('cardRenderer failed; the built-in card is shown instead.', error),
  });
}
