/**
 * Writes src/markdown/vendor/marked.js: marked's lexer, trimmed to what the widget runs
 * (`npm run vendor:marked` after changing the pinned version of marked in package.json).
 *
 * The widget uses marked's Lexer and builds DOM from the tokens itself (src/markdown/), so
 * the Parser, Renderer and Hooks are dead weight, 3.3 KB gzip. So are the rule sets of the
 * modes the widget never lexes in (src/markdown/lex.ts: GFM, neither `pedantic` nor
 * `breaks`): marked builds them from regexes at load, 0.4 KB gzip; they are made `0` here.
 * For the same reason the reads of the options it never sets become constants, and the code
 * they guard goes: 0.4 KB gzip. Then what is left unread (0.44 KB gzip): `normal`'s versions
 * of the rules `gfm` replaces, the `other` rules that only the Parser, the Renderer or the
 * other modes read, and the regexes only those used, which marked builds at load with calls
 * the minifier cannot know are pure.
 *
 * A bundler cannot drop them on its own: marked's ES bundle ends with the `marked()`
 * convenience API, a default instance made at load (`new Marked()`, a constructor call the
 * bundler must keep) and a function with static properties that reach every class. This
 * script cuts that tail off and exports only what src/ uses. It parses the file rather than
 * matching text, and fails if the shape is not what it knows, so a marked upgrade cannot
 * silently bring the weight back or break the widget.
 *
 * The trimmed file is committed, so the build, the browser suite and the package's dist/lib
 * all run the same lexer and no build plugin rewrites a dependency. test/unit/build/marked-trim
 * holds it to lexing as the pinned marked does (CommonMark's examples, GFM's, property tests)
 * and to being what this script writes from that version.
 *
 * Usage: tsx scripts/vendor-marked.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RolldownMagicString } from 'rolldown';
import { parseSync } from 'rolldown/utils';

/** What src/ imports from marked at runtime: all the trimmed bundle exports, so importing anything else fails the build. */
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

/** A top-level `var`'s declarator by the name it declares. */
type Declarators = Map<string, Node>;

/**
 * marked's rule sets by mode: the objects `{normal, gfm, pedantic}` (block) and
 * `{normal, gfm, breaks, pedantic}` (inline) it picks its rules from, each value the name of
 * a declared object. Null if the shape is not the one known.
 */
function ruleSets(declarators: Declarators): Array<Map<string, Node>> | null {
  const keysOf = (init: Node) => ((init.properties as Node[]) ?? []).map((p) => ((p.key as Identifier | undefined)?.name ?? '?') as string);
  const sets: Array<Map<string, Node>> = [];
  for (const keys of ['normal,gfm,pedantic', 'normal,gfm,breaks,pedantic']) {
    const found = [...declarators.values()].filter(
      (d) => (d.init as Node | null)?.type === 'ObjectExpression' && keysOf(d.init as Node).join() === keys,
    );
    if (found.length !== 1) return null;
    const set = new Map<string, Node>();
    for (const p of (found[0]!.init as Node).properties as Node[]) {
      const value = p.value as Node;
      const declarator = value.type === 'Identifier' ? declarators.get((value as Identifier).name) : undefined;
      if (!declarator?.init) return null;
      set.set((p.key as Identifier).name, declarator);
    }
    sets.push(set);
  }
  return sets;
}

/**
 * The rules of `normal` that `gfm` replaces: with `gfm` fixed on, the lexer always picks the
 * gfm set, which is `{...normal, <its own rules>}`, so normal's versions of those rules are
 * never read. Returns the values to make `0`, or null if the shape is not the one known.
 */
function replacedNormalRules(set: Map<string, Node>): Node[] | null {
  const normal = set.get('normal')!;
  const [spread, ...own] = ((set.get('gfm')!.init as Node).properties as Node[] | undefined) ?? [];
  const spreadOf = spread?.type === 'SpreadElement' ? (spread.argument as Node) : null;
  if (spreadOf?.type !== 'Identifier' || (spreadOf as Identifier).name !== (normal.id as Identifier).name) return null;
  if ((normal.init as Node).type !== 'ObjectExpression' || own.some((p) => p.type !== 'Property' || p.computed)) return null;
  const replaced = new Set(own.map((p) => (p.key as Identifier).name));
  return ((normal.init as Node).properties as Node[])
    .filter((p) => p.type === 'Property' && replaced.has((p.key as Identifier).name))
    .map((p) => p.value as Node);
}

/**
 * Options the widget's lexers never set (src/markdown/lex.ts takes marked's defaults and
 * sets `gfm`, which is already on): each read of them in marked's code becomes its
 * constant, so the minifier drops what they guard (the pedantic branches of the tokenizer,
 * the extension and hook calls of the lexer, the rule sets chosen for other modes).
 */
const FIXED_OPTIONS: Record<string, string> = {
  pedantic: 'false',
  extensions: 'null',
  gfm: 'true',
  breaks: 'false',
  hooks: 'null',
  silent: 'false',
};

/** Calls `visit` on `node` and on every node under it; a visit that returns false skips what is under it. */
function walk(node: unknown, visit: (n: Node) => boolean | void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  const n = node as Node;
  if (visit(n) === false) return;
  for (const key in n) if (key !== 'type' && key !== 'start' && key !== 'end') walk(n[key], visit);
}

/**
 * Calls `visit` on every identifier under `node` that names a binding (not a property's
 * name in `a.name` or `{name: …}`), skipping the nodes in `skip`.
 */
function bindingNames(node: unknown, skip: ReadonlyMap<Node, unknown>, visit: (id: Identifier) => void): void {
  walk(node, (n) => {
    if (skip.has(n)) return false;
    if (n.type === 'Identifier') visit(n as Identifier);
    const name =
      (n.type === 'MemberExpression' && !n.computed && n.property) || (n.type === 'Property' && !n.computed && !n.shorthand && n.key);
    const keyed = (n.type === 'MethodDefinition' || n.type === 'PropertyDefinition') && !n.computed && n.key;
    if (!name && !keyed) return;
    // Everything but the name.
    for (const key in n)
      if (key !== 'type' && key !== 'start' && key !== 'end' && n[key] !== name && n[key] !== keyed) bindingNames(n[key], skip, visit);
    return false;
  });
}

/** The option `n` reads if it is `this.options.<one of FIXED_OPTIONS>`. */
function fixedOption(n: Node): string | null {
  if (n.type !== 'MemberExpression' || n.computed) return null;
  const object = n.object as Node;
  const name = (n.property as Identifier).name;
  return object.type === 'MemberExpression' &&
    (object.object as Node).type === 'ThisExpression' &&
    (object.property as Identifier).name === 'options' &&
    Object.hasOwn(FIXED_OPTIONS, name)
    ? name
    : null;
}

/** Whether `n` is always truthy or always falsy once the fixed options are constants; undefined when not known. */
function truthiness(n: Node): boolean | undefined {
  const option = fixedOption(n);
  if (option) return FIXED_OPTIONS[option] === 'true';
  if (n.type === 'Literal') return !!n.value || (n.regex as object | undefined) !== undefined;
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const value = truthiness(n.argument as Node);
    return value === undefined ? undefined : !value;
  }
  if (n.type === 'LogicalExpression' && (n.operator === '&&' || n.operator === '||')) {
    const left = truthiness(n.left as Node);
    if (left === undefined) return undefined;
    return (n.operator === '&&') === left ? truthiness(n.right as Node) : left;
  }
  return undefined;
}

/**
 * Like `walk`, over the code that can run once the fixed options are constants: the branch
 * of a condition they decide that cannot be taken is skipped.
 */
function walkLive(node: unknown, visit: (n: Node) => boolean | void): void {
  walk(node, (n) => {
    if (visit(n) === false) return false;
    if (n.type === 'ConditionalExpression' || n.type === 'IfStatement') {
      const taken = truthiness(n.test as Node);
      if (taken === undefined) return;
      walkLive(n.test, visit);
      walkLive(taken ? n.consequent : n.alternate, visit);
      return false;
    }
    if (n.type === 'LogicalExpression' && (n.operator === '&&' || n.operator === '||')) {
      const left = truthiness(n.left as Node);
      if (left === undefined || (n.operator === '&&') === left) return;
      walkLive(n.left, visit);
      return false;
    }
  });
}

/**
 * The object of the rules that are neither block nor inline (`other`): the value of `other`
 * in the lexer's `{other, block, inline}`. Null unless it is read only by name
 * (`other.name`), never listed, copied or indexed: then a rule no code reads by name is
 * never read at all.
 */
function otherRules(head: Node[], declarators: Declarators): Node | null {
  const holders: Node[] = [];
  walk(head, (n) => {
    if (
      n.type === 'ObjectExpression' &&
      ((n.properties as Node[]) ?? []).map((p) => (p.key as Identifier | undefined)?.name).join() === 'other,block,inline'
    )
      holders.push(n);
  });
  const value = holders.length === 1 ? ((holders[0]!.properties as Node[])[0]!.value as Node) : null;
  const declarator = value?.type === 'Identifier' ? declarators.get((value as Identifier).name) : undefined;
  if ((declarator?.init as Node | undefined)?.type !== 'ObjectExpression') return null;
  const name = (declarator!.id as Identifier).name;
  let byName = true;
  const byNameOnly = (n: Node, parent: Node | null) => parent?.type === 'MemberExpression' && parent.object === n && !parent.computed;
  const visit = (n: Node, parent: Node | null): void => {
    if (n === declarator!.id || n === value) return;
    if (n.type === 'Identifier' && (n as Identifier).name === name && !byNameOnly(n, parent)) byName = false;
    if (n.type === 'MemberExpression' && !n.computed && (n.property as Identifier).name === 'other' && !byNameOnly(n, parent))
      byName = false;
    for (const key in n) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const child = n[key];
      for (const c of Array.isArray(child) ? child : [child])
        if (c && typeof c === 'object' && typeof (c as Node).type === 'string') visit(c as Node, n);
    }
  };
  for (const statement of head) visit(statement, null);
  return byName ? (declarator!.init as Node) : null;
}

/**
 * marked's `edit(regex)`: a builder of one regex (`.replace(name, part)…getRegex()`) that
 * does nothing else. The function declaration that returns an object of just `replace` and
 * `getRegex`; null unless there is exactly one.
 */
function regexBuilder(head: Node[]): string | null {
  const found = head.filter((n) => {
    if (n.type !== 'FunctionDeclaration') return false;
    const statements = (n.body as Node).body as Node[];
    const last = statements.at(-1);
    const returned = last?.type === 'ReturnStatement' ? (last.argument as Node | null) : null;
    if (returned?.type !== 'Identifier') return false;
    let keys = '';
    walk(statements, (d) => {
      if (
        d.type === 'VariableDeclarator' &&
        (d.id as Identifier).name === (returned as Identifier).name &&
        (d.init as Node | null)?.type === 'ObjectExpression'
      )
        keys = ((d.init as Node).properties as Node[]).map((p) => (p.key as Identifier | undefined)?.name).join();
    });
    return keys === 'replace,getRegex';
  });
  return found.length === 1 ? (found[0]!.id as Identifier).name : null;
}

/**
 * Whether evaluating `n` at load does nothing but build values: literals, functions, objects
 * of such values, and regexes from marked's builder (`edit(…).replace(…).getRegex()`, or a
 * helper arrow that returns one). Dropping an unused one changes nothing but the bytes.
 */
function buildsOnly(n: Node, builder: string, declarators: Declarators): boolean {
  const pure = (x: Node): boolean => buildsOnly(x, builder, declarators);
  switch (n.type) {
    case 'Literal':
    case 'Identifier':
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return true;
    case 'TemplateLiteral':
      return (n.expressions as Node[]).every(pure);
    case 'ConditionalExpression':
      return pure(n.test as Node) && pure(n.consequent as Node) && pure(n.alternate as Node);
    case 'UnaryExpression':
      return n.operator === '!' && pure(n.argument as Node);
    case 'ObjectExpression':
      return (n.properties as Node[]).every((p) =>
        p.type === 'SpreadElement' ? (p.argument as Node).type === 'Identifier' : p.kind === 'init' && !p.computed && pure(p.value as Node),
      );
    case 'CallExpression': {
      if (!(n.arguments as Node[]).every(pure)) return false;
      const callee = n.callee as Node;
      if (callee.type === 'Identifier') {
        const name = (callee as Identifier).name;
        const helper = declarators.get(name)?.init as Node | undefined;
        return name === builder || (helper?.type === 'ArrowFunctionExpression' && !!helper.expression && pure(helper.body as Node));
      }
      const method = callee.type === 'MemberExpression' && !callee.computed ? (callee.property as Identifier).name : '';
      return (
        (method === 'replace' || method === 'getRegex') && (callee.object as Node).type === 'CallExpression' && pure(callee.object as Node)
      );
    }
    default:
      return false;
  }
}

/**
 * Removes `gone` items from a comma list (declarators, properties) with their commas.
 * Returns false, removing nothing, when every item goes.
 */
function removeItems(s: RolldownMagicString, items: Node[], gone: (n: Node) => boolean): boolean {
  if (items.every(gone)) return false;
  for (let i = 0; i < items.length; i++) {
    if (!gone(items[i]!)) continue;
    let j = i;
    while (j + 1 < items.length && gone(items[j + 1]!)) j++;
    // Up to the next item kept, or from the last item kept before the run.
    if (j + 1 < items.length) s.remove(items[i]!.start, items[j + 1]!.start);
    else s.remove(items[i - 1]!.end, items[j]!.end);
    i = j;
  }
  return true;
}

/**
 * The Lexer's own entry points src/ does not use: src/markdown/lex.ts drives its lexers with
 * `blockTokens` and `inlineTokens` (test/unit/build/marked-trim.test.ts holds src/ to that), and
 * only the cut `marked()` API calls `lex()` and the static `lex()` and `lexInline()`.
 */
const UNUSED_LEXER_METHODS = new Set(['lex', 'lexInline']);

/** Those methods in the class `lexer` is declared with; null if it is not a class. */
function unusedLexerMethods(lexer: Node | undefined): Node[] | null {
  const cls = lexer?.type === 'VariableDeclarator' ? (lexer.init as Node | null) : lexer;
  if (cls?.type !== 'ClassExpression' && cls?.type !== 'ClassDeclaration') return null;
  return ((cls.body as Node).body as Node[]).filter(
    (m) => m.type === 'MethodDefinition' && !m.computed && UNUSED_LEXER_METHODS.has((m.key as Identifier).name),
  );
}

/** True for `var x = new Marked(...)` at the top level. */
function makesInstance(statement: Node, markedLocal: string): boolean {
  if (statement.type !== 'VariableDeclaration') return false;
  return (statement.declarations as Node[]).some((d) => {
    const init = d.init as Node | null;
    return init?.type === 'NewExpression' && (init.callee as Identifier).name === markedLocal;
  });
}

/** marked's ES bundle (`code`, read from `file`) trimmed to the lexer src/ runs, as JavaScript. */
export function trimMarked(code: string, file: string): string {
  const fail = (why: string): never => {
    throw new Error(`vendor-marked: ${why} in ${file}; update scripts/vendor-marked.ts for this marked version`);
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
  const head = body.slice(0, cut);
  const declared = new Set(head.flatMap(declaredNames));
  // Only what src/ uses stays exported: a runtime import of anything else fails the build,
  // and what the lexer reads can be judged from these alone.
  const exported = NEEDED.map(
    (name) =>
      specifiers.find((s) => s.exported.name === name && declared.has(s.local.name)) ??
      fail(`${name} is not declared before the default instance`),
  );
  const declarators: Declarators = new Map();
  const units = new Map<string, Node>();
  for (const statement of head) {
    for (const d of statement.type === 'VariableDeclaration' ? (statement.declarations as Node[]) : []) {
      if ((d.id as Node).type === 'Identifier') declarators.set((d.id as Identifier).name, d);
    }
    for (const name of declaredNames(statement))
      units.set(name, statement.type === 'VariableDeclaration' ? declarators.get(name)! : statement);
  }

  /** The new text of each node changed, '' for an item removed from its list. Later steps skip them: they are gone. */
  const edits = new Map<Node, string>();
  const fixed = new Set<string>();
  walk(head, (n) => {
    const option = fixedOption(n);
    if (!option) return;
    edits.set(n, FIXED_OPTIONS[option]!);
    fixed.add(option);
    return false;
  });
  for (const name of Object.keys(FIXED_OPTIONS)) if (!fixed.has(name)) fail(`no read of options.${name}`);

  const [block, inline] = ruleSets(declarators) ?? fail('the rule sets by mode are not where they were');
  for (const [set, mode] of [
    [block!, 'pedantic'],
    [inline!, 'breaks'],
    [inline!, 'pedantic'],
  ] as const)
    edits.set(set.get(mode)!.init as Node, '0');
  for (const set of [block!, inline!]) {
    for (const value of replacedNormalRules(set) ?? fail('the gfm rule sets are not normal ones with rules replaced'))
      edits.set(value, '0');
  }

  /** How many times each top-level name is referenced in what is left, its declarations aside. */
  const references = (): Map<string, number> => {
    const count = new Map<string, number>();
    const add = (id: Identifier) => count.set(id.name, (count.get(id.name) ?? 0) + 1);
    for (const statement of head) {
      if (statement.type === 'VariableDeclaration') {
        for (const d of statement.declarations as Node[]) if (!edits.has(d)) bindingNames(d.init, edits, add);
      } else if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
        bindingNames([statement.params, statement.body, statement.superClass], edits, add);
      } else {
        bindingNames(statement, edits, add);
      }
    }
    return count;
  };
  // Read only through the gfm sets' spread (and its place in the set of sets).
  for (const set of [block!, inline!])
    if (references().get((set.get('normal')!.id as Identifier).name) !== 2) fail('the normal rules are read elsewhere');

  const lexer = exported.find((s) => s.exported.name === 'Lexer')!.local.name;
  const methods = unusedLexerMethods(units.get(lexer)) ?? fail('the Lexer is not a class');
  if (methods.length !== 3) fail('the Lexer has not the lex(), static lex() and lexInline() it had');
  for (const m of methods) edits.set(m, '');

  // `other` rules that no code the exports reach reads by name, where it can run.
  const other = otherRules(head, declarators) ?? fail('the other rules are not read by name alone');
  const reached = new Set(exported.map((s) => s.local.name));
  for (const queue = [...reached]; queue.length;) {
    bindingNames(units.get(queue.pop()!), edits, ({ name }) => {
      if (!units.has(name) || reached.has(name)) return;
      reached.add(name);
      queue.push(name);
    });
  }
  const read = new Set<string>();
  for (const name of reached) {
    walkLive(units.get(name), (n) => {
      if (edits.has(n)) return false;
      if (n.type === 'MemberExpression' && !n.computed) read.add((n.property as Identifier).name);
    });
  }
  for (const name of UNUSED_LEXER_METHODS) if (read.has(name)) fail(`marked calls ${name}() itself`);
  for (const p of other.properties as Node[])
    if (p.type === 'Property' && !p.computed && !read.has((p.key as Identifier).name)) edits.set(p, '');

  // Declarations left unreferenced whose values only build regexes at load (marked's
  // builder calls are not known to be pure, so the minifier keeps them), until none is left.
  const builder = regexBuilder(head) ?? fail('no regex builder');
  for (let more = true; more;) {
    const count = references();
    more = false;
    for (const [name, d] of declarators) {
      if (edits.has(d) || count.get(name) || !d.init || !buildsOnly(d.init as Node, builder, declarators)) continue;
      edits.set(d, '');
      more = true;
    }
  }

  const ranges = [...edits.keys()].sort((a, b) => a.start - b.start);
  for (let i = 1; i < ranges.length; i++) if (ranges[i]!.start < ranges[i - 1]!.end) fail('edits overlap');
  const s = new RolldownMagicString(code);
  for (const [node, text] of edits) if (text) s.overwrite(node.start, node.end, text);
  const gone = (n: Node) => edits.get(n) === '';
  for (const m of methods) s.remove(m.start, m.end);
  removeItems(s, other.properties as Node[], gone);
  for (const statement of head) {
    if (statement.type !== 'VariableDeclaration') continue;
    const list = statement.declarations as Node[];
    if (list.some(gone) && !removeItems(s, list, gone)) s.remove(statement.start, statement.end);
  }
  s.remove(body[cut]!.start, exportDecl.start);
  s.overwrite(exportDecl.start, exportDecl.end, `export{${exported.map((k) => `${k.local.name} as ${k.exported.name}`).join(',')}};`);
  return s.toString().replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
}

const MARKED = fileURLToPath(new URL('../node_modules/marked/', import.meta.url));
const VENDOR = fileURLToPath(new URL('../src/markdown/vendor/', import.meta.url));

/** The files src/markdown/vendor/ holds, by name, as the installed marked makes them. */
export function vendoredMarked(): Record<string, string> {
  const { version } = JSON.parse(readFileSync(`${MARKED}package.json`, 'utf8')) as { version: string };
  const note = (comment: string) =>
    `${comment} Generated by scripts/vendor-marked.ts from marked ${version} (MIT License, below): do not edit.\n` +
    `${comment} Regenerate with \`npm run vendor:marked\` after changing marked's version in package.json.\n`;
  const bundle = `${MARKED}lib/marked.esm.js`;
  return {
    'marked.js': note('//') + trimMarked(readFileSync(bundle, 'utf8'), bundle),
    // The types as marked publishes them: src/ imports its Token types from here, so the package
    // needs marked only to regenerate this folder.
    'marked.d.ts': note('//') + readFileSync(`${MARKED}lib/marked.d.ts`, 'utf8'),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [name, text] of Object.entries(vendoredMarked())) {
    const path = VENDOR + name;
    let now = '';
    try {
      now = readFileSync(path, 'utf8');
    } catch {
      // Not written yet.
    }
    if (now === text) continue;
    stale.push(`src/markdown/vendor/${name}`);
    if (!check) writeFileSync(path, text);
  }
  if (check && stale.length) {
    console.error(`${stale.join(', ')}: not what the installed marked makes; run npm run vendor:marked`);
    process.exit(1);
  }
  if (!check) console.log(stale.length ? `wrote ${stale.join(', ')}` : 'src/markdown/vendor/ is up to date');
}
