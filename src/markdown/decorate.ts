import { highlight } from '../highlight/draw.js';
import { el } from './tokens.js';

/** Texts that end up inside rendered markdown; take them from `Strings`. */
export interface MarkdownLabels {
  /** Copy button of a code block (`Strings.copyCode`). */
  copyCode: string;
  /** Accessible name of the scrolling region around a table (`Strings.tableLabel`). */
  table: string;
}

// Wrappers are added after rendering, with DOM APIs: the allow-list never has to admit a
// <button> or tabindex/role, so agent HTML (allowHtml) cannot bring its own. `typing`: the
// block is a streaming tail whose last line is unfinished (its code highlights without it).
export function decorate(root: DocumentFragment, labels: MarkdownLabels, typing = false): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const button = el('button', [labels.copyCode], { type: 'button', class: 'copy', 'data-copy': '' });
    const wrapper = el('div', [], { class: 'code-block', part: 'code-block' });
    const code = pre.querySelector('code');
    // The fence's language: the label, and the grammar that highlights it.
    const language = /(?:^|\s)language-(\S{1,40})/.exec(code?.className ?? '')?.[1];
    pre.replaceWith(wrapper);
    if (language) wrapper.append(el('span', [language], { class: 'code-language', part: 'code-language' }));
    wrapper.append(button, pre);
    if (language && code) highlight(code, language, typing);
  }
  for (const link of Array.from(root.querySelectorAll<HTMLAnchorElement>('a[href]'))) guardLinkText(link);
  for (const table of Array.from(root.querySelectorAll('table'))) {
    // Focusable so keyboard users can scroll a wide table (WCAG 2.1.1, axe
    // `scrollable-region-focusable`); a named region so the focus stop is announced.
    const wrapper = el('div', [], { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': labels.table });
    table.replaceWith(wrapper);
    wrapper.append(table);
  }
}

// Default-ignorable code points (bidi controls, zero-width characters, variation selectors,
// tag characters, fillers) show as nothing: in link text they make it read as another
// address than it contains. Joiners and variation selectors that build an emoji stay.
const INVISIBLE =
  /(?<=\p{Extended_Pictographic}\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic})[\ufe0e\ufe0f]|(\p{Default_Ignorable_Code_Point})/gu;
/** Text that reads as a web address: an optional http(s) scheme, then a dotted host name. */
const URL_LIKE = /^(?:https?:\/\/)?((?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]{2,})(?::\d+)?(?:[/?#]\S*)?$/iu;
/**
 * An address inside a sentence: with its scheme or `www.` (a bare `file.txt` in prose is not
 * one), to the end of its host. Labels and hosts are bounded as DNS bounds them, so matching
 * stays linear in the text.
 */
const NAMED = /(?:https?:\/\/|\bwww\.)((?:[\p{L}\p{N}-]{1,63}\.){1,126}[\p{L}\p{N}-]{2,63})(?![\p{L}\p{N}-])/giu;

/** `text` as a reader sees it: without default-ignorable code points (emoji joiners and variation selectors kept). */
export const visibleText = (text: string): string => text.replace(INVISIBLE, (match, ignorable?: string) => (ignorable ? '' : match));

/**
 * Link text may not show another destination than the link's (SECURITY.md "Links"): when
 * `text` is an address, or names one inside a sentence ("pay https://bank.example now"), of
 * another site than `href`'s, the host to show after it, else null. The text is compared the
 * way a reader and the URL parser see it: without invisible characters, with the dots IDNA
 * treats as dots, and without surrounding punctuation. The view (below) and a saved
 * transcript (rewrite.ts) both ask it.
 */
export function otherHost(text: string, href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  // Only a web link has a host to show.
  if (!/^https?:$/.test(url.protocol)) return null;
  const read = text
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/[\u3002\uff0e\uff61]/g, '.')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
  // A site as the browser will contact it (IDNs in punycode, so look-alikes differ); a name
  // the URL parser refuses is '' and so another site: the note shows.
  const site = (address: string) => {
    try {
      return new URL(address).hostname.replace(/^www\./, '');
    } catch {
      return '';
    }
  };
  // A text without a space is one address or none (URL_LIKE); a sentence may name several.
  const named = /\s/.test(read) ? Array.from(read.matchAll(NAMED), (m) => m[1]) : [URL_LIKE.exec(read)?.[1]];
  const real = url.hostname.replace(/^www\./, '');
  return named.some((host) => host && site(`https://${host}`) !== real) ? url.hostname : null;
}

/** A link of the view: invisible characters out of its text, and the real host after text that shows another (`otherHost`). */
export function guardLinkText(link: HTMLAnchorElement): void {
  const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const clean = visibleText(node.data);
    if (clean !== node.data) node.data = clean;
  }
  const host = otherHost(link.textContent ?? '', link.href);
  if (host) link.append(el('span', [` (${host})`], { class: 'link-host' }));
}
