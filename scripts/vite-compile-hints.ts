/**
 * Marks the chunks whose code runs as a chat loads for eager compilation (`vite build` only).
 *
 * V8 compiles a function the first time it is called, on the main thread, unless it was
 * compiled with its script: lazily compiled, the panel's first render paid for compiling
 * most of the panel's functions one by one, in the middle of its work. V8's explicit compile
 * hint (Chrome 136 and later: the comment `//# allFunctionsCalledOnLoad` as a file's first
 * line) compiles every function of that file as the file streams in, on a background
 * thread. Nearly every function of the core, the panel and the lexer runs while a chat
 * loads, so those three carry it: a first visit's main-thread time 93 → 69 ms, a 10-message
 * load 250 → 235 ms (BENCHMARKS.md "Compiled as they stream in"). Other browsers read a
 * comment. Feature chunks (a part of their code runs, later) do not carry it.
 *
 * It is added last, to the minified code (a minifier drops comments), with a line of no
 * mappings in front of the source map's.
 */
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** The chunks that carry it: nearly all their functions run as a chat loads. */
export const HINTED_CHUNKS = ['core', 'panel', 'lex'] as const;

interface Bundle {
  [fileName: string]:
    | { type: 'chunk'; name: string; fileName: string; code: string; map?: { mappings: string } | null }
    | { type: 'asset'; source: string | Uint8Array };
}

/** Prepends the hint to the chunks named in `names` (and a line to their source maps). Exported for test/unit/build/compile-hints.test.ts. */
export function addCompileHints(bundle: Bundle, names: readonly string[]): string[] {
  const marked: string[] = [];
  for (const file of Object.values(bundle)) {
    if (file.type !== 'chunk' || !names.includes(file.name)) continue;
    file.code = COMPILE_HINT + file.code;
    const asset = bundle[`${file.fileName}.map`];
    if (asset?.type === 'asset') {
      const map = JSON.parse(String(asset.source)) as { mappings: string };
      map.mappings = `;${map.mappings}`;
      asset.source = JSON.stringify(map);
    } else if (file.map) {
      file.map.mappings = `;${file.map.mappings}`;
    }
    marked.push(file.name);
  }
  return marked;
}

/** The build fails if a chunk named here is not in it (a renamed chunk would lose its hint unnoticed). */
export function compileHints(names: readonly string[]): Plugin {
  return {
    name: 'agent-chat-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const marked = addCompileHints(bundle as unknown as Bundle, names);
      const missing = names.filter((name) => !marked.includes(name));
      if (missing.length) this.error(`compile-hints: no chunk named ${missing.join(', ')}; see scripts/vite-compile-hints.ts`);
    },
  };
}
