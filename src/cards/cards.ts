/**
 * The cards feature, a lazy chunk: fetched with its stylesheet when the first reply with
 * cards is about to render (pages that never show a card never download it).
 *
 * The built-in product/result card: `json_data.entity` keys are data, not schema, so the
 * view model looks for a title, image, price, link and description among common key names
 * and lists every other scalar as a labelled field. Everything is bound as text through
 * Lit; `rendered_jsx` is never read. No inline styles (the widget must work under
 * `style-src 'self'`).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import type { Card, Scalar } from '../client/types.js';
import { isScalar as isWireScalar } from '../client/guards.js';
import type { Strings } from '../i18n/strings.js';
import { safeImageUrl, safeUrl } from '../security/url.js';
import { type CardAction, type CardVariantChoice, type Choices, renderActions, renderChoosable } from './actions.js';
import { isolate } from './isolate.js';

export { styles } from './cards.styles.js';

export interface CardVariantOption {
  label: string;
  /** False when the item carries a `false` flag such as `in_stock: false`. */
  available: boolean;
  /** The item as the agent sent it (what `agent-chat-card-action` reports when chosen). */
  item: unknown;
}

export interface CardVariantGroup {
  name: string;
  /** The group's name as the agent sent it. */
  key: string;
  options: CardVariantOption[];
}

export interface CardView {
  title: string;
  imageUrl: string | null;
  imageAlt: string;
  price: string;
  url: string | null;
  description: string;
  badge: string;
  fields: Array<[label: string, value: string]>;
  variants: CardVariantGroup[];
  recommended: boolean;
  index: number | undefined;
}

export interface CardViewOptions {
  /** BCP 47 tag for number and currency formatting; the browser's locale when absent. */
  lang?: string;
  /** Labels for boolean values. */
  strings?: Pick<Strings, 'yes' | 'no'>;
}

// Compared after lower-casing and dropping `_`/`-`, so `image_url`, `imageUrl` and
// `Image-URL` are one name. Earlier names win.
const KEYS = {
  title: ['title', 'name', 'productname', 'label', 'heading'],
  image: ['image', 'imageurl', 'thumbnail', 'thumbnailurl', 'picture', 'photo', 'img'],
  price: ['price', 'priceformatted', 'formattedprice', 'amount'],
  currency: ['currency', 'currencycode'],
  url: ['url', 'link', 'href', 'producturl'],
  description: ['description', 'summary', 'subtitle'],
  badge: ['badge', 'ribbon', 'tag'],
} as const;

const canon = (key: string) => key.toLowerCase().replace(/[-_\s]/g, '');

/** A value a card shows: text, a number or a flag (guards.ts read it; `null` shows nothing). */
const isScalar = (value: unknown): value is Exclude<Scalar, null> => value !== null && isWireScalar(value);

/** `unit_price` / `unitPrice` -> "Unit price". */
export function humanizeKey(key: string): string {
  // Clipped first, and only linear patterns: keys are the agent's data, of any length.
  const words = key
    .slice(0, CARD_LIMITS.title)
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Card text beyond these lengths is cut (with "…"): a card is a summary, and layout stays bounded. */
export const CARD_LIMITS = { title: 200, text: 500, fields: 24, groups: 8, options: 40, values: 8 } as const;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * A number as the agent wrote it (`value`: a JSON number or a decimal string), formatted
 * without losing digits: as many fraction digits as it has (a price of 19.999 is not
 * "20.00"), and a decimal string formatted as the exact decimal it is (Intl takes strings),
 * so 20-digit amounts are not rounded through a float.
 */
function formatNumber(value: number | string, lang: string | undefined, currency?: string): string {
  const source = String(value).trim();
  // "1e-7" has its digits in the exponent: show up to the most Intl allows.
  const fraction = /e/i.test(source) ? 20 : (/\.(\d+)$/.exec(source)?.[1]?.length ?? 0);
  try {
    const format = new Intl.NumberFormat(lang, currency ? { style: 'currency', currency } : undefined);
    const digits = Math.min(20, Math.max(fraction, format.resolvedOptions().minimumFractionDigits ?? 0));
    const exact = new Intl.NumberFormat(lang, {
      ...(currency ? { style: 'currency', currency } : {}),
      minimumFractionDigits: currency ? digits : 0,
      maximumFractionDigits: digits,
    });
    return exact.format(source as unknown as number);
  } catch {
    // Unknown locale or currency code from the agent's data: show the plain number.
    return currency ? `${source} ${currency}` : source;
  }
}

/** A number the UI may show as an amount: finite and exactly representable (JSON lost the rest). */
const exactNumber = (value: number): boolean => Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;

function scalarText(value: Exclude<Scalar, null>, opts: CardViewOptions, max: number = CARD_LIMITS.text): string {
  if (typeof value === 'boolean') return value ? (opts.strings?.yes ?? 'Yes') : (opts.strings?.no ?? 'No');
  if (typeof value === 'number') return exactNumber(value) ? formatNumber(value, opts.lang) : String(value);
  return clip(value, max);
}

/** Builds the view model of the built-in card. Never throws on odd data. */
export function cardView(card: Card, opts: CardViewOptions = {}): CardView {
  const entity: Record<string, unknown> = card?.json_data?.entity && typeof card.json_data.entity === 'object' ? card.json_data.entity : {};
  const byCanon = new Map<string, string>();
  for (const key of Object.keys(entity)) {
    const value = entity[key];
    if (!isScalar(value) || value === '') continue;
    if (!byCanon.has(canon(key))) byCanon.set(canon(key), key);
  }
  const used = new Set<string>();
  const take = (names: readonly string[]): Exclude<Scalar, null> | undefined => {
    for (const name of names) {
      const key = byCanon.get(name);
      if (key !== undefined) {
        used.add(key);
        return entity[key] as Exclude<Scalar, null>;
      }
    }
    return undefined;
  };

  const title = take(KEYS.title);
  const image = take(KEYS.image);
  const rawPrice = take(KEYS.price);
  const currency = take(KEYS.currency);
  const url = take(KEYS.url);
  const description = take(KEYS.description);
  const badge = take(KEYS.badge);

  let price = '';
  const code = typeof currency === 'string' && /^[a-z]{3}$/i.test(currency) ? currency.toUpperCase() : undefined;
  if (typeof rawPrice === 'number') {
    // A number JSON could not hold exactly is no price to show as one.
    price = exactNumber(rawPrice) ? formatNumber(rawPrice, opts.lang, code) : '';
  } else if (typeof rawPrice === 'string') {
    const decimal = /^\s*-?\d{1,30}(\.\d{1,20})?\s*$/.test(rawPrice);
    price = decimal && code ? formatNumber(rawPrice, opts.lang, code) : clip(rawPrice, CARD_LIMITS.title);
  }
  // A currency with no price to go with it is just another field.
  const currencyKey = KEYS.currency.map((name) => byCanon.get(name)).find((key) => key !== undefined);
  if (rawPrice === undefined && currencyKey !== undefined) used.delete(currencyKey);

  const fields: Array<[string, string]> = [];
  for (const key of Object.keys(entity)) {
    const value = entity[key];
    if (used.has(key) || !isScalar(value) || value === '') continue;
    fields.push([clip(humanizeKey(key), CARD_LIMITS.title), scalarText(value, opts)]);
    if (fields.length === CARD_LIMITS.fields) break;
  }

  const variants: CardVariantGroup[] = [];
  for (const group of Array.isArray(card?.json_data?.sub_entities) ? card.json_data.sub_entities : []) {
    const items = Array.isArray(group?.items) ? group.items : [];
    // Flags like `in_stock: true` read badly as "42 · Yes": a false flag marks the option
    // unavailable instead, and true flags say nothing.
    const options = items
      .slice(0, CARD_LIMITS.options)
      .map((item) => {
        const values = Object.values(item && typeof item === 'object' ? item : {}).filter(isScalar);
        const label = clip(
          values
            .filter((v) => v !== '' && typeof v !== 'boolean')
            .slice(0, CARD_LIMITS.values)
            .map((v) => scalarText(v, opts, CARD_LIMITS.title))
            .join(' · '),
          CARD_LIMITS.title,
        );
        return { label, available: !values.includes(false), item };
      })
      .filter((o) => o.label);
    const key = String(group?.name ?? '');
    if (options.length) variants.push({ name: clip(humanizeKey(key), CARD_LIMITS.title), key, options });
    if (variants.length === CARD_LIMITS.groups) break;
  }

  const titleText = title === undefined ? '' : scalarText(title, opts, CARD_LIMITS.title);
  return {
    title: titleText,
    imageUrl: safeImageUrl(image),
    imageAlt: titleText,
    price,
    url: typeof url === 'string' ? safeUrl(url) : null,
    description: description === undefined ? '' : scalarText(description, opts),
    badge: badge === undefined ? '' : scalarText(badge, opts, 40),
    fields,
    variants,
    recommended: card?.is_recommended === true,
    index: typeof card?.index === 'number' && Number.isFinite(card.index) ? card.index : undefined,
  };
}

/** Cards in `index` order; stable, cards without an index last. Does not mutate; skips what is not an object. */
export function sortCards<T extends { index?: number | undefined }>(cards: readonly T[]): T[] {
  const key = (c: T) => (typeof c.index === 'number' && Number.isFinite(c.index) ? c.index : Infinity);
  return cards
    .filter((card) => typeof card === 'object' && card !== null)
    .map((card, position) => ({ card, position }))
    .sort((a, b) => key(a.card) - key(b.card) || a.position - b.position)
    .map(({ card }) => card);
}

const views = new WeakMap<Card, { lang: string | undefined; strings: unknown; view: CardView }>();

/**
 * `cardView`, kept per card object for as long as the language and strings stay the same:
 * a reply's cards do not change, and rebuilding thousands of view models on every render
 * (each keystroke re-renders) cost ~100 ms.
 */
export function cachedCardView(card: Card, opts: CardViewOptions): CardView {
  const hit = views.get(card);
  if (hit && hit.lang === opts.lang && hit.strings === opts.strings) return hit.view;
  const view = cardView(card, opts);
  views.set(card, { lang: opts.lang, strings: opts.strings, view });
  return view;
}

export interface RenderCardOptions {
  /** The row is one Tab stop: its link is -1 except on the row's current card. */
  tabIndex?: number;
  /** The row's direction, decided by the cards' content (not a localized badge). */
  dir?: 'ltr' | 'rtl';
  /** The host's `cardActions`: buttons on the card, and its variant options choosable. */
  actions?: readonly CardAction[];
  choices?: Choices;
}

/**
 * The built-in card. Parts: `card` (+ `card-recommended`), `card-image`, `card-title`,
 * `card-price`, `card-fields`, `card-variants`; classes `card-badge`, `card-description`,
 * `card-badge-custom`, `card-variant` for the element's stylesheet. Its controls bind no
 * listener: they say what they do (`data-act`), and the panel's one listener per event
 * runs it (src/cards/delegate.ts).
 */
export function renderCard(view: CardView, strings: Strings, opts: RenderCardOptions = {}): TemplateResult {
  const actions = opts.actions?.length ? opts.actions : null;
  const tabIndex = opts.tabIndex ?? 0;
  const titleText = view.title || (view.url ? strings.cardLink : '');
  const title = view.url
    ? html`<a href=${view.url} target="_blank" rel="noopener noreferrer" tabindex=${opts.tabIndex ?? nothing} data-act="card-link">${titleText}</a>`
    : titleText;
  return html`<article part=${view.recommended ? 'card card-recommended' : 'card'} class="card" dir=${opts.dir ?? 'auto'}>
    ${view.imageUrl ? html`<img part="card-image" src=${view.imageUrl} alt=${view.imageAlt} loading="lazy" decoding="async" />` : nothing}
    ${view.recommended ? html`<span class="card-badge" dir="auto">${strings.recommended}</span>` : nothing}
    ${view.badge ? html`<span class="card-badge-custom" dir="auto">${view.badge}</span>` : nothing}
    ${titleText ? html`<p part="card-title" class="card-title">${title}</p>` : nothing}
    ${view.price ? html`<p part="card-price" class="card-price">${view.price}</p>` : nothing}
    ${view.description ? html`<p class="card-description">${view.description}</p>` : nothing}
    ${
      view.fields.length
        ? html`<dl part="card-fields">
          ${view.fields.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}
        </dl>`
        : nothing
    }
    ${
      view.variants.length
        ? html`<div part="card-variants">
          ${view.variants.map(
            (group, g) =>
              html`<div class="card-variant" role="group" aria-label=${group.name}>
                <span aria-hidden="true">${group.name}</span>
                <ul>
                  ${
                    actions
                      ? renderChoosable(group, g, opts.choices?.[g], strings, tabIndex)
                      : group.options.map((option) =>
                          option.available
                            ? html`<li>${option.label}</li>`
                            : html`<li class="unavailable">${option.label}<span class="sr-only"> (${strings.unavailable})</span></li>`,
                        )
                  }
                </ul>
              </div>`,
          )}
        </div>`
        : nothing
    }
    ${actions ? renderActions(actions, tabIndex) : nothing}
  </article>`;
}

/** Cards a reply shows at first, and per "show more" (SECURITY.md "Limits"). */
export const CARD_STEP = 12;

/** What a host's card may do: the second argument of `cardRenderer` (README "Custom cards"). */
export interface CardRendererApi {
  /** Sends a message as the element's `send()` does (it fires `agent-chat-send` first). */
  send(text: string): Promise<void>;
  /**
   * Fires `agent-chat-card-action` for this card, as a `cardActions` button of the built-in
   * card does: `action` is the `cardActions` entry with this id, else `{id, label: id}`;
   * `variant` the options chosen on the card, `[]` when none.
   */
  action(actionId: string, variant?: CardVariantChoice[]): void;
  /** The card's place in its reply's row (the order of the cards' `index`), from 0. */
  readonly index: number;
}

export type CardRenderer = (card: Card, api: CardRendererApi) => TemplateResult | HTMLElement | null | undefined;

export interface CardRowOptions {
  strings: Strings;
  /** BCP 47 tag for number and currency formatting. */
  lang: string;
  rtl: boolean;
  /** How many of the cards are shown; "Show N more" reveals the next `CARD_STEP`. */
  shown: number;
  /** The host's `cardRenderer`, already checked to be a function, and what it is handed for card `index`. */
  renderer?: CardRenderer;
  api(card: Card, index: number): CardRendererApi;
  onRendererError(error: unknown): void;
  /** Checked `cardActions`, with each card's chosen options. */
  actions?: readonly CardAction[];
  choicesOf?(card: Card): Choices;
}

/** Each message's cards in `index` order, sorted once: a message's cards never change. */
const sorted = new WeakMap<readonly Card[], Card[]>();

/** A reply's cards in the order they show (a card's `data-card` is its place in it). */
export function cardsInOrder(cards: readonly Card[]): Card[] {
  let list = sorted.get(cards);
  if (!list) sorted.set(cards, (list = sortCards(cards)));
  return list;
}

/**
 * The cards of one reply as a labelled row (part `cards`) in `index` order: the first
 * `shown`, the host's renderer (inside an error boundary) or the built-in card for each,
 * and a "Show N more results" button (part `cards-more`) when there are more. Nothing in
 * it listens: src/cards/delegate.ts does, once per widget.
 */
export function renderCardRow(cards: readonly Card[], o: CardRowOptions): TemplateResult {
  const list = cardsInOrder(cards);
  const shown = list.slice(0, o.shown);
  const views = shown.map((card) => cachedCardView(card, { lang: o.lang, strings: o.strings }));
  // One direction for the whole row, from what the cards say: a localized "Recommended"
  // badge must not turn one English card right-to-left among left-to-right ones.
  const dir = contentDirection(views.map((v) => `${v.title} ${v.description}`).join(' ')) ?? (o.rtl ? 'rtl' : 'ltr');
  // The row is one Tab stop: the controls of one card (at first the first that has any).
  const current = o.actions?.length ? 0 : views.findIndex((v) => v.url);
  const builtIn = (card: Card, i: number) =>
    renderCard(views[i]!, o.strings, { tabIndex: i === current ? 0 : -1, dir, actions: o.actions, choices: o.choicesOf?.(card) });
  const more = list.length - o.shown;
  const renderer = o.renderer;
  const t = o.strings;
  return html`<div class="cards-row" dir=${dir}>
      <button part="card-prev" class="icon-button card-nav prev" type="button" hidden aria-label=${t.previousCards} title=${t.previousCards} data-act="cards-scroll">
        ${chevron}
      </button>
      <ul part="cards" class="cards" aria-label=${t.cardsLabel}>
        ${shown.map((card, i) =>
          renderer
            ? html`<li data-card=${i} ${isolate(
                renderer,
                () => renderer(card, o.api(card, i)),
                () => builtIn(card, i),
                o.onRendererError,
              )}></li>`
            : html`<li data-card=${i}>${builtIn(card, i)}</li>`,
        )}
      </ul>
      <button part="card-next" class="icon-button card-nav next" type="button" hidden aria-label=${t.nextCards} title=${t.nextCards} data-act="cards-scroll">
        ${chevron}
      </button>
    </div>
    ${
      more > 0
        ? html`<button part="cards-more" class="text-button cards-more" type="button" data-act="cards-more">
          ${t.showMoreCards(Math.min(more, CARD_STEP))}
        </button>`
        : nothing
    }`;
}

const chevron = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M9 6l6 6-6 6" /></svg>`;

const RTL_SCRIPT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;

/** The direction of the first letter of `text` (like `dir="auto"`), or null without letters. */
export function contentDirection(text: string): 'ltr' | 'rtl' | null {
  const letter = /\p{L}/u.exec(text)?.[0];
  return letter ? (RTL_SCRIPT.test(letter) ? 'rtl' : 'ltr') : null;
}
