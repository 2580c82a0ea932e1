import { trustedPolicy } from '../security/trusted-types.js';

const NAMED_ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);
let entityScratch: HTMLTextAreaElement | undefined;

/**
 * Decodes the character references marked leaves in text, titles and URLs, the way the
 * HTML parser would have decoded them in marked's HTML output. The common names are in a
 * table; any other name (HTML knows ~2,200) is decoded by a textarea of an inert document,
 * which parses `&name;` as text only (RCDATA). The input is checked to be one reference,
 * so nothing but a character can come out. Without the Trusted Types policy (a host CSP
 * that does not list it) such a rare name stays literal.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      // As the HTML parser: NUL, surrogates and out-of-range become U+FFFD.
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
    }
    const known = NAMED_ENTITIES.get(ref);
    if (known !== undefined) return known;
    const tt = trustedPolicy();
    if (!tt && 'trustedTypes' in globalThis) return whole;
    try {
      entityScratch ??= document.implementation.createHTMLDocument('').createElement('textarea');
      entityScratch.innerHTML = (tt ? tt.createHTML(whole) : whole) as string;
      const decoded = entityScratch.value;
      // Only real names are remembered (HTML has ~2,200), so agent text cannot grow the map.
      if (decoded !== whole) NAMED_ENTITIES.set(ref, decoded);
      return decoded;
    } catch {
      return whole;
    }
  });
}
