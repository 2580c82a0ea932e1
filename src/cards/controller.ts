import { nothing } from 'lit-html';
import type { Card } from '../client/types.js';
import { emit } from '../events.js';
import { Feature, lazy } from '../lazy.js';
import { renderNotice } from '../notices/notice.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { hook } from '../state/config.js';
import { warnOnce } from '../warn.js';
import type { CardRenderer } from './cards.js';

/** Product cards (this folder's cards.ts), a chunk fetched for the first reply that has cards. */
const loadCards = lazy(() => import('./cards.js'));

/**
 * The panel's side of the cards: fetches the chunk when a reply brings cards (or a turn
 * starts, while the agent thinks), checks the host's `cardRenderer`, and keeps how many
 * cards of each reply the reader has asked to see.
 */
export class CardsControl {
  private readonly feature: Feature<typeof import('./cards.js')>;
  /** Cards shown per message key, when the reader asked for more than `CARD_STEP`. */
  private readonly shown = new Map<string, number>();
  /** `cardRenderer` when it is a function. */
  private renderer: CardRenderer | undefined;

  constructor(private readonly ctx: PanelContext) {
    this.feature = new Feature(loadCards, ctx.host);
  }

  prefetch(): void {
    void this.feature.ensure();
  }

  /** A render with cards waits a little for the chunk. */
  needs(): Array<Promise<unknown>> {
    return this.ctx.chat.messages.some((m) => m.cards.length) ? [this.feature.ensure()] : [];
  }

  /** `cardRenderer` changed: checked here, a bad one warns once and the built-in card is used. */
  setRenderer(value: unknown): void {
    const problems: string[] = [];
    this.renderer = hook<CardRenderer>('cardRenderer', value, problems);
    problems.forEach((problem) => warnOnce(problem));
  }

  /** A new transcript: every reply starts with its first step of cards again. */
  reset(): void {
    this.shown.clear();
  }

  /** A reply's cards, from the chunk; a notice if it could not load. */
  render(m: ChatMessage) {
    const { host, view } = this.ctx;
    const t = this.ctx.text;
    const cards = this.feature.module;
    if (this.feature.failed) {
      return renderNotice(t, { title: t.cardsUnavailable, onRetry: () => void this.feature.retry().then(() => host.requestUpdate()) });
    }
    if (!cards) return nothing;
    return cards.renderCardRow(m.cards, {
      strings: t,
      lang: view.locale,
      rtl: view.direction === 'rtl',
      shown: this.shown.get(m.key) ?? cards.CARD_STEP,
      renderer: this.renderer,
      onMore: () => void this.showMore(m.key, cards.CARD_STEP),
      onCardClick: (event, card, url) => this.onCardClick(event, card, url),
      onRendererError: (error) => warnOnce('cardRenderer failed; the built-in card is shown instead.', error),
    });
  }

  private onCardClick(event: Event, card: Card, url: string | null): void {
    if (!emit(this.ctx.host, 'agent-chat-card-click', { card, url }, true)) event.preventDefault();
  }

  /** The next step of a reply's cards; focus moves to the first card that was added. */
  private async showMore(key: string, step: number): Promise<void> {
    const { host } = this.ctx;
    const shown = this.shown.get(key) ?? step;
    this.shown.set(key, shown + step);
    host.requestUpdate();
    await host.updateComplete;
    const cards = host.renderRoot.querySelectorAll<HTMLElement>(`[data-key="${CSS.escape(key)}"] .cards > li`);
    cards[shown]?.querySelector<HTMLElement>('a[href], button, [tabindex]')?.focus();
  }
}
