import type { Card } from '../client/types.js';
import { emit } from '../events.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { warnOnce } from '../warn.js';
import { cardActions, chosenVariant, type Choices } from './actions.js';
import { CARD_STEP, renderCardRow, type CardRenderer } from './cards.js';

/** The options the reader chose on each card (cards of a reply never change while shown). */
const choices = new WeakMap<Card, Choices>();

/**
 * A reply's cards as the panel shows them: `CARD_STEP` at a time (`shown` keeps, per
 * message, how many the reader asked for), the host's `renderer` inside its error boundary,
 * `agent-chat-card-click` before a card link opens, and with `cardActions` the options
 * chosen on each card and `agent-chat-card-action` when an action is pressed.
 */
export function renderReplyCards(ctx: PanelContext, m: ChatMessage, shown: Map<string, number>, renderer: CardRenderer | undefined) {
  const { host, view, text } = ctx;
  return renderCardRow(m.cards, {
    actions: cardActions(host.cardActions),
    choicesOf: (card) => choices.get(card) ?? [],
    onChoose: (card, group, option) => {
      const chosen = [...(choices.get(card) ?? [])];
      chosen[group] = option;
      choices.set(card, chosen);
      host.requestUpdate();
    },
    onAction: (card, cardView, action) =>
      emit(host, 'agent-chat-card-action', { action, card, variant: chosenVariant(cardView, choices.get(card) ?? []) }),
    strings: text,
    lang: view.locale,
    rtl: view.direction === 'rtl',
    shown: shown.get(m.key) ?? CARD_STEP,
    renderer,
    onMore: () => void showMore(ctx, shown, m.key),
    onCardClick: (event: Event, card: Card, url: string | null) => {
      if (!emit(host, 'agent-chat-card-click', { card, url }, true)) event.preventDefault();
    },
    onRendererError: (error: unknown) => warnOnce('cardRenderer failed; the built-in card is shown instead.', error),
  });
}

/** The next step of a reply's cards; focus moves to the first card that was added. */
async function showMore(ctx: PanelContext, shown: Map<string, number>, key: string): Promise<void> {
  const { host } = ctx;
  const before = shown.get(key) ?? CARD_STEP;
  shown.set(key, before + CARD_STEP);
  host.requestUpdate();
  await host.updateComplete;
  const cards = host.renderRoot.querySelectorAll<HTMLElement>(`[data-key="${CSS.escape(key)}"] .cards > li`);
  cards[before]?.querySelector<HTMLElement>('a[href], button, [tabindex]')?.focus();
}
