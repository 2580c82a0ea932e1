/**
 * Build-time trim of marked (`vite build` only): the widget uses marked's Lexer and builds
 * DOM from the tokens itself (src/markdown/), so the Parser, Renderer and Hooks
 * are dead weight, 3.3 KB gzip of the script tag. So are the rule sets of the modes the
 * widget never lexes in (src/markdown/lex.ts: GFM, neither `pedantic` nor `breaks`):
 * marked builds them from regexes at load, 0.4 KB gzip; they are made `0` here. For the
 * same reason the reads of `pedantic`, `extensions`, `breaks`, `gfm`, `hooks` and `silent`
 * (never changed) become constants, and the code they guard goes: 0.5 KB gzip.
 *
 * The bundler cannot drop them on its own: marked's ES bundle ends with the `marked()`
 * convenience API, a default instance made at load (`new Marked()`, a constructor call the
 * bundler must keep) and a function with static properties that reach every class. This
 * plugin cuts that tail off and exports only what is declared before it. It parses the
 * file rather than matching text, and fails the build if the shape is not what it knows,
 * so a marked upgrade cannot silently bring the weight back or break the widget.
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';
import { parseSync } from 'rolldown/utils';

const MARKED_BUNDLE = /[\\/]node_modules[\\/]marked[\\/]lib[\\/]marked\.esm\.js$/;

/** What src/ imports from marked at runtime; the build fails if the trim would lose one. */
const NEEDED = ['Lexer', 'Tokenizer', 'getDefaults'];

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
interface Identifier extends Node {
  name: string;
}
interface Specifier extends Node {
  local: Identifier;
  exported: Identifier;
}

function declaredNames(statement: Node): string[] {
  if (statement.type === 'VariableDeclaration') {
    return (statement.declarations as Node[]).flatMap((d) => {
      const id = d.id as Node;
      return id.type === 'Identifier' ? [(id as Identifier).name] : [];
    });
  }
  if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
    const id = statement.id as Identifier | null;
    return id ? [id.name] : [];
  }
  return [];
}

/**
 * The rule sets of `pedantic` (block and inline) and `breaks` (inline): the values of those
 * keys in the objects `{normal, gfm, pedantic}` and `{normal, gfm, breaks, pedantic}` that
 * marked picks its rules from. Returns the initialisers to replace, or null if the shape
 * is not the one known.
 */
function unusedRuleSets(body: Node[]): Node[] | null {
  const declarators = body.filter((n) => n.type === 'VariableDeclaration').flatMap((n) => n.declarations as Node[]);
  const keysOf = (init: Node) => ((init.properties as Node[]) ?? []).map((p) => ((p.key as Identifier | undefined)?.name ?? '?') as string);
  const valueOf = (init: Node, key: string) => (init.properties as Node[]).find((p) => (p.key as Identifier).name === key)?.value as Node;
  const block = declarators.find(
    (d) => (d.init as Node | null)?.type === 'ObjectExpression' && keysOf(d.init as Node).join() === 'normal,gfm,pedantic',
  );
  const inline = declarators.find(
    (d) => (d.init as Node | null)?.type === 'ObjectExpression' && keysOf(d.init as Node).join() === 'normal,gfm,breaks,pedantic',
  );
  if (!block || !inline) return null;
  const unused = [
    valueOf(block.init as Node, 'pedantic'),
    valueOf(inline.init as Node, 'breaks'),
    valueOf(inline.init as Node, 'pedantic'),
  ];
  const inits: Node[] = [];
  for (const value of unused) {
    if (value?.type !== 'Identifier') return null;
    const declarator = declarators.find((d) => (d.id as Identifier).name === (value as Identifier).name);
    if (!declarator?.init) return null;
    inits.push(declarator.init as Node);
  }
  return inits;
}

/**
 * Options the widget's lexers never change (src/markdown/lex.ts takes marked's defaults, GFM
 * on): each read of them in marked's code becomes its constant, so the minifier drops what
 * they guard (the pedantic branches of the tokenizer, the extension and hook calls of the
 * lexer, the choice of rule sets, the `silent` console path).
 */
const FIXED_OPTIONS: Record<string, string> = {
  pedantic: 'false',
  extensions: 'null',
  breaks: 'false',
  gfm: 'true',
  hooks: 'null',
  silent: 'false',
};

/** Every `this.options.<name>` of FIXED_OPTIONS in the tree under `node`. */
function fixedOptionReads(node: unknown, out: Array<{ node: Node; value: string }> = []): Array<{ node: Node; value: string }> {
  if (Array.isArray(node)) {
    for (const child of node) fixedOptionReads(child, out);
    return out;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return out;
  const n = node as Node;
  if (n.type === 'MemberExpression' && !n.computed) {
    const object = n.object as Node;
    const name = (n.property as Identifier).name;
    if (
      object.type === 'MemberExpression' &&
      (object.object as Node).type === 'ThisExpression' &&
      (object.property as Identifier).name === 'options' &&
      Object.hasOwn(FIXED_OPTIONS, name)
    ) {
      out.push({ node: n, value: FIXED_OPTIONS[name]! });
      return out;
    }
  }
  for (const key in n) if (key !== 'type' && key !== 'start' && key !== 'end') fixedOptionReads(n[key], out);
  return out;
}

/**
 * Members of the Lexer the widget never calls (src/markdown/lex.ts drives `blockTokens` and
 * `inlineTokens` itself): the static shortcuts and `lex()`, the whole-document entry point
 * only they and the trimmed tail use. `static` and the member name, as declared.
 */
const UNUSED_LEXER_MEMBERS = ['static rules', 'static lex', 'static lexInline', 'lex'];

/** The spans of UNUSED_LEXER_MEMBERS in the class the Lexer export names, or null if one is not there. */
function unusedLexerMembers(body: Node[], lexerLocal: string): Node[] | null {
  const declarator = body
    .filter((n) => n.type === 'VariableDeclaration')
    .flatMap((n) => n.declarations as Node[])
    .find((d) => (d.id as Identifier).name === lexerLocal);
  const init = declarator?.init as Node | undefined;
  if (init?.type !== 'ClassExpression') return null;
  const members = (init.body as Node).body as Node[];
  const found = UNUSED_LEXER_MEMBERS.map((wanted) =>
    members.find((m) => m.type === 'MethodDefinition' && `${m.static ? 'static ' : ''}${(m.key as Identifier).name}` === wanted),
  );
  return found.every(Boolean) ? (found as Node[]) : null;
}

/**
 * Regexes of marked's `other` rules that only its Renderer, its Parser and the pedantic mode
 * read (the widget keeps none of them): each is built at load, and a bundler cannot drop an
 * object's property. The built chunks are searched for every one of them afterwards: a
 * marked that reads one again fails the build instead of the widget.
 */
const UNUSED_RULES = [
  'outputLinkReplace',
  'listReplaceNesting',
  'pedanticHrefTitle',
  'escapeTest',
  'escapeReplace',
  'escapeTestNoEncode',
  'escapeReplaceNoEncode',
  'percentDecode',
  'carriageReturn',
  'spaceLine',
  'notSpaceStart',
  'endingNewline',
  'pedanticHeadingBeginRegex',
];

/** Each of UNUSED_RULES as a span to remove from the `other` rules object (with its comma), or null if one is not there. */
function unusedRules(body: Node[]): Array<{ start: number; end: number }> | null {
  const other = body
    .filter((n) => n.type === 'VariableDeclaration')
    .flatMap((n) => n.declarations as Node[])
    .map((d) => d.init as Node | null)
    .find(
      (init) =>
        init?.type === 'ObjectExpression' && ((init.properties as Node[])[0]?.key as Identifier | undefined)?.name === 'codeRemoveIndent',
    );
  if (!other) return null;
  const properties = other.properties as Node[];
  const spans = UNUSED_RULES.map((name) => {
    const at = properties.findIndex((p) => (p.key as Identifier).name === name);
    const next = properties[at + 1];
    return at < 0 || !next ? null : { start: properties[at]!.start, end: next.start };
  });
  return spans.every(Boolean) ? (spans as Array<{ start: number; end: number }>) : null;
}

/** True for `var x = new Marked(...)` at the top level. */
function makesInstance(statement: Node, markedLocal: string): boolean {
  if (statement.type !== 'VariableDeclaration') return false;
  return (statement.declarations as Node[]).some((d) => {
    const init = d.init as Node | null;
    return init?.type === 'NewExpression' && (init.callee as Identifier).name === markedLocal;
  });
}

export function markedLexerOnly(): Plugin {
  return {
    name: 'agent-chat-marked-lexer-only',
    apply: 'build',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!MARKED_BUNDLE.test(file)) return null;
      const fail = (why: string): never => {
        throw new Error(`marked-lexer-only: ${why} in ${file}; update scripts/vite-marked.ts for this marked version`);
      };
      const parsed = parseSync(file, code, { lang: 'js', astType: 'js', sourceType: 'module' });
      if (parsed.errors.length) fail('parse errors');
      const body = parsed.program.body as unknown as Node[];
      const exportDecl = body[body.length - 1]!;
      if (exportDecl.type !== 'ExportNamedDeclaration') fail('no export list at the end');
      const specifiers = exportDecl.specifiers as Specifier[];
      const markedLocal = specifiers.find((s) => s.exported.name === 'Marked')?.local.name ?? fail('no Marked export');

      const cut = body.findIndex((statement) => makesInstance(statement, markedLocal));
      if (cut < 0) fail('no default instance');
      const head = new Set(body.slice(0, cut).flatMap(declaredNames));
      const kept = specifiers.filter((s) => head.has(s.local.name));
      for (const name of NEEDED)
        if (!kept.some((s) => s.exported.name === name)) fail(`${name} is not declared before the default instance`);

      const s = new RolldownMagicString(code);
      for (const init of unusedRuleSets(body) ?? fail('the pedantic and breaks rule sets are not where they were'))
        s.overwrite(init.start, init.end, '0');
      const reads = fixedOptionReads(body.slice(0, cut));
      for (const name of Object.keys(FIXED_OPTIONS))
        if (!reads.some((r) => code.slice(r.node.start, r.node.end).endsWith(name))) fail(`no read of options.${name}`);
      for (const { node, value } of reads) s.overwrite(node.start, node.end, value);
      const lexerLocal = specifiers.find((k) => k.exported.name === 'Lexer')!.local.name;
      for (const member of unusedLexerMembers(body, lexerLocal) ?? fail('the Lexer does not declare the members it did'))
        s.remove(member.start, member.end);
      for (const rule of unusedRules(body) ?? fail('the other rules are not the ones known')) s.remove(rule.start, rule.end);
      s.remove(body[cut]!.start, exportDecl.start);
      s.overwrite(exportDecl.start, exportDecl.end, `export{${kept.map((k) => `${k.local.name} as ${k.exported.name}`).join(',')}};`);
      const map = s.generateMap({ hires: true, source: file, includeContent: true });
      return {
        code: s.toString(),
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent as string[], names: map.names, mappings: map.mappings },
      };
    },
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const read = UNUSED_RULES.find((name) => new RegExp(`\\.${name}\\b`).test(chunk.code));
        if (read)
          throw new Error(
            `marked-lexer-only: ${chunk.fileName} reads the rule ${read}, removed from marked; update scripts/vite-marked.ts`,
          );
      }
    },
  };
}
