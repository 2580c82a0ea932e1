/**
 * The one URL allow-list of the widget. Markdown links and images, card links and card
 * images, and the image a message carries all pass through `safeUrl` (images through
 * `safeImageUrl`, which narrows it), so there is a single place to audit.
 */

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

// The URL parser silently drops tab/CR/LF anywhere and trims C0 controls and spaces at
// both ends, so `java\tscript:` IS `javascript:` to the browser. Judge the string the
// browser will see, not the one we were given.
// eslint-disable-next-line no-control-regex
const EDGE_CONTROLS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_NEWLINE = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex
const OTHER_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Returns a normalised absolute URL when `url` is http(s), mailto, tel or relative, and
 * `null` for anything else (javascript:, vbscript:, data:, file:, blob:, unknown schemes,
 * and schemes hidden behind entities, percent-escapes or control characters).
 *
 * Relative URLs resolve against `base`, by default the document's base URL.
 */
export function safeUrl(url: string, base?: string): string | null {
  if (typeof url !== 'string') return null;
  const cleaned = url.replace(EDGE_CONTROLS, '').replace(TAB_NEWLINE, '');
  if (!cleaned || OTHER_CONTROLS.test(cleaned)) return null;

  // Whatever precedes the first ":" (before any / ? #) is a scheme to the URL parser. A
  // real scheme is plain ASCII; anything else there (`&#106;avascript:`) is obfuscation
  // that an HTML parser would decode into a live scheme.
  const delim = cleaned.search(/[:/?#]/);
  const head = delim < 0 ? cleaned : cleaned.slice(0, delim);
  if (cleaned[delim] === ':' && !/^[a-z][a-z0-9+.-]*$/i.test(head)) return null;
  // `&#x6a;avascript&colon;x` has no literal colon yet: an entity in the first segment of
  // a string that could decode to one is rejected too.
  if (head.includes('&') && /[:;]/.test(cleaned)) return null;

  let parsed: URL;
  try {
    parsed = new URL(cleaned, base ?? globalThis.document?.baseURI);
  } catch {
    return null;
  }
  return ALLOWED_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

/**
 * `safeUrl` for what becomes an image's `src`: http(s) only (`mailto:`/`tel:` pass the
 * allow-list but are no images), else null. The image of a message (the transcript's
 * `image_url`, another tab's turn, an upload's URL) and a card's image take it.
 */
export function safeImageUrl(url: unknown): string | null {
  const safe = typeof url === 'string' ? safeUrl(url) : null;
  return safe && /^https?:/i.test(safe) ? safe : null;
}
