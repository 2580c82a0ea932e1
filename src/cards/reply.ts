import type { Card } from '../client/types.js';
import { emit } from '../events.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { warnOnce } from '../warn.js';
import { CARD_STEP, renderCardRow, type CardRenderer } from './cards.js';

/**
 * A reply's cards as the panel shows them: `CARD_STEP` at a time (`shown` keeps, per
 * message, how many the reader asked for), the host's `renderer` inside its error boundary,
 * and `agent-chat-card-click` before a card link opens.
 */
export function renderReplyCards(ctx: PanelContext, m: ChatMessage, shown: Map<string, number>, renderer: CardRenderer | undefined) {
  const { host, view, text } = ctx;
  return renderCardRow(m.cards, {
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
