/**
 * Build-time short names for the private members of src/'s classes (`vite build` only).
 *
 * A TypeScript `private` member is a plain property at run time, so the minifier keeps its
 * name (`this.announceReply()`, `this.loadThread()`, every use of it); only `#private`
 * names are shortened. terser can shorten property names too, but it renames every
 * property of a given name, so one that is also a public name, a key of an object
 * literal, a wire field or a string is not safe. Here the type checker decides, name by
 * name: a private member's name is shortened when every place src/ uses that name as a
 * property is a private member (of any class), no string of src/ holds it, no decorator
 * registers it (a reactive property is defined by its name, as a string) and no bundled
 * library uses it as a property. Those names alone are renamed, in each chunk, by terser's
 * property mangler (which also keeps clear of every other property name of the chunk and
 * of the DOM's). A private member is only used inside its class, so inside one module and
 * one chunk: each chunk's renaming stands alone.
 *
 * 0.22 KB gzip of the inline load (0.08 of the shell): 93 of the 238 private names.
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

interface PrivateNames {
  /** Names safe to shorten. */
  names: Set<string>;
  /** Private names that are not, with why (one reason each). */
  kept: Map<string, string>;
}

const MEMBER = (n: ts.Node): n is ts.ClassElement | ts.ParameterDeclaration =>
  ts.isPropertyDeclaration(n) || ts.isMethodDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n) || ts.isParameter(n);

/** The private members of src/'s classes whose names can be shortened (see above), by the type checker. */
export function privateNames(tsconfig: string, inSrc: (file: string) => boolean): PrivateNames {
  const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(resolve(tsconfig)));
  const program = ts.createProgram(parsed.fileNames.filter(inSrc), parsed.options);
  const checker = program.getTypeChecker();
  const files = program.getSourceFiles().filter((f) => inSrc(f.fileName));

  const privates = new Set<ts.Symbol>();
  const names = new Set<string>();
  const kept = new Map<string, string>();
  const keep = (name: string, why: string) => kept.has(name) || kept.set(name, why);
  const where = (f: ts.SourceFile, n: ts.Node) =>
    `${f.fileName.replace(/^.*[/\\]src[/\\]/, 'src/')}:${f.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;

  for (const f of files) {
    const visit = (n: ts.Node): void => {
      if (MEMBER(n) && n.name && ts.isIdentifier(n.name) && ts.getCombinedModifierFlags(n as ts.Declaration) & ts.ModifierFlags.Private) {
        const name = n.name.text;
        names.add(name);
        const symbols = ts.isParameter(n)
          ? checker.getSymbolsOfParameterPropertyDeclaration(n, name)
          : [checker.getSymbolAtLocation(n.name)];
        for (const symbol of symbols) if (symbol) privates.add(symbol);
        if (ts.canHaveDecorators(n) && ts.getDecorators(n)?.length) keep(name, `decorated at ${where(f, n)}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(f);
  }

  for (const f of files) {
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
        for (const word of n.text.match(/[\w$]+/g) ?? []) if (names.has(word)) keep(word, `in a string at ${where(f, n)}`);
      }
      if (ts.isIdentifier(n) && names.has(n.text)) {
        const p = n.parent;
        if (
          ts.isShorthandPropertyAssignment(p) ||
          (ts.isBindingElement(p) && ts.isObjectBindingPattern(p.parent) && (p.propertyName ?? p.name) === n)
        )
          keep(n.text, `a key of an object or pattern at ${where(f, n)}`);
        const named =
          ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) &&
            p.name === n) ||
          (MEMBER(p) && !ts.isParameter(p) && p.name === n);
        if (named) {
          const symbol = checker.getSymbolAtLocation(n);
          if (!symbol || !privates.has(symbol)) keep(n.text, `a property that is not private at ${where(f, n)}`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(f);
  }
  for (const name of kept.keys()) names.delete(name);
  return { names, kept };
}

/** Names a library's code uses as properties (`.name`, `{name:`, `name(){`, `'name'`): loosely, erring on the side of more. */
export function propertyLikeNames(code: string): Set<string> {
  const out = new Set<string>();
  // After `.`, `{`, `}`, `;` or `,` (members of minified classes follow `}`), or `get`/`set`/…;
  // a lookbehind, so `{get x(){}` yields both `get` and `x`.
  for (const m of code.matchAll(/(?<=[.{};,]\s*|\b(?:get|set|static|async)\s+)[A-Za-z_$][\w$]*|(['"`])([A-Za-z_$][\w$]*)\1/g))
    out.add(m[2] ?? m[0]);
  return out;
}

export function shortPrivateNames(options: { tsconfig: string }): Plugin {
  let found: PrivateNames | null = null;
  let safe: RegExp | null = null;
  return {
    name: 'agent-chat-short-private-names',
    apply: 'build',
    // Before the chunks are minified (vite:terser runs last), after the chunk loaders are
    // rewritten (scripts/vite-chunk-retry.ts, listed before this plugin).
    enforce: 'post',
    buildStart() {
      found = privateNames(options.tsconfig, (file) => /[\\/]src[\\/]/.test(file) && !/[\\/]src[\\/]react[\\/]/.test(file));
    },
    async renderChunk(code) {
      if (!found) return null;
      if (!safe) {
        // Every module of the build that is not src/'s (libraries, the bundler's runtime), whatever chunk it is in.
        const libraries = new Set<string>();
        for (const id of this.getModuleIds()) {
          if (/[\\/]src[\\/]/.test(id) && !/[\\/]node_modules[\\/]/.test(id)) continue;
          for (const name of propertyLikeNames(this.getModuleInfo(id)?.code ?? '')) libraries.add(name);
        }
        const names = [...found.names].filter((name) => !libraries.has(name));
        safe = new RegExp(`^(?:${names.join('|') || '(?!)'})$`);
        this.info?.(`${names.length} private names shortened, ${found.kept.size + found.names.size - names.length} kept`);
      }
      const { minify } = await import('terser');
      const out = await minify(code, {
        ecma: 2022,
        module: true,
        compress: false,
        mangle: { properties: { regex: safe, keep_quoted: true } },
        format: { comments: false, preserve_annotations: true },
        sourceMap: { asObject: true },
      });
      if (!out.code || out.code === code) return null;
      const map = out.map as unknown as { sources: string[]; sourcesContent?: string[]; names: string[]; mappings: string };
      return {
        code: out.code,
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent, names: map.names, mappings: map.mappings },
      };
    },
  };
}
