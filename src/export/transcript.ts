/**
 * The conversation as a document (`exportTranscript(format)`, the header's save button):
 * the shown branch as JSON, each message in the wire `Message` shape the service's
 * transcript has, or as Markdown to read, each message under a heading with its speaker
 * and time, a reply's cards as a list of their titles and links. The Markdown is as safe as
 * the view (SECURITY.md "A saved transcript"): a question reads back as typed, a reply is
 * written out again by src/markdown/rewrite.ts, and only the transcript writes headings of
 * levels 1 and 2. Plain functions, without a DOM (but for `allow-html`'s sanitised HTML).
 */
import type { Card, Message } from '../client/types.js';
import { destination, escapeMarkdown, literalMarkdown, replyMarkdown } from '../markdown/rewrite.js';
import { safeImageUrl, safeUrl } from '../security/url.js';
import type { ChatMessage } from '../state/messages.js';

export type TranscriptFormat = 'markdown' | 'json';

/** A message as the wire has it; a question not yet taken by the service has no id. */
export type ExportedMessage = Omit<Message, 'id'> & { id?: string };

/** What a transcript holds: the messages that show something (a reply about to stream shows nothing yet). */
export const shown = (messages: readonly ChatMessage[]) => messages.filter((m) => m.text || m.cards.length || m.imageUrl);

/**
 * `m` as the service's transcript has it (docs: Message), with what the widget knows of it:
 * a question's sender is the one the transcript named, else the user in use (it was sent
 * here), and a reply cut at `max-reply-length` says so (`truncated`, the client's own field).
 */
export function toWire(m: ChatMessage, userId: string): ExportedMessage {
  return {
    id: m.id,
    created_at: m.createdAt,
    text: m.text,
    sender: m.role === 'user' ? { type: 'user', id: m.senderId || userId } : { type: 'agent' },
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
  /** The widget's `allow-html`: a reply's raw HTML sanitised as the view shows it, else text. */
  allowHtml?: boolean;
}

/** Text on one line of the document (a title, a name, a note; `label`: a link's), read back as written. */
const line = (text: string, label = false) => escapeMarkdown(text.replace(/\s+/g, ' ').trim(), label);

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

/** A card as a line of a list: its title, linked where it has a link that passes the URL allow-list. */
function cardLine(card: Card): string | null {
  const entity: unknown = card?.json_data?.entity;
  if (!entity || typeof entity !== 'object') return null;
  const title = field(entity as Record<string, unknown>, TITLE)?.replace(/\s+/g, ' ');
  const link = safeUrl(field(entity as Record<string, unknown>, LINK) ?? '');
  if (link) return `- [${line(title ?? link, true)}](<${destination(link)}>)`;
  return title ? `- ${line(title)}` : null;
}

/**
 * The Markdown document: the title (level 1), then each message under a heading of level 2
 * with its speaker and time; nothing a message holds can write a heading of level 1 or 2
 * (a reply's start at 3). Call `loadRewrite()` first, or a reply is lexed as prose or text.
 */
export function transcriptMarkdown(messages: readonly ChatMessage[], o: MarkdownOptions): string {
  const format = dateTime(o.locale);
  const blocks = shown(messages).map((m) => {
    const date = m.createdAt ? new Date(m.createdAt) : null;
    const when = date && !Number.isNaN(date.getTime()) ? ` · ${format.format(date)}` : '';
    const parts = [`## ${line((m.role === 'user' ? o.user : o.agent) + when)}`];
    if (m.text) parts.push(m.role === 'user' ? literalMarkdown(m.text) : replyMarkdown(m.text, !!o.allowHtml));
    // The reader's own image, as the view shows it (an image in a reply is a link: rewrite.ts).
    const image = safeImageUrl(m.imageUrl);
    if (image) parts.push(`![${line(o.image, true)}](<${destination(image)}>)`);
    const cards = m.cards.map(cardLine).filter(Boolean);
    if (cards.length) parts.push(cards.join('\n'));
    if (m.truncated) parts.push(`_${line(o.truncated)}_`);
    return parts.filter(Boolean).join('\n\n');
  });
  return `# ${line(o.title)}\n\n${blocks.join('\n\n')}\n`;
}

/**
 * Names Windows keeps for devices, whatever follows the first dot (`nul.tar.md` is the
 * device too) and with spaces before it (`CON .md`); superscript digits count as digits.
 */
const RESERVED = /^(con|prn|aux|nul|com[\d¹²³]|lpt[\d¹²³]|conin\$|conout\$|clock\$) *(\.|$)/i;

/** `date` as YYYY-MM-DD, in local time. */
const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * A file name for the conversation: its title where it has one, made safe for any file
 * system (no path separators or characters Windows refuses, no control, bidirectional
 * formatting or lone surrogate characters that could disguise the extension or not be
 * written, no leading dot that hides a file nor trailing dot or space Windows drops, no
 * device name, at most 80 characters), else `chat-<date>`.
 */
export function fileName(title: string, date: Date): string {
  const safe = title.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]+/gu, ' ').replace(/\s+/g, ' ');
  const base = Array.from(safe)
    .slice(0, 80)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return `${base && !RESERVED.test(base) ? base : `chat-${day(date)}`}.md`;
}
