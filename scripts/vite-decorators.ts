/**
 * Build-time shortcut for the element's property decorators (`vite build` only).
 *
 * With `experimentalDecorators`, every `@property()` and `@state()` of the element compiles
 * to a call of the `decorate` helper: `_decorate([property(options)], Element.prototype,
 * "name", void 0)`. For a property decorator the helper only calls it
 * (`property(options)(Element.prototype, "name", undefined)`, or the same through
 * `Reflect.decorate` where a page defines it) and defines the descriptor the decorator
 * returns, if any. Those of src/shell/host.ts return nothing (typed `void`, checked by
 * TypeScript): they define the accessor themselves. So each such call is the decorator's
 * own call, `property(options)(Element.prototype, "name")`, and the helper goes: 0.16 KB
 * gzip of the shell, which every page view downloads.
 *
 * Only that shape is rewritten (one decorator, from the reactive base, on a property); any
 * other use of the helper stays as it is. The helper's import is left for the bundler,
 * which drops it once nothing calls it.
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';
import { parseSync } from 'rolldown/utils';

const HELPER = /[\\/]helpers[\\/]decorate(\.js)?$|^@oxc-project\/runtime\/helpers\/decorate$/;
/** The reactive base's module, as src/ imports it. */
const HOST = /(^|\/)shell\/host\.js$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const key in node as Node) if (key !== 'type' && key !== 'start' && key !== 'end') walk((node as Node)[key], visit);
}

const name = (n: unknown) => ((n as Node | undefined)?.type === 'Identifier' ? ((n as Node).name as string) : null);

/**
 * `code` with each `helper([decorator(…)], target, "key", void 0)` statement, where the
 * decorator comes from the reactive base, as `decorator(…)(target, "key")`; null when there
 * is none. Exported for test/unit/build/decorators.test.ts.
 */
export function inlineDecorators(
  code: string,
  file = 'module.js',
): { code: string; map: ReturnType<RolldownMagicString['generateMap']> } | null {
  if (!code.includes('decorate')) return null;
  const parsed = parseSync(file, code, { lang: 'js', astType: 'js', sourceType: 'module' });
  if (parsed.errors.length) return null;
  const body = parsed.program.body as unknown as Node[];
  const imports = body.filter((n) => n.type === 'ImportDeclaration');
  const from = (test: RegExp) =>
    imports.filter((n) => test.test((n.source as { value: string }).value)).flatMap((n) => n.specifiers as Node[]);
  const helper = from(HELPER).find((s) => s.type === 'ImportDefaultSpecifier');
  const helperName = name(helper?.local);
  if (!helper || !helperName) return null;
  const decorators = new Set(from(HOST).map((s) => name(s.local)));

  const s = new RolldownMagicString(code);
  walk(body, (n) => {
    if (n.type !== 'CallExpression' || name(n.callee) !== helperName) return;
    const [list, target, key, descriptor] = n.arguments as Node[];
    const only = (list?.elements as Node[] | undefined)?.length === 1 ? (list!.elements as Node[])[0]! : null;
    const rewritable =
      only?.type === 'CallExpression' &&
      decorators.has(name(only.callee)) &&
      target &&
      key?.type === 'Literal' &&
      typeof key.value === 'string' &&
      descriptor?.type === 'UnaryExpression' &&
      descriptor.operator === 'void' &&
      (n.arguments as Node[]).length === 4;
    if (!rewritable) return;
    s.overwrite(
      n.start,
      n.end,
      `${code.slice(only.start, only.end)}(${code.slice(target.start, target.end)}, ${code.slice(key.start, key.end)})`,
    );
  });
  if (!s.hasChanged()) return null;
  return { code: s.toString(), map: s.generateMap({ hires: true, source: file, includeContent: true }) };
}

export function inlinePropertyDecorators(): Plugin {
  return {
    name: 'agent-chat-inline-property-decorators',
    apply: 'build',
    // After TypeScript is compiled: the helper calls exist from then on.
    enforce: 'post',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!/[\\/]src[\\/].*\.ts$/.test(file)) return null;
      const out = inlineDecorators(code, file);
      if (!out) return null;
      const { map } = out;
      return {
        code: out.code,
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent as string[], names: map.names, mappings: map.mappings },
      };
    },
  };
}
