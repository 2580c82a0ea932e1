/**
 * The `allowHtml` policy: a private DOMPurify instance with a strict allow-list. This module
 * and DOMPurify are one lazy chunk beside the script, fetched only when a widget opts in
 * (`loadHtmlSupport` in markdown.ts), so the tag lists and hooks cost the others nothing.
 *
 * The chunk imports nothing from the script; what it shares with it (the URL allow-list,
 * the attributes every link and image gets, the Trusted Types policy) is passed in. A chunk
 * that imported the script back would load a second copy when a host adds a query string.
 * The markdown renderer's HTML writer (src/markdown/html.ts) comes with it, as only the
 * pages that opt in write HTML.
 */
import createDOMPurify, { type Config } from 'dompurify';

// The walk's HTML output comes with this chunk: only a widget that opts in needs it.
export { toHtml } from '../markdown/html.js';

export interface PolicyInputs {
  /** The widget's URL allow-list: the URL to use, or null for none. */
  safeUrl(url: string): string | null;
  /** Set on every link and every image that survives. */
  linkAttrs: Record<string, string>;
  imageAttrs: Record<string, string>;
  /** The widget's Trusted Types policy, when the browser has one and the host allows it. */
  trustedPolicy: unknown;
}

/** Parses HTML inertly and returns what survives the allow-list. */
export type Sanitize = (html: string) => DocumentFragment;

const MARKDOWN_TAGS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'span',
  's',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
// Formatting only. Nothing interactive, embedding, styling or foreign-namespace (svg/math
// are the usual mutation-XSS carriers).
const HTML_SUBSET_TAGS = [
  'abbr',
  'b',
  'caption',
  'cite',
  'dd',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  'samp',
  'small',
  'sub',
  'summary',
  'sup',
  'time',
  'u',
  'var',
];
const FORBIDDEN_TAGS = [
  'base',
  'button',
  'embed',
  'form',
  'iframe',
  'input',
  'link',
  'math',
  'meta',
  'object',
  'option',
  'script',
  'select',
  'style',
  'svg',
  'template',
  'textarea',
  'frame',
  'frameset',
  'portal',
  'noscript',
  'video',
  'audio',
  'source',
  'track',
  'canvas',
  'dialog',
];
const ALLOWED_ATTRS = ['href', 'src', 'alt', 'title', 'class', 'start', 'align', 'lang', 'dir', 'datetime'];

/** Null when DOMPurify cannot run in this browser; raw HTML then stays literal text. */
export function createSanitizer(inputs: PolicyInputs): Sanitize | null {
  // A private instance: hooks on the shared default instance would leak into host code.
  const purifier = createDOMPurify(window);
  if (!purifier.isSupported) return null;
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'href' || data.attrName === 'src') {
      const url = inputs.safeUrl(data.attrValue);
      if (url === null) data.keepAttr = false;
      else data.attrValue = url;
    } else if (data.attrName === 'class') {
      // Only the classes the markdown renderer writes; opt-in HTML must not borrow the
      // widget's own ones.
      data.attrValue = data.attrValue
        .split(/\s+/)
        .filter((c) => /^language-\S+$/.test(c) || c === 'task-checkbox' || c === 'plain' || c === 'continued')
        .join(' ');
      if (!data.attrValue) data.keepAttr = false;
    }
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const set = (attrs: Record<string, string>) => {
      for (const name in attrs) node.setAttribute(name, attrs[name]!);
    };
    if (node.nodeName === 'A' && node.hasAttribute('href')) set(inputs.linkAttrs);
    else if (node.nodeName === 'IMG') {
      set(inputs.imageAttrs);
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
    }
  });
  const config: Config & { RETURN_DOM_FRAGMENT: true } = {
    ALLOWED_TAGS: [...MARKDOWN_TAGS, ...HTML_SUBSET_TAGS],
    ALLOWED_ATTR: ALLOWED_ATTRS,
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: ['style', 'id', 'name'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_DOM_FRAGMENT: true,
    // DOMPurify parses through this policy; without it, it would try to create its own
    // `dompurify` policy, which a host allow-listing only `agent-chat` would refuse.
    ...(inputs.trustedPolicy ? { TRUSTED_TYPES_POLICY: inputs.trustedPolicy as Config['TRUSTED_TYPES_POLICY'] } : {}),
  };
  return (html) => purifier.sanitize(html, config);
}
