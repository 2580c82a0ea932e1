import { nothing } from 'lit-html';
import { cards as cardsChunk } from '../chunks.js';
import { renderNotice } from '../notices/notice.js';
import { type PanelContext, ViewState } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';
import { hook, reported } from '../state/config.js';
import type { CardsView } from './actions.js';
import type { CardRenderer } from './cards.js';

/**
 * Where cards sit in the panel (the chunk is index.ts): the chunk fetched while the agent
 * thinks or when a reply brings cards (such a render waits for it a little), the host's
 * `cardRenderer` checked, and what the reader did with the cards (`CardsView`).
 */
export class CardsSlot {
  private readonly feature: Feature<typeof import('./index.js')>;
  readonly view: ViewState<CardsView>;
  /** `cardRenderer` when it is a function. */
  private renderer: CardRenderer | undefined;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(cardsChunk, true);
    this.view = new ViewState<CardsView>(ctx.host, { shown: new Map(), choices: new Map() });
  }

  /** A turn starts: fetched while the agent thinks. */
  prefetch(): void {
    void this.feature.want();
  }

  /** The conversation changed: a reply with cards is shown, and a render of it waits a little for the chunk. */
  sync(state: ConversationState): void {
    if (!this.feature.module && state.messages.some((m) => m.cards.length)) void this.feature.want(true);
  }

  /** `cardRenderer` changed: checked here, a bad one warns once and the built-in card is used. */
  setRenderer(value: unknown): void {
    this.renderer = reported((problems) => hook<CardRenderer>('cardRenderer', value, problems));
  }

  /** A new transcript: every reply starts with its first step of cards again, nothing chosen. */
  reset(): void {
    const { shown, choices } = this.view.value;
    if (shown.size || choices.size) this.view.set({ shown: new Map(), choices: new Map() });
  }

  /** A reply's cards, from the chunk; a notice if it could not load. */
  render(m: ChatMessage) {
    const { text: t } = this.ctx;
    if (this.feature.failed) return renderNotice(t, { title: t.cardsUnavailable, onRetry: () => void this.feature.retry() });
    return this.feature.module?.renderReplyCards(this.ctx, m, this.view, this.renderer) ?? nothing;
  }
}
