import { nothing } from 'lit-html';
import { renderNotice } from '../notices/notice.js';
import { ViewState } from '../panel/context.js';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { hook, reported } from '../state/config.js';
import type { CardsView } from './actions.js';
import type { CardRenderer } from './cards.js';

/**
 * A reply's cards: the chunk fetched while the agent thinks or when a reply brings cards
 * (such a render waits for it a little), the host's `cardRenderer` checked, and what the
 * reader did with the cards (`CardsView`). A chunk that cannot load is said where the cards
 * would be.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module) => module,
).with({
  prefetch: ['turn'],
  needs: (m) => m.cards.length > 0,
  wait: true,
  saysFailure: true,
  mount: ({ ctx }) => {
    const view = new ViewState<CardsView>(ctx.host, { shown: new Map(), choices: new Map() });
    /** `cardRenderer` when it is a function. */
    let renderer: CardRenderer | undefined;
    return {
      view,
      renderer: () => renderer,
      willUpdate(changed: PropertyValues<ChatHost>): void {
        // Checked here: a bad one warns once and the built-in card is used.
        if (changed.has('cardRenderer'))
          renderer = reported((problems) => hook<CardRenderer>('cardRenderer', ctx.host.cardRenderer, problems));
      },
      /** A new transcript: every reply starts with its first step of cards again, nothing chosen. */
      reset(): void {
        const { shown, choices } = view.value;
        if (shown.size || choices.size) view.set({ shown: new Map(), choices: new Map() });
      },
    };
  },
  places: {
    cards: ({ feature, control, ctx, api }, m) => {
      const { text: t } = ctx;
      if (feature.failed) return renderNotice(t, { title: t.cardsUnavailable, onRetry: () => void feature.retry() });
      return control?.renderReplyCards(ctx, m, api.view, api.renderer()) ?? nothing;
    },
  },
});
