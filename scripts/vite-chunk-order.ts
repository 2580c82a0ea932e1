/**
 * Build-time order of the modules in the panel's and the core's chunks (`vite build` only):
 * the large texts unlike the widget's own code go first, the widget's modules after them,
 * side by side.
 *
 * gzip finds repeats within its last 32 KB. The bundler lays a chunk out in execution
 * order, which put the panel's stylesheets (7 KB of CSS text) in the middle of the widget's
 * code: what the widget's modules share (the store's transitions, the context's names,
 * lit-html's template shapes) was out of each other's reach across them. With the
 * stylesheets at the start, the panel's chunk is 75 bytes gzip smaller. (marked led it
 * too, with 0.63 KB saved, until it went to a chunk of its own with the markdown lexer.)
 * The core is within one window, but its stylesheet and the reactive base ahead of the
 * element's and the settings' code still save 39 bytes of every page view. No bundler
 * option orders a chunk's modules by hand (rolldown's `chunkModulesOrder: 'module-id'`
 * sorts them all by path: +0.15 KB).
 *
 * Moving a module earlier only makes its top-level code run earlier, so each module moved
 * must need nothing of the chunk that is not moved before it: the build fails otherwise,
 * and when a module's code is not found in the chunk exactly once (the bundler's output
 * changed shape). The modules moved are the ones listed, and only those: stylesheets (one
 * call that makes a stylesheet from text), and in the core Lit's css-tag module (a class
 * and two functions) and the reactive base (a class); none of them does anything at load
 * that another module could see.
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';

/** A module of a chunk as it is laid out: its id, its code in the chunk, and the ids it imports. */
export interface LaidOutModule {
  readonly id: string;
  readonly code: string;
  readonly imports: readonly string[];
}

/** The bundler's runtime helpers, if the chunk has them: they stay first. */
const RUNTIME = /^\0rolldown\/runtime/;

/**
 * `code` with the modules whose ids match `first` (in that order, then in the chunk's
 * order) moved before every other module; null when nothing moves. Throws when a module
 * cannot be moved safely (see above). Exported for test/unit/chunk-order.test.ts.
 */
export function leadWith(
  code: string,
  modules: readonly LaidOutModule[],
  first: readonly RegExp[],
  file = 'chunk.js',
): { code: string; map: ReturnType<RolldownMagicString['generateMap']> } | null {
  const fail = (why: string): never => {
    throw new Error(`chunk-order: ${why} in ${file}; see scripts/vite-chunk-order.ts`);
  };
  const where = (m: LaidOutModule) => {
    const at = code.indexOf(m.code);
    if (!m.code || at < 0 || code.indexOf(m.code, at + 1) >= 0) fail(`the code of ${m.id} is not in the chunk exactly once`);
    return at;
  };
  const laidOut = modules.filter((m) => m.code);
  const lead = [
    ...new Set(
      first.flatMap((pattern) => {
        const matched = laidOut.filter((m) => pattern.test(m.id));
        return matched.length ? matched : fail(`no module matches ${pattern}`);
      }),
    ),
  ];
  const inChunk = new Set(laidOut.map((m) => m.id));
  const before = new Set<string>();
  for (const m of lead) {
    const missing = m.imports.find((id) => inChunk.has(id) && !before.has(id));
    if (missing) fail(`${m.id} imports ${missing}, which would come after it`);
    before.add(m.id);
  }
  // Before the first module that stays: the moved ones land there in the order of `lead`
  // (those already in front of it move too, so the order is that one whatever it was).
  const stays = laidOut.find((m) => !RUNTIME.test(m.id) && !before.has(m.id));
  if (!stays) return null;
  const at = where(stays);
  const from = lead.map(where);
  if (from.every((start, i) => start < at && (i === 0 || start > from[i - 1]!))) return null;
  const s = new RolldownMagicString(code);
  lead.forEach((m, i) => s.move(from[i]!, from[i]! + m.code.length, at));
  return { code: s.toString(), map: s.generateMap({ hires: true, source: file, includeContent: true }) };
}

/** `first`, by chunk name: the modules that lead that chunk, in that order. */
export function chunkOrder(first: Readonly<Record<string, readonly RegExp[]>>): Plugin {
  const seen = new Set<string>();
  return {
    name: 'agent-chat-chunk-order',
    apply: 'build',
    buildStart() {
      seen.clear();
    },
    // A chunk renamed in the build's configuration would otherwise keep its order unnoticed.
    generateBundle() {
      const missing = Object.keys(first).filter((name) => !seen.has(name));
      if (missing.length) this.error(`chunk-order: no chunk named ${missing.join(', ')}; see scripts/vite-chunk-order.ts`);
    },
    renderChunk: {
      // On the bundler's own output, before the other plugins rewrite or minify it.
      order: 'pre',
      handler(code, chunk) {
        const lead = Object.hasOwn(first, chunk.name) ? first[chunk.name] : undefined;
        if (!lead) return null;
        seen.add(chunk.name);
        const modules = Object.entries(chunk.modules).map(([id, m]) => ({
          id,
          code: m.code ?? '',
          imports: this.getModuleInfo(id)?.importedIds ?? [],
        }));
        const out = leadWith(code, modules, lead, chunk.fileName);
        if (!out) return null;
        const { map } = out;
        return {
          code: out.code,
          map: {
            version: 3,
            sources: map.sources,
            sourcesContent: map.sourcesContent as string[],
            names: map.names,
            mappings: map.mappings,
          },
        };
      },
    },
  };
}
