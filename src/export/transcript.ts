/**
 * The conversation as a document (`exportTranscript(format)`, the header's save button):
 * the shown branch as JSON, each message in the wire `Message` shape the service's
 * transcript has, or as Markdown to read, each message with its speaker and time and a
 * reply's cards as a list of their titles and links. Plain functions, without a DOM.
 */
import type { Card, Message } from '../client/types.js';
import { safeImageUrl, safeUrl } from '../security/url.js';
import type { ChatMessage } from '../state/messages.js';

export type TranscriptFormat = 'markdown' | 'json';

/** A message as the wire has it; a question not yet taken by the service has no id. */
export type ExportedMessage = Omit<Message, 'id'> & { id?: string };

/** What a transcript holds: the messages that show something (a reply about to stream shows nothing yet). */
export const shown = (messages: readonly ChatMessage[]) => messages.filter((m) => m.text || m.cards.length || m.imageUrl);

/**
 * `m` as the service's transcript has it (docs: Message), with what the widget knows of it:
 * the question's sender is the user in use, and a reply cut at `max-reply-length` says so
 * (`truncated`, the client's own field).
 */
export function toWire(m: ChatMessage, userId: string): ExportedMessage {
  return {
    id: m.id,
    created_at: m.createdAt,
    text: m.text,
    sender: m.role === 'user' ? { type: 'user', id: userId } : { type: 'agent' },
    cards: [...m.cards],
    followup_suggestions: [...m.suggestions],
    image_url: m.imageUrl,
    truncated: m.truncated || undefined,
  };
}

export function transcriptJson(messages: readonly ChatMessage[], userId: string): string {
  return JSON.stringify(
    shown(messages).map((m) => toWire(m, userId)),
    null,
    2,
  );
}

export interface MarkdownOptions {
  title: string;
  /** The speaker of a question and of a reply, as the widget names them. */
  user: string;
  agent: string;
  /** The note under a reply cut at `max-reply-length`. */
  truncated: string;
  /** The alt text of an image sent with a question. */
  image: string;
  /** The UI language, for dates and times. */
  locale: string;
}

/**
 * Markdown for what a reader typed: the characters that would make it markup are escaped,
 * so a question shows as it was written (a reply is markdown already, and stays as written).
 */
const literal = (text: string) => text.replace(/[\\`*_[\]<>|#]/g, '\\$&');

function dateTime(locale: string): Intl.DateTimeFormat {
  const options = { dateStyle: 'medium', timeStyle: 'short' } as const;
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options); // a language tag Intl does not take
  }
}

// Compared after lower-casing and dropping `_`, `-` and spaces, as the built-in card does
// (src/cards/cards.ts `KEYS`, which a feature may not import); earlier names win.
const TITLE = ['title', 'name', 'productname', 'label', 'heading'];
const LINK = ['url', 'link', 'href', 'producturl'];

/** The first text or number of `entity` under one of `names`. */
function field(entity: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    for (const [key, value] of Object.entries(entity)) {
      if (key.toLowerCase().replace(/[-_\s]/g, '') !== name) continue;
      if ((typeof value === 'string' && value.trim()) || typeof value === 'number') return String(value).trim();
    }
  }
  return undefined;
}

/**
 * A URL as a link destination in angle brackets: a `mailto:` or `tel:` URL keeps `<` and `>`
 * as written, and one would end the destination early (what follows it would be markdown).
 */
const destination = (url: string) => url.replace(/[<>]/g, encodeURIComponent);

/** A card as a line of a list: its title, linked where it has a link that passes the URL allow-list. */
function cardLine(card: Card): string | null {
  const entity: unknown = card?.json_data?.entity;
  if (!entity || typeof entity !== 'object') return null;
  const title = field(entity as Record<string, unknown>, TITLE)?.replace(/\s+/g, ' ');
  const link = safeUrl(field(entity as Record<string, unknown>, LINK) ?? '');
  if (link) return `- [${literal(title ?? link)}](<${destination(link)}>)`;
  return title ? `- ${literal(title)}` : null;
}

export function transcriptMarkdown(messages: readonly ChatMessage[], o: MarkdownOptions): string {
  const format = dateTime(o.locale);
  const blocks = shown(messages).map((m) => {
    const date = m.createdAt ? new Date(m.createdAt) : null;
    const when = date && !Number.isNaN(date.getTime()) ? ` · ${format.format(date)}` : '';
    const lines = [`**${literal(m.role === 'user' ? o.user : o.agent)}**${when}`];
    if (m.text) lines.push(m.role === 'user' ? literal(m.text) : m.text);
    const image = safeImageUrl(m.imageUrl);
    if (image) lines.push(`![${literal(o.image)}](<${destination(image)}>)`);
    const cards = m.cards.map(cardLine).filter(Boolean);
    if (cards.length) lines.push(cards.join('\n'));
    if (m.truncated) lines.push(`_${literal(o.truncated)}_`);
    return lines.join('\n\n');
  });
  return `# ${literal(o.title)}\n\n${blocks.join('\n\n---\n\n')}\n`;
}

/** Names Windows keeps for devices, whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** `date` as YYYY-MM-DD, in local time. */
const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * A file name for the conversation: its title where it has one, made safe for any file
 * system (no path separators or characters Windows refuses, no control or bidirectional
 * formatting characters that could disguise the extension, no leading dot that hides a
 * file, at most 80 characters), else `chat-<date>`.
 */
export function fileName(title: string, date: Date): string {
  const safe = title.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"/\\|?*]+/gu, ' ').replace(/\s+/g, ' ');
  const base = Array.from(safe)
    .slice(0, 80)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return `${base && !RESERVED.test(base) ? base : `chat-${day(date)}`}.md`;
}
