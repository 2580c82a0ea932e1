import { nothing } from 'lit-html';
import { lazy } from '../lazy.js';
import { Feature } from '../panel/feature.js';
import { renderNotice } from '../notices/notice.js';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';
import { hook, reported } from '../state/config.js';
import type { CardRenderer } from './cards.js';

/** Product cards (this folder), a chunk fetched for the first reply that has cards. */
const loadCards = lazy(() => import('./index.js'));

/**
 * Where cards sit in the panel before their chunk arrives: the chunk fetched when a reply
 * brings cards (or a turn starts, while the agent thinks), the host's `cardRenderer`
 * checked, and how many cards of each reply the reader has asked to see.
 */
export class CardsControl {
  private readonly feature: Feature<typeof import('./index.js')>;
  /** Cards shown per message key, when the reader asked for more than the first step. */
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
    this.renderer = reported((problems) => hook<CardRenderer>('cardRenderer', value, problems));
  }

  /** A new transcript: every reply starts with its first step of cards again. */
  reset(): void {
    this.shown.clear();
  }

  /** A reply's cards, from the chunk; a notice if it could not load. */
  render(m: ChatMessage) {
    const { host, text: t } = this.ctx;
    if (this.feature.failed) {
      return renderNotice(t, { title: t.cardsUnavailable, onRetry: () => void this.feature.retry().then(() => host.requestUpdate()) });
    }
    return this.feature.module?.renderReplyCards(this.ctx, m, this.shown, this.renderer) ?? nothing;
  }
}
