import type { Token, Tokens } from './vendor/marked.js';
import type { Strings } from '../i18n/strings.js';
import type { ChatMessage } from '../state/messages.js';
import { decodeEntities } from './entities.js';
import { inlineText } from './tokens.js';
import { lexTokens, normalize } from './blocks.js';

function blockText(token: Tokens.Generic): string {
  switch (token.type) {
    case 'space':
    case 'hr':
    case 'def':
      return '';
    case 'code':
    case 'html':
    case 'plain':
      return token.text as string;
    case 'list':
      return (token.items as Tokens.Generic[]).map((item) => (item.tokens ?? []).map(blockText).filter(Boolean).join('\n')).join('\n');
    case 'table':
      return [token.header as Token[], ...(token.rows as Token[][])]
        .map((row) => row.map((cell) => inlineText((cell as Tokens.Generic).tokens)).join(', '))
        .join('\n');
    case 'blockquote':
      return (token.tokens ?? []).map(blockText).filter(Boolean).join('\n');
    default:
      return token.tokens ? inlineText(token.tokens) : decodeEntities((token.text as string | undefined) ?? '');
  }
}

/**
 * Markdown to readable plain text (no markup, no HTML) for screen-reader announcements and
 * conversation titles. Raw HTML stays as literal text, as it is shown.
 */
export function renderPlainText(markdownText: string): string {
  // As the log draws it (blocks.ts): the lexer's chunk when it is here, else prose's own
  // tokens or the text as it is.
  const { tokens } = lexTokens(normalize(markdownText), false);
  return tokens
    .map(blockText)
    .filter((s) => s.trim() !== '')
    .join('\n\n')
    .trim();
}

/**
 * The start of a reply as plain text, at most `max` characters, cut at a word and ended
 * with "…" when there was more: what a screen reader announces. A long reply is read by
 * moving through the log, not by a live region that would talk for minutes.
 */
export function plainSummary(markdownText: string, max = 300): string {
  // Only the start is lexed: the summary of a 1 MB reply costs what a short one does.
  const head = markdownText.length > max * 4 ? markdownText.slice(0, max * 4) : markdownText;
  const text = renderPlainText(head).replace(/\s+/g, ' ');
  if (text.length <= max && head === markdownText) return text;
  const cut = text.slice(0, /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * What the polite status region says when a reply completes (src/panel/panel.ts
 * `announceReply`): its sender and its text as plain text (a screen reader must not read out
 * "asterisk asterisk" or table pipes), a bounded summary (a live region that received a
 * whole long reply would keep a screen reader talking for minutes), then how many product
 * cards and suggested replies came with it. Here, with the summary, rather than in the panel: a reply is
 * announced only once this chunk is here.
 */
export function replyAnnouncement(t: Strings, sender: string, reply: ChatMessage): string {
  const suggestions = reply.suggestions.filter((s) => typeof s === 'string' && s.trim() !== '').length;
  const more = [reply.cards.length ? t.productsShown(reply.cards.length) : '', suggestions ? t.suggestionsAvailable(suggestions) : ''];
  return [t.announce(sender, plainSummary(reply.text)), more.filter(Boolean).join(', ')].filter(Boolean).join(' ');
}
