import { expect } from '@open-wc/testing';
import { html, render, type TemplateResult } from 'lit';
import type { Card } from '../../src/client/types.js';
import { CARD_STEP, cardView, humanizeKey, renderCard, renderCardRow, sortCards, type CardRowOptions } from '../../src/cards/cards.js';
import { renderSuggestions } from '../../src/suggestions/suggestions.js';
import { loadStrings, resolveStrings } from '../../src/i18n/index.js';
// The cards' English comes with their chunk: added here as the chunk would.
import '../support/english.js';

await loadStrings('de');
const en = resolveStrings('en');
const de = resolveStrings('de');

const card = (entity: Record<string, unknown>, extra: Partial<Card> = {}): Card => ({ json_data: { entity }, ...extra }) as Card;

// Rendered synchronously: open-wc's fixture() waits for an animation frame, which a
// background Firefox tab in a parallel test run may not deliver in time.
const mounted: HTMLElement[] = [];
function fixture<T extends HTMLElement = HTMLElement>(template: TemplateResult): T {
  const box = document.createElement('div');
  document.body.append(box);
  mounted.push(box);
  render(template, box);
  return box.firstElementChild as T;
}
afterEach(() => mounted.splice(0).forEach((box) => box.remove()));

async function mountCard(c: Card, lang = 'en'): Promise<HTMLElement> {
  const strings = resolveStrings(lang);
  return fixture(html`<div>${renderCard(cardView(c, { lang, strings }), strings)}</div>`);
}

describe('cardView', () => {
  it('finds title, image, price, link and description among common key names', () => {
    const v = cardView(
      card({
        product_name: 'Trail Runner',
        imageUrl: 'https://img.example/shoe.png',
        price: 89.5,
        currency: 'EUR',
        product_url: 'https://shop.example/p/1',
        summary: 'Light and fast.',
        color: 'Red',
      }),
      { lang: 'de-DE' },
    );
    expect(v.title).to.equal('Trail Runner');
    expect(v.imageUrl).to.equal('https://img.example/shoe.png');
    expect(v.imageAlt).to.equal('Trail Runner');
    expect(v.price).to.equal(new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(89.5));
    expect(v.price).to.contain('89,50');
    expect(v.url).to.equal('https://shop.example/p/1');
    expect(v.description).to.equal('Light and fast.');
    expect(v.fields).to.deep.equal([['Color', 'Red']]);
  });

  it('prefers earlier key names and accepts alternatives', () => {
    expect(cardView(card({ name: 'N', title: 'T' })).title).to.equal('T');
    expect(cardView(card({ label: 'L' })).title).to.equal('L');
    expect(cardView(card({ thumbnail: '/t.png' })).imageUrl).to.equal(new URL('/t.png', document.baseURI).href);
    expect(cardView(card({ picture: 'https://p.example/x.jpg' })).imageUrl).to.equal('https://p.example/x.jpg');
    expect(cardView(card({ link: 'https://l.example/' })).url).to.equal('https://l.example/');
    expect(cardView(card({ href: 'https://h.example/' })).url).to.equal('https://h.example/');
    expect(cardView(card({ subtitle: 'S' })).description).to.equal('S');
    expect(cardView(card({ price_formatted: '$19.99' })).price).to.equal('$19.99');
    expect(cardView(card({ amount: 5, currency_code: 'usd' }), { lang: 'en-US' }).price).to.equal('$5.00');
  });

  it('formats a price without currency as a number and keeps preformatted strings', () => {
    expect(cardView(card({ price: 1234.5 }), { lang: 'en-US' }).price).to.equal('1,234.5');
    expect(cardView(card({ price: '12.5', currency: 'GBP' }), { lang: 'en-GB' }).price).to.equal('£12.50');
    expect(cardView(card({ price: 'ab 10 €', currency: 'EUR' })).price).to.equal('ab 10 €');
    expect(cardView(card({ price: 3, currency: 'not-a-code' }), { lang: 'en-US' }).price).to.equal('3');
  });

  it('lists remaining scalars as humanized fields with localized booleans, ignoring non-scalars', () => {
    const v = cardView(
      card({ title: 'T', in_stock: true, isWaterproof: false, weight_kg: 0.35, tags: ['a'], meta: { x: 1 }, empty: '', nothing: null }),
      { lang: 'de', strings: de },
    );
    expect(v.fields).to.deep.equal([
      ['In stock', 'Ja'],
      ['Is waterproof', 'Nein'],
      ['Weight kg', '0,35'],
    ]);
  });

  it('humanizes snake_case and camelCase keys', () => {
    expect(humanizeKey('unit_price')).to.equal('Unit price');
    expect(humanizeKey('unitPrice')).to.equal('Unit price');
    expect(humanizeKey('SKU')).to.equal('SKU');
    expect(humanizeKey('productSKUCode')).to.equal('Product SKU code');
    expect(humanizeKey('release-date')).to.equal('Release date');
  });

  it('turns sub_entities into labelled groups of option strings', () => {
    const v = cardView({
      json_data: {
        entity: { title: 'Shirt' },
        sub_entities: [
          {
            name: 'sizes',
            items: [{ size: 'S' }, { size: 'M', stock: 3 }, { note: null }, { size: 'L', in_stock: false }, { size: 'XL', in_stock: true }],
          },
          { name: 'color_options', items: [{ color: 'Blue', hex: '#00f' }] },
          { name: 'empty', items: [] },
        ],
      },
    });
    // Each option keeps its item as sent, and each group its name as sent (card actions report them).
    expect(v.variants).to.deep.equal([
      {
        name: 'Sizes',
        key: 'sizes',
        options: [
          { label: 'S', available: true, item: { size: 'S' } },
          { label: 'M · 3', available: true, item: { size: 'M', stock: 3 } },
          { label: 'L', available: false, item: { size: 'L', in_stock: false } },
          { label: 'XL', available: true, item: { size: 'XL', in_stock: true } },
        ],
      },
      {
        name: 'Color options',
        key: 'color_options',
        options: [{ label: 'Blue · #00f', available: true, item: { color: 'Blue', hex: '#00f' } }],
      },
    ]);
  });

  it('drops unsafe URLs', () => {
    const v = cardView(card({ title: 'x', url: 'javascript:alert(1)', image: 'data:image/png;base64,AAAA' }));
    expect(v.url).to.equal(null);
    expect(v.imageUrl).to.equal(null);
  });

  it('survives malformed cards', () => {
    expect(() => cardView({} as Card)).not.to.throw();
    expect(() => cardView({ json_data: { entity: null } } as unknown as Card)).not.to.throw();
    expect(cardView({ json_data: { entity: {}, sub_entities: 'x' } } as unknown as Card).variants).to.deep.equal([]);
  });

  it('reads recommended and index', () => {
    const v = cardView(card({ title: 'x' }, { is_recommended: true, index: 2 }));
    expect(v.recommended).to.equal(true);
    expect(v.index).to.equal(2);
    expect(cardView(card({})).index).to.equal(undefined);
  });
});

describe('sortCards', () => {
  it('sorts by index, stable, missing index last, without mutating', () => {
    const cards = [
      { id: 'a' },
      { id: 'b', index: 2 },
      { id: 'c', index: 0 },
      { id: 'd' },
      { id: 'e', index: 2 },
      { id: 'f', index: Number.NaN },
    ];
    const sorted = sortCards(cards);
    expect(sorted.map((c) => c.id)).to.deep.equal(['c', 'b', 'e', 'a', 'd', 'f']);
    expect(cards[0]!.id).to.equal('a');
  });
});

describe('renderCard', () => {
  it('renders the built-in card with its parts', async () => {
    const el = await mountCard(
      card(
        {
          title: 'Trail Runner',
          image: 'https://img.example/s.png',
          price: 10,
          currency: 'USD',
          url: 'https://shop.example/1',
          color: 'Red',
        },
        { is_recommended: true },
      ),
    );
    const article = el.querySelector('[part~="card"]')!;
    expect(article.getAttribute('part')).to.equal('card card-recommended');
    const img = el.querySelector('img[part="card-image"]')!;
    expect(img.getAttribute('alt')).to.equal('Trail Runner');
    expect(img.getAttribute('loading')).to.equal('lazy');
    const link = el.querySelector('[part="card-title"] a')!;
    expect(link.getAttribute('href')).to.equal('https://shop.example/1');
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(link.textContent).to.equal('Trail Runner');
    expect(el.querySelector('[part="card-price"]')!.textContent).to.equal('$10.00');
    expect(el.querySelector('dl[part="card-fields"] dt')!.textContent).to.equal('Color');
    expect(el.querySelector('.card-badge')!.textContent).to.equal('Recommended');
    expect(el.querySelector('[style]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('localizes the recommended badge and renders variants', async () => {
    const el = await mountCard(
      { json_data: { entity: { name: 'Hemd' }, sub_entities: [{ name: 'Größe', items: [{ v: 'S' }, { v: 'M' }] }] }, is_recommended: true },
      'de',
    );
    expect(el.querySelector('.card-badge')!.textContent).to.equal('Empfohlen');
    const variants = el.querySelector('[part="card-variants"]')!;
    expect(Array.from(variants.querySelectorAll('li')).map((li) => li.textContent)).to.deep.equal(['S', 'M']);
    expect(variants.querySelector('[role="group"]')!.getAttribute('aria-label')).to.equal('Größe');
  });

  it('has no link when the URL is unsafe, and plain card part when not recommended', async () => {
    const el = await mountCard(card({ title: 'X', url: 'javascript:alert(1)' }));
    expect(el.querySelector('a')).to.equal(null);
    expect(el.querySelector('[part~="card"]')!.getAttribute('part')).to.equal('card');
  });

  it('renders hostile values as text', async () => {
    const evil = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const el = await mountCard({
      json_data: {
        entity: { title: evil, description: evil, price: evil, [`${evil}key`]: evil },
        sub_entities: [{ name: evil, items: [{ a: evil }] }],
      },
      rendered_jsx: '<img src=x onerror=alert(3)>',
    } as Card);
    expect(el.querySelector('script, img')).to.equal(null);
    expect(el.querySelector('[part="card-title"]')!.textContent).to.equal(evil);
    expect(el.textContent).to.contain(evil);
    expect(el.textContent).not.to.contain('alert(3)');
  });

  it('binds no listener: its link, options and actions say what they do (the panel listens once, src/cards/delegate.ts)', async () => {
    const view = cardView({
      json_data: {
        entity: { title: 'T', url: 'https://shop.example/2' },
        sub_entities: [{ name: 'size', items: [{ size: 'S' }, { size: 'M' }] }],
      },
    });
    const el = await fixture<HTMLElement>(
      html`<div>${renderCard(view, en, {
        actions: [
          { id: 'add', label: 'Add' },
          { id: 'guide', label: 'Guide' },
        ],
        choices: [1],
      })}</div>`,
    );
    expect(el.querySelector('a')!.dataset.act).to.equal('card-link');
    const options = Array.from(el.querySelectorAll<HTMLButtonElement>('[part="card-variant"]'));
    expect(options.map((b) => [b.dataset.act, b.dataset.group, b.dataset.option, b.getAttribute('aria-pressed')])).to.deep.equal([
      ['card-choose', '0', '0', 'false'],
      ['card-choose', '0', '1', 'true'],
    ]);
    const actions = Array.from(el.querySelectorAll<HTMLButtonElement>('[part="card-action"]'));
    expect(actions.map((b) => [b.dataset.act, b.dataset.action, b.textContent])).to.deep.equal([
      ['card-action', '0', 'Add'],
      ['card-action', '1', 'Guide'],
    ]);
  });

  const row = (extra: Partial<CardRowOptions> = {}): CardRowOptions => ({
    strings: en,
    lang: 'en',
    rtl: false,
    shown: CARD_STEP,
    onRendererError: () => {},
    api: (_card, index) => ({ index, send: () => Promise.resolve(), action: () => {} }),
    ...extra,
  });

  it('hostile keys and variants stay short (and cheap): a key of 40,000 capitals, an item of 20,000 values', () => {
    expect(humanizeKey('A'.repeat(40_000) + 'b').length).to.be.at.most(200);
    const item = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`v${i}`, i]));
    const view = cardView({ json_data: { entity: { title: 'T' }, sub_entities: [{ name: 'N'.repeat(40_000), items: [item] }] } });
    expect(view.variants[0]!.name.length).to.be.at.most(200);
    expect(view.variants[0]!.options[0]!.label.length).to.be.at.most(200);
  });

  it('renders a sorted, labelled list and honours a custom renderer', async () => {
    const cards = [card({ title: 'B' }, { index: 1 }), card({ title: 'A' }, { index: 0 }), card({ title: 'C' })];
    const el = await fixture<HTMLElement>(
      html`<div>${renderCardRow(cards, row({ renderer: (c) => (c.json_data.entity.title === 'C' ? html`<b>custom</b>` : null) }))}</div>`,
    );
    await Promise.resolve(); // host-rendered cards go in once their row is in the document
    const list = el.querySelector('ul[part="cards"]')!;
    expect(list.getAttribute('aria-label')).to.equal(en.cardsLabel);
    expect(Array.from(list.children).map((li) => li.textContent!.trim().split(/\s+/)[0])).to.deep.equal(['A', 'B', 'custom']);
  });

  it('shows the first `shown` cards and a button for the next step', async () => {
    const cards = Array.from({ length: 30 }, (_, i) => card({ title: `T${i}` }, { index: i }));
    const el = await fixture<HTMLElement>(html`<div>${renderCardRow(cards, row({ shown: 12 }))}</div>`);
    expect(el.querySelectorAll('[part~="card"]')).to.have.length(12);
    // Each card says its place in the row, which the delegated listener reads.
    expect(Array.from(el.querySelectorAll<HTMLElement>('.cards > li'), (li) => li.dataset.card)).to.deep.equal(
      cards.slice(0, 12).map((_, i) => String(i)),
    );
    const button = el.querySelector<HTMLButtonElement>('[part="cards-more"]')!;
    expect(button.textContent!.trim()).to.equal(en.showMoreCards(12));
    expect(button.dataset.act).to.equal('cards-more');
    const all = await fixture<HTMLElement>(html`<div>${renderCardRow(cards, row({ shown: 36 }))}</div>`);
    expect(all.querySelector('[part="cards-more"]')).to.equal(null);
  });
});

describe('renderSuggestions', () => {
  it('renders a labelled group of text buttons', async () => {
    const picked: string[] = [];
    const el = await fixture<HTMLElement>(
      html`<div>${renderSuggestions(['Track my order', '<b>x</b>', ' '], en, { onSelect: (t) => picked.push(t) })}</div>`,
    );
    const group = el.querySelector('[part="suggestions"]')!;
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.getAttribute('aria-label')).to.equal('Suggested replies');
    const buttons = Array.from(group.querySelectorAll('button[part="suggestion"]')) as HTMLButtonElement[];
    expect(buttons.map((b) => b.textContent)).to.deep.equal(['Track my order', '<b>x</b>']);
    expect(buttons.every((b) => b.type === 'button')).to.equal(true);
    expect(el.querySelector('b')).to.equal(null);
    buttons[1]!.click();
    expect(picked).to.deep.equal(['<b>x</b>']);
    await expect(el).to.be.accessible();
  });

  it('renders nothing without suggestions and disables chips on request', () => {
    const box = document.createElement('div');
    render(renderSuggestions([], en, { onSelect: () => {} }), box);
    expect(box.querySelector('[part="suggestions"]')).to.equal(null);
    render(renderSuggestions(['a'], en, { onSelect: () => {}, disabled: true }), box);
    expect((box.querySelector('button') as HTMLButtonElement).disabled).to.equal(true);
  });
});
