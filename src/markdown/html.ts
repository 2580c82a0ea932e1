/**
 * The token walk's HTML output (src/markdown/tokens.ts): `allowHtml` renders a reply as an
 * HTML string, with its raw HTML left in, for DOMPurify. It comes with the allow-html chunk
 * (src/security/html-policy.ts): pages that do not opt in never download it.
 */
import type { Out } from './tokens.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Report hygiene, not the security barrier (DOMPurify still decides what survives):
 * Chromium checks even DOMPurify's inert parse against the host page's CSP, so inline
 * handlers, style attributes and <style>/<script> elements in opt-in HTML would be
 * reported as violations on the host. They are dropped before any parser sees them.
 */
function withoutInlineCode(html: string): string {
  return (
    html
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
      // An unclosed opener loses only itself: what follows stays visible as text.
      .replace(/<\/?(?:script|style)\b[^>]*>?/gi, '')
      .replace(/<[a-z][^>]*>?/gi, (tag) => tag.replace(/[\s/](?:on[\w-]*|style)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?(?=[\s/>]|$)/gi, ''))
  );
}

const VOID_TAGS = new Set(['br', 'hr', 'img']);

/** `allowHtml`: an HTML string for DOMPurify, with the reply's raw HTML left in it. */
export const toHtml: Out<string> = {
  el(tag, children = [], attrs) {
    let open = `<${tag}`;
    if (attrs) for (const name in attrs) open += ` ${name}="${escapeHtml(attrs[name]!)}"`;
    return VOID_TAGS.has(tag) ? `${open}>` : `${open}>${children.join('')}</${tag}>`;
  },
  text: escapeHtml,
  html: withoutInlineCode,
};
