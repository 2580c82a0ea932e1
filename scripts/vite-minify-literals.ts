/**
 * Build-time minification of Lit's tagged templates (`vite build` only, src/ only).
 *
 * - css`...` without `${}` is minified with lightningcss (Vite's own dependency); when
 *   lightningcss is missing or fails the template is left untouched.
 * - html`...` / svg`...`: whitespace is collapsed conservatively, quasi by quasi, with a
 *   small HTML state machine that runs across the `${}` holes (never touching them):
 *     inside a tag, a whitespace run between attributes becomes one space and the run
 *     before `>` or `/>` goes; in text, a whitespace run that contains a line break
 *     becomes a single `\n` (still whitespace, so no text node appears or disappears and
 *     spaces between inline elements stay); quoted attribute values, comments and the
 *     content of <pre>, <textarea>, <script> and <style> are kept byte for byte.
 *   A template whose raw text has a backslash is left alone (escapes cook differently).
 * - css`...` becomes `unsafeCSS(`...`)` in a module where every css template is a string,
 *   or holds only `${unsafeCSS(x)}` (which adds x's text): the same CSSResult, and no page
 *   needs the `css` tag's check of interpolated values, 0.15 KB gzip of the shell.
 *
 * The result is the same DOM up to the amount of collapsible whitespace in text nodes.
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';
import { parseSync } from 'rolldown/utils';

type TransformCss = (css: string) => string | null;

async function loadCssMinifier(): Promise<TransformCss> {
  try {
    const { transform } = await import('lightningcss');
    return (css) => {
      try {
        const { code, warnings } = transform({
          filename: 'template.css',
          code: Buffer.from(css),
          minify: true,
          errorRecovery: false,
        });
        return warnings.length ? null : code.toString();
      } catch {
        return null;
      }
    };
  } catch {
    return () => null;
  }
}

const WS = /[ \t\n\r\f]/;
const RAW_TEXT = new Set(['pre', 'textarea', 'script', 'style', 'title']);

type State =
  | { kind: 'text' }
  | { kind: 'tag'; name: string; closing: boolean }
  | { kind: 'quoted'; quote: string; name: string; closing: boolean }
  | { kind: 'comment' }
  | { kind: 'raw'; name: string };

/** Minifies the quasis of one html/svg template; returns null when it must stay as is. */
export function minifyHtmlQuasis(quasis: string[]): string[] | null {
  if (quasis.some((q) => q.includes('\\'))) return null;
  let state: State = { kind: 'text' };
  const out: string[] = [];
  for (const quasi of quasis) {
    let result = '';
    let i = 0;
    while (i < quasi.length) {
      const c = quasi[i]!;
      switch (state.kind) {
        case 'text': {
          if (WS.test(c)) {
            let j = i;
            while (j < quasi.length && WS.test(quasi[j]!)) j++;
            const run = quasi.slice(i, j);
            result += run.includes('\n') ? '\n' : run;
            i = j;
            continue;
          }
          if (c === '<' && quasi.startsWith('<!--', i)) {
            state = { kind: 'comment' };
            result += '<!--';
            i += 4;
            continue;
          }
          const m = c === '<' ? /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/.exec(quasi.slice(i)) : null;
          if (m) {
            state = { kind: 'tag', name: m[2]!.toLowerCase(), closing: m[1] === '/' };
            result += m[0];
            i += m[0].length;
            continue;
          }
          result += c;
          i++;
          continue;
        }
        case 'tag': {
          if (WS.test(c)) {
            let j = i;
            while (j < quasi.length && WS.test(quasi[j]!)) j++;
            const next = quasi[j];
            // Drop the run before `>` / `/>`; keep one space elsewhere (also at a hole).
            if (next === '>' || (next === '/' && quasi[j + 1] === '>')) result += '';
            else result += ' ';
            i = j;
            continue;
          }
          if (c === '"' || c === "'") {
            state = { kind: 'quoted', quote: c, name: state.name, closing: state.closing };
          } else if (c === '>') {
            const selfClosing = quasi[i - 1] === '/';
            state = !state.closing && !selfClosing && RAW_TEXT.has(state.name) ? { kind: 'raw', name: state.name } : { kind: 'text' };
          }
          result += c;
          i++;
          continue;
        }
        case 'quoted': {
          if (c === state.quote) state = { kind: 'tag', name: state.name, closing: state.closing };
          result += c;
          i++;
          continue;
        }
        case 'comment': {
          if (quasi.startsWith('-->', i)) {
            state = { kind: 'text' };
            result += '-->';
            i += 3;
            continue;
          }
          result += c;
          i++;
          continue;
        }
        case 'raw': {
          const close = `</${state.name}`;
          if (quasi.slice(i, i + close.length).toLowerCase() === close) {
            state = { kind: 'tag', name: state.name, closing: true };
            result += quasi.slice(i, i + close.length);
            i += close.length;
            continue;
          }
          result += c;
          i++;
          continue;
        }
      }
    }
    out.push(result);
  }
  return out;
}

/** Escapes cooked text for a template literal's raw source. */
function toRaw(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

interface Quasi {
  start: number;
  end: number;
  value: { raw: string; cooked: string | null };
}
interface Node {
  type: string;
  [key: string]: unknown;
}

function walk(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  const n = node as Node;
  if (typeof n.type === 'string') visit(n);
  for (const key in n) {
    if (key === 'parent') continue;
    const value = n[key];
    if (value && typeof value === 'object') walk(value, visit);
  }
}

const CSS_TAG = '@lit/reactive-element/css-tag.js';

/**
 * A module's css`...` templates as `unsafeCSS(`...`)`, when all of them only add text (see
 * above) and `css` serves nothing else: the import and each template rewritten in `s`.
 * Returns whether it did.
 */
function cssAsText(program: Node, code: string, s: RolldownMagicString): boolean {
  type Span = Node & { start: number; end: number };
  const imports = (program.body as Span[]).filter(
    (n) => n.type === 'ImportDeclaration' && (n.source as { value: string }).value === CSS_TAG,
  );
  const specifiers = imports.flatMap((n) => n.specifiers as Array<Span & { imported?: { name: string }; local: { name: string } }>);
  // Both names may end up bound to unsafeCSS (`import { unsafeCSS as css, unsafeCSS }`).
  const cssImport = specifiers.find((n) => n.type === 'ImportSpecifier' && n.imported?.name === 'css');
  if (!cssImport) return false;
  const unsafe = specifiers.find((n) => n.type === 'ImportSpecifier' && n.imported?.name === 'unsafeCSS')?.local.name;
  const css = cssImport.local.name;
  const templates: Span[] = [];
  let uses = 0;
  walk(
    (program.body as Span[]).filter((n) => n.type !== 'ImportDeclaration'),
    (node) => {
      if (node.type === 'Identifier' && node.name === css) uses++;
      if (
        node.type === 'TaggedTemplateExpression' &&
        (node.tag as Node).type === 'Identifier' &&
        (node.tag as { name: string }).name === css
      )
        templates.push(node as Span);
    },
  );
  const textOnly = (e: Span) =>
    e.type === 'CallExpression' &&
    !!unsafe &&
    (e.callee as Node).type === 'Identifier' &&
    (e.callee as { name: string }).name === unsafe &&
    (e.arguments as Node[]).length === 1 &&
    (e.arguments as Node[])[0]!.type !== 'SpreadElement';
  // `css` is only ever a template's tag.
  if (!templates.length || uses !== templates.length) return false;
  if (!templates.every((t) => ((t.quasi as Node).expressions as Span[]).every(textOnly))) return false;
  s.overwrite(cssImport.start, cssImport.end, `unsafeCSS as ${css}`);
  for (const t of templates) {
    const tag = t.tag as Span;
    s.appendLeft(tag.end, '(');
    s.appendLeft(t.end, ')');
    for (const e of (t.quasi as Node).expressions as Span[]) {
      const arg = (e.arguments as Span[])[0]!;
      s.overwrite(e.start, e.end, code.slice(arg.start, arg.end));
    }
  }
  return true;
}

export interface MinifyLiteralsOptions {
  /** Modules to process (default: TypeScript/JavaScript under src/). */
  include?: RegExp;
}

export function minifyLiterals(options: MinifyLiteralsOptions = {}): Plugin {
  const include = options.include ?? /\/src\/.*\.[cm]?[jt]s$/;
  let minifyCss: TransformCss = () => null;
  const stats = { html: 0, css: 0, saved: 0, text: 0 };
  return {
    name: 'agent-chat-minify-literals',
    apply: 'build',
    async buildStart() {
      minifyCss = await loadCssMinifier();
      stats.html = stats.css = stats.saved = stats.text = 0;
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!include.test(file) || file.includes('/node_modules/')) return null;
      if (!/\b(html|svg|css)`/.test(code)) return null;
      const lang = /\.tsx?$/.test(file) ? 'ts' : 'js';
      const parsed = parseSync(file, code, { lang, astType: 'js', sourceType: 'module' });
      if (parsed.errors.length) return null;
      const s = new RolldownMagicString(code);
      walk(parsed.program, (node) => {
        if (node.type !== 'TaggedTemplateExpression') return;
        const tag = node.tag as Node & { name?: string };
        if (tag.type !== 'Identifier') return;
        const quasi = node.quasi as Node & { quasis: Quasi[]; expressions: unknown[] };
        const quasis = quasi.quasis;
        let next: string[] | null = null;
        if (tag.name === 'html' || tag.name === 'svg') {
          next = minifyHtmlQuasis(quasis.map((q) => q.value.raw));
          if (next) stats.html++;
        } else if (tag.name === 'css' && quasis.length === 1 && quasis[0]!.value.cooked !== null) {
          const minified = minifyCss(quasis[0]!.value.cooked);
          if (minified !== null) {
            next = [toRaw(minified)];
            stats.css++;
          }
        }
        if (!next) return;
        next.forEach((text, i) => {
          const q = quasis[i]!;
          // Quasi spans exclude the backtick / `${` / `}` delimiters.
          if (code.slice(q.start, q.end) !== q.value.raw)
            throw new Error(
              `minify-literals: unexpected quasi span in ${file} ${q.start} ${JSON.stringify(code.slice(q.start, q.end))} vs ${JSON.stringify(q.value.raw)}`,
            );
          if (text !== q.value.raw) {
            stats.saved += q.value.raw.length - text.length;
            if (text === '') s.remove(q.start, q.end);
            else s.overwrite(q.start, q.end, text);
          }
        });
      });
      if (cssAsText(parsed.program as unknown as Node, code, s)) stats.text++;
      if (!s.hasChanged()) return null;
      const map = s.generateMap({ hires: true, source: file, includeContent: true });
      return {
        code: s.toString(),
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent as string[], names: map.names, mappings: map.mappings },
      };
    },
    buildEnd() {
      this.info?.(
        `minified ${stats.html} html/svg and ${stats.css} css templates, -${stats.saved} chars; css as text in ${stats.text} modules`,
      );
    },
  };
}
