import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AgentVariables, Card, Message } from '@agent-chat/wire';
import type { AgentVersion } from '../store/records.js';
import type { TraceRecorder } from './trace.js';

/**
 * The scripted demo agent of "Trailhead", an outdoor shop. It answers by keyword with the
 * kinds of output a real agent produces (markdown prose, lists, tables, code, product
 * cards, follow-up suggestions) so every rendering path of the widget gets exercised by
 * plain conversation.
 */

const productSchema = z.object({
  id: z.string(),
  slug: z.string(),
  category: z.string(),
  title: z.string(),
  brand: z.string(),
  price: z.number(),
  currency: z.string(),
  /** A path on this server (`/__demo/images/…`), made absolute per request. */
  image_url: z.string().startsWith('/'),
  url: z.url(),
  description: z.string(),
  rating: z.number(),
  variants: z.object({
    sizes: z.array(z.string()),
    out_of_stock_sizes: z.array(z.string()),
    colours: z.array(z.string()),
  }),
});
const catalogSchema = z.object({
  categories: z.array(z.object({ id: z.string(), name: z.string(), keywords: z.array(z.string()) })),
  products: z.array(productSchema).min(1),
});

export type Product = z.infer<typeof productSchema>;
export type Catalog = z.infer<typeof catalogSchema>;
type Category = Catalog['categories'][number];

/** Read when an app is created, not at import, so importing the server has no side effects. */
export function loadCatalog(): Catalog {
  const raw = readFileSync(new URL('../../catalog.json', import.meta.url), 'utf8');
  return catalogSchema.parse(JSON.parse(raw));
}

export interface AgentInput {
  text: string;
  history: readonly Message[];
  imageUrl?: string;
  variables?: AgentVariables;
  version: AgentVersion;
  /** Origin the request reached, so card images get absolute URLs like the real service's. */
  origin?: string;
  /** Where the agent records what it does (trace.ts). */
  trace?: TraceRecorder;
  /** Someone watches its frames as they come (a stream, a socket), not a REST caller waiting for the whole answer. */
  streaming?: boolean;
}

export interface AgentReply {
  text: string;
  cards: Card[];
  suggestions: string[];
}

/**
 * A reply as it is produced: its text in pieces, then what the message carries besides.
 * The scripted agent has it all at once (the turn paces it); a model streams it.
 */
export interface AgentAnswer {
  /** The reply's text, piece by piece; may throw an `AgentFailure`. */
  chunks: AsyncIterable<string>;
  /** The text comes whole: the turn cuts it into word-sized frames at the agent's pace (`Agent.paceMs`). */
  paced?: boolean;
  /** A paced text is cut into pieces of this many characters rather than into words. */
  chunkChars?: number;
  /** After the last chunk: cards, suggestions and, when the agent counted them, tokens used. */
  rest(): { cards: Card[]; suggestions: string[]; usage?: { input: number; output: number } };
}

/** A reply that exists all at once (the scripted agent, the `replies` knob). */
export function wholeAnswer(reply: AgentReply): AgentAnswer {
  return {
    chunks: (async function* () {
      yield reply.text;
    })(),
    paced: true,
    rest: () => ({ cards: reply.cards, suggestions: reply.suggestions }),
  };
}

/** Who answers a turn: the scripted demo agent, or a model behind an OpenAI-compatible API. */
export interface Agent {
  /** Said at start-up (`npm start`, `npm run server`): who is answering. */
  readonly description: string;
  /** Milliseconds between the frames of its paced answers, when someone watches them come. */
  readonly paceMs?: number;
  welcomeTemplate(): string;
  suggestionsFor(context: Record<string, unknown> | undefined): string[];
  /**
   * Starts a reply; `signal` aborts it when a newer turn on the thread supersedes it. Stop
   * only ends a client's stream: the turn runs to its end and joins the transcript, as the
   * service's turns do.
   */
  answer(input: AgentInput, signal: AbortSignal): AgentAnswer;
}

/**
 * A turn the agent could not complete, as the service reports it: an `error` frame on a
 * stream, the error envelope on REST.
 */
export class AgentFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** Which field of the `error` frame carries the status (docs/protocol.md "Error frames" lets it be any of three). */
    readonly statusField: 'status' | 'status_code' | 'code' = 'status',
    /** How long to wait before asking again, in seconds, when the agent knows (a model's `Retry-After`): the frame's `retry_after`. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/**
 * What a model answers with outside its turns when no version says more (a server without
 * the demo agent): a plain welcome, no suggestions.
 */
export const PLAIN_AGENT: Pick<Agent, 'welcomeTemplate' | 'suggestionsFor'> = {
  welcomeTemplate: () => 'Hello! How can I help you today?',
  suggestionsFor: () => [],
};

/** Rough token estimate (about four characters each), enough to make usage fields plausible. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export const WELCOME_TEMPLATE =
  "Hi {{name}}! I'm the Trailhead shop assistant. Ask me about running shoes, jackets or backpacks: " +
  'I can compare products, check sizes and stock, and help you pick gear for your next trip.';

const SHOP_URL = 'https://shop.example';

const GENERIC_SUGGESTIONS = [
  'Show me running shoes',
  'Waterproof jackets under $200',
  'Which daypack for a weekend hike?',
  'What is your return policy?',
];

const formatPrice = (p: Product): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency, maximumFractionDigits: 0 }).format(p.price);

const escapeTableCell = (s: string): string => s.replace(/\|/g, '\\|');

export class DemoAgent implements Agent {
  readonly description = 'the scripted demo agent (set OPENAI_BASE_URL, OPENAI_API_KEY and AGENT_MODEL to answer with a model)';

  constructor(
    readonly catalog: Catalog,
    /** The demo's typing pace, in ms between words. */
    readonly paceMs = 25,
  ) {}

  /** The scripted reply, whole: the turn cuts it into word-sized pieces at the demo's pace. */
  answer(input: AgentInput): AgentAnswer {
    const reply = this.reply(input);
    return wholeAnswer(reply);
  }

  welcomeTemplate(): string {
    return WELCOME_TEMPLATE;
  }

  /**
   * The reply by keyword. What it decides goes into the turn's trace (trace.ts): the
   * parameters it computed, the intent it matched, the tools it pretends to call (with
   * their inputs and outputs) and the rules it evaluated, with their outcomes.
   */
  reply(input: AgentInput): AgentReply {
    const text = input.text.trim();
    const lower = text.toLowerCase();
    const name = userName(input.variables);
    const mentioned = this.mentionedProducts(lower);
    const category = this.mentionedCategory(lower);
    const budget = parseBudget(lower);
    const trace = input.trace;
    if (name) trace?.note('param', 'user_name', { output: { value: name } });
    if (category) trace?.note('param', 'category', { output: { value: category.id } });
    if (budget !== undefined) trace?.note('param', 'budget', { output: { value: budget } });
    trace?.note('param', 'products_mentioned', { input: mentioned.map((p) => p.slug), output: { value: mentioned.length } });

    let intent: string;
    let reply: AgentReply;
    if (/\b(compare|comparison|versus|vs\.?|difference|differences)\b/.test(lower)) {
      [intent, reply] = ['compare', this.compare(mentioned, category, trace)];
    } else if (/\b(code|api|embed|embedding|integrat\w*|snippet|developer|curl|javascript|html)\b/.test(lower)) {
      [intent, reply] = ['code', this.code(lower, trace)];
    } else if (
      /\b(size|sizes|sizing|stock|available|availability|colou?rs?)\b/.test(lower) &&
      (mentioned.length || this.lastShown(input.history))
    ) {
      [intent, reply] = ['sizes', this.sizes(mentioned[0] ?? this.lastShown(input.history)!, trace)];
    } else if (mentioned.length || category || budget !== undefined || /\b(recommend|suggest|looking for|show me|gift)\b/.test(lower)) {
      [intent, reply] = ['products', this.products(mentioned, category, budget, name, trace)];
    } else if (/\b(ship|shipping|deliver|delivery|return|returns|refund|exchange)\b/.test(lower)) {
      trace?.note('tool', 'policies.lookup', { input: { topics: ['shipping', 'returns', 'exchanges'] }, output: { found: 3 } });
      [intent, reply] = ['policies', policies()];
    } else if (/^(hi|hello|hey|hallo|howdy|good (morning|afternoon|evening))\b/.test(lower) || /\b(help|what can you do)\b/.test(lower)) {
      [intent, reply] = ['greeting', greeting(name)];
    } else {
      [intent, reply] = ['generic', generic(text)];
    }
    // Recorded after the branch ran, with what it produced; steps keep their own order by time.
    trace?.note('intent', intent, { input: { text }, output: { cards: reply.cards.length, suggestions: reply.suggestions.length } });
    trace?.note('rule', 'personalize_greeting', { input: { name: name ?? null }, outcome: name ? 'fired' : 'passed' });

    trace?.note('rule', 'image_input', { input: { image_url: input.imageUrl ?? null }, outcome: input.imageUrl ? 'fired' : 'passed' });
    if (input.imageUrl) {
      reply.text = `I can see your image. It looks like outdoor gear, so I matched it against our catalog.\n\n${reply.text}`;
    }
    trace?.note('rule', 'version_note', {
      input: { version: input.version.tag },
      outcome: input.version.settings.preview ? 'fired' : 'passed',
    });
    if (input.version.settings.preview) {
      reply.text += `\n\n_Answered by the ${input.version.tag} version of this assistant._`;
    }
    // Absolute on the origin the request reached, in both of a card's representations.
    for (const card of reply.cards) {
      const image = card.json_data.entity['image_url'];
      if (typeof image !== 'string') continue;
      const absolute = new URL(image, input.origin ?? 'http://localhost').href;
      card.json_data.entity['image_url'] = absolute;
      card.rendered_jsx = card.rendered_jsx?.replace(`imageUrl={${JSON.stringify(image)}}`, `imageUrl={${JSON.stringify(absolute)}}`);
    }
    return reply;
  }

  /** Suggestions outside a turn, tailored to whatever the page says about itself. */
  suggestionsFor(context: Record<string, unknown> | undefined): string[] {
    const haystack = flattenStrings(context).toLowerCase();
    if (!haystack) return GENERIC_SUGGESTIONS.slice(0, 3);
    const product = this.mentionedProducts(haystack)[0];
    if (product) {
      const category = this.categoryOf(product);
      return [
        `What sizes does the ${product.title} come in?`,
        `Compare the ${product.title} with similar ${category.name.toLowerCase()}`,
        `Is the ${product.title} good for beginners?`,
      ];
    }
    const category = this.mentionedCategory(haystack);
    if (category) {
      return [
        `Best ${category.name.toLowerCase()} under $150`,
        `Compare the top ${category.name.toLowerCase()}`,
        `What's new in ${category.name.toLowerCase()}?`,
      ];
    }
    if (/\b(cart|checkout|basket)\b/.test(haystack)) {
      return ['How long does shipping take?', 'What is your return policy?', 'Do you ship internationally?'];
    }
    return GENERIC_SUGGESTIONS.slice(0, 3);
  }

  private products(
    mentioned: Product[],
    category: Category | undefined,
    budget: number | undefined,
    name: string | undefined,
    trace?: TraceRecorder,
  ): AgentReply {
    let pool = mentioned.length ? mentioned : this.catalog.products.filter((p) => !category || p.category === category.id);
    let note = '';
    if (budget !== undefined) {
      const affordable = pool.filter((p) => p.price <= budget);
      // Fired: the budget narrowed the choice; blocked: nothing fits it, the closest match is shown instead.
      trace?.note('rule', 'budget_limit', { input: { budget, candidates: pool.length }, outcome: affordable.length ? 'fired' : 'blocked' });
      if (affordable.length) {
        pool = affordable;
      } else {
        const cheapest = [...pool].sort((a, b) => a.price - b.price).slice(0, 1);
        note = `Nothing ${category ? `in ${category.name.toLowerCase()} ` : ''}comes in under **$${budget}**, so here is the closest match.\n\n`;
        pool = cheapest;
      }
    } else {
      trace?.note('rule', 'budget_limit', { input: { budget: null }, outcome: 'passed' });
    }
    const shown = [...pool].sort((a, b) => b.rating - a.rating || a.price - b.price).slice(0, mentioned.length ? 4 : 3);
    const pick = shown[0]!;
    trace?.note('tool', 'catalog.search', {
      input: { category: category?.id ?? null, max_price: budget ?? null, products: mentioned.map((p) => p.slug) },
      output: { results: shown.map((p) => p.slug), recommended: pick.slug },
    });
    const what = category ? category.name.toLowerCase() : 'picks';
    const intro = mentioned.length
      ? `Here ${shown.length === 1 ? 'is' : 'are'} the product${shown.length === 1 ? '' : 's'} you asked about`
      : `Here are ${shown.length} ${what}${budget !== undefined && !note ? ` under $${budget}` : ''} I'd look at`;
    const lines = shown.map(
      (p, i) => `${i + 1}. **${p.title}** by ${p.brand}: ${formatPrice(p)}, rated ${p.rating.toFixed(1)}/5. ${p.description}`,
    );
    const text =
      `${note}${name ? `Good question, ${name}! ` : ''}${intro}:\n\n${lines.join('\n')}\n\n` +
      `My pick is **${pick.title}** (${formatPrice(pick)}). [See it in the shop](${pick.url}).`;
    const pickCategory = this.categoryOf(pick);
    return {
      text,
      cards: shown.map((p, index) => productCard(p, index, p === pick)),
      suggestions: [
        `What sizes does the ${pick.title} come in?`,
        `Compare these ${pickCategory.name.toLowerCase()}`,
        budget === undefined ? `${pickCategory.name} under $100` : 'Show me the premium options',
      ],
    };
  }

  private compare(mentioned: Product[], category: Category | undefined, trace?: TraceRecorder): AgentReply {
    let items = mentioned.length >= 2 ? mentioned.slice(0, 3) : [];
    if (!items.length) {
      const cat = category ?? this.categoryOf(mentioned[0] ?? this.catalog.products[0]!);
      items = this.catalog.products
        .filter((p) => p.category === cat.id)
        .sort((a, b) => b.rating - a.rating)
        .slice(0, 3);
    }
    const header = `| | ${items.map((p) => escapeTableCell(p.title)).join(' | ')} |`;
    const divider = `|---|${items.map(() => '---').join('|')}|`;
    const row = (label: string, cell: (p: Product) => string) =>
      `| **${label}** | ${items.map((p) => escapeTableCell(cell(p))).join(' | ')} |`;
    const best = [...items].sort((a, b) => b.rating - a.rating)[0]!;
    const cheapest = [...items].sort((a, b) => a.price - b.price)[0]!;
    trace?.note('tool', 'catalog.compare', {
      input: { products: items.map((p) => p.slug) },
      output: { best: best.slug, cheapest: cheapest.slug },
    });
    const table = [
      header,
      divider,
      row('Brand', (p) => p.brand),
      row('Price', formatPrice),
      row('Rating', (p) => `${p.rating.toFixed(1)} / 5`),
      row('Colours', (p) => p.variants.colours.join(', ')),
      row('Sizes', (p) => (p.variants.sizes.length > 1 ? `${p.variants.sizes[0]}–${p.variants.sizes.at(-1)}` : p.variants.sizes.join(''))),
    ].join('\n');
    const verdict =
      best === cheapest
        ? `**${best.title}** is both the best rated and the cheapest here, an easy choice.`
        : `**${best.title}** is the best rated; **${cheapest.title}** is the budget option at ${formatPrice(cheapest)}.`;
    return {
      text: `Here is how they compare:\n\n${table}\n\n${verdict}`,
      cards: [],
      suggestions: [`Tell me more about the ${best.title}`, `What sizes does the ${cheapest.title} come in?`],
    };
  }

  private code(lower: string, trace?: TraceRecorder): AgentReply {
    const api = /\b(api|curl|developer)\b/.test(lower);
    trace?.note('tool', 'docs.snippet', { input: { topic: api ? 'api' : 'embed' }, output: { language: api ? 'ts' : 'html' } });
    if (api) {
      return {
        text:
          'You can talk to me over the messaging API too. Exchange a publishable key for a token, then send a message:\n\n' +
          '```ts\n' +
          "const { access_token } = await fetch(`${baseUrl}/management/v1/auth/token`, {\n  method: 'POST',\n" +
          "  headers: { 'content-type': 'application/json' },\n  body: JSON.stringify({ publishable_key: 'pk_demo_shop' }),\n}).then((r) => r.json());\n\n" +
          "const reply = await fetch(`${baseUrl}/messaging/v1/messages`, {\n  method: 'POST',\n" +
          "  headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },\n" +
          "  body: JSON.stringify({ text: 'Show me rain jackets', user_id: 'user-123' }),\n}).then((r) => r.json());\n" +
          '```\n\nThe reply carries `thread_id`; send it back to continue the conversation.',
        cards: [],
        suggestions: ['How do I stream replies?', 'How do I embed the chat widget?'],
      };
    }
    return {
      text:
        'Embedding this assistant takes one script tag and one element:\n\n' +
        '```html\n<script type="module" src="https://cdn.shop.example/agent-chat.js"></script>\n\n' +
        '<agent-chat\n  base-url="https://api.shop.example"\n  publishable-key="pk_demo_shop"\n  mode="launcher"\n></agent-chat>\n```\n\n' +
        'Theme it with `--agent-chat-*` custom properties, or style its parts with `::part(...)`.',
      cards: [],
      suggestions: ['Show me the API instead', 'Which attributes can I set?'],
    };
  }

  private sizes(product: Product, trace?: TraceRecorder): AgentReply {
    const { sizes, out_of_stock_sizes: out, colours } = product.variants;
    const inStock = sizes.filter((s) => !out.includes(s));
    trace?.note('tool', 'inventory.check', { input: { sku: product.id }, output: { in_stock: inStock, sold_out: out } });
    const text =
      `The **${product.title}** comes in sizes ${sizes.join(', ')} and in ${colours.join(' or ')}.\n\n` +
      `- In stock: ${inStock.length ? inStock.join(', ') : 'none right now'}\n` +
      `- Sold out: ${out.length ? out.join(', ') : 'nothing, every size is available'}\n\n` +
      `Between sizes? Most customers size up for ${this.categoryOf(product).id === 'running-shoes' ? 'long runs' : 'layering'}.`;
    return {
      text,
      cards: [productCard(product, 0, true)],
      suggestions: [`Compare the ${product.title} with similar products`, 'How do returns work if it does not fit?'],
    };
  }

  private mentionedProducts(lower: string): Product[] {
    return this.catalog.products.filter((p) => {
      const title = p.title.toLowerCase();
      // The first word of a title is distinctive enough ("cloudstride", "stormline").
      const head = title.split(' ')[0]!;
      return lower.includes(title) || lower.includes(p.slug) || (head.length > 4 && new RegExp(`\\b${head}\\b`).test(lower));
    });
  }

  private mentionedCategory(lower: string): Category | undefined {
    const words = new Set(lower.match(/[a-z]+/g) ?? []);
    return this.catalog.categories.find((c) => c.keywords.some((k) => words.has(k)));
  }

  private categoryOf(product: Product): Category {
    return this.catalog.categories.find((c) => c.id === product.category) ?? this.catalog.categories[0]!;
  }

  /** "What sizes?" after a product reply refers to the product the agent just recommended. */
  private lastShown(history: readonly Message[]): Product | undefined {
    for (let i = history.length - 1; i >= 0; i--) {
      const cards = history[i]!.cards ?? [];
      const card = cards.find((c) => c.is_recommended) ?? cards[0];
      const title = card?.json_data.entity['title'];
      if (typeof title === 'string') return this.catalog.products.find((p) => p.title === title);
    }
    return undefined;
  }
}

function productCard(p: Product, index: number, recommended: boolean): Card {
  const entity = {
    title: p.title,
    brand: p.brand,
    price: formatPrice(p),
    currency: p.currency,
    image_url: p.image_url,
    url: p.url,
    description: p.description,
    rating: p.rating,
    sku: p.id,
  };
  const jsxProps = Object.entries(entity)
    .map(([k, v]) => `${k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}={${JSON.stringify(v)}}`)
    .join(' ');
  return {
    rendered_jsx: `<ProductCard ${jsxProps}${recommended ? ' recommended' : ''} />`,
    json_data: {
      entity,
      sub_entities: [
        { name: 'Sizes', items: p.variants.sizes.map((size) => ({ size, in_stock: !p.variants.out_of_stock_sizes.includes(size) })) },
        { name: 'Colours', items: p.variants.colours.map((colour) => ({ colour })) },
      ],
    },
    is_recommended: recommended,
    index,
  };
}

function greeting(name: string | undefined): AgentReply {
  return {
    text:
      `Hi${name ? ` ${name}` : ''}! Here is what I can help with:\n\n` +
      '- **Find gear**: running shoes, jackets and backpacks\n' +
      '- **Compare** products side by side\n' +
      '- **Sizes and stock** for any product\n' +
      '- **Shipping and returns** questions\n\n' +
      'Try *"waterproof jacket under $150"*.',
    cards: [],
    suggestions: ['Show me running shoes', 'Compare your backpacks', 'How does shipping work?'],
  };
}

function policies(): AgentReply {
  return {
    text:
      'Good to know before you order:\n\n' +
      '- **Shipping** is free over $75 and takes 2–4 business days.\n' +
      '- **Returns** are free within 30 days, unworn and with tags.\n' +
      '- **Exchanges** for another size ship as soon as we scan your return.\n\n' +
      `Details are on the [shipping and returns page](${SHOP_URL}/help/shipping-returns).`,
    cards: [],
    suggestions: ['Do you ship internationally?', 'Show me running shoes', 'How do I start a return?'],
  };
}

function generic(text: string): AgentReply {
  const topic = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return {
    text:
      `I'm not sure I have a good answer to "${topic}" yet. I know the **Trailhead catalog** best: ` +
      'running shoes, rain and insulated jackets, and backpacks from daypacks to trekking packs.\n\n' +
      `You can also [browse the full catalog](${SHOP_URL}/catalog) or ask me to **compare** a few products.`,
    cards: [],
    suggestions: GENERIC_SUGGESTIONS.slice(0, 3),
  };
}

export function userName(variables: AgentVariables | undefined): string | undefined {
  // On a key collision the dynamic value wins, as the reference says.
  const merged = { ...(variables?.static ?? {}), ...(variables?.dynamic ?? {}) };
  const name = merged['name'];
  return typeof name === 'string' && name.trim() ? name.trim().slice(0, 40) : undefined;
}

function parseBudget(lower: string): number | undefined {
  const match = /(?:under|below|less than|max(?:imum)?|up to|<)\s*\$?\s*(\d{2,5})/.exec(lower);
  return match ? Number(match[1]) : undefined;
}

function flattenStrings(value: unknown, depth = 0): string {
  if (depth > 4 || value == null) return '';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((v) => flattenStrings(v, depth + 1)).join(' ');
  if (typeof value === 'object')
    return Object.values(value)
      .map((v) => flattenStrings(v, depth + 1))
      .join(' ');
  return '';
}
