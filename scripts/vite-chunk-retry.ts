/**
 * Lets a chunk that failed be fetched again (src/lazy.ts `chunk()`), in the built script.
 *
 * A browser keeps a failed dynamic import for the life of the page, per URL, whatever the
 * failure: a 404, a network error, a module that does not parse or that throws while it
 * runs. Importing that URL again fails again without a request, in Chromium and Firefox
 * alike, and so does every module that imports it. The only way to load it again is
 * another URL: the same file with a query (`?retry=1`), which the server ignores and the
 * browser's module map and HTTP cache do not. Two things follow, both done here on the
 * output (the chunk lists keep writing `chunk(() => import('./x.js'))`, a static import the
 * bundler can split):
 *
 * 1. Every loader takes that suffix (`''` at first): `(r) => import('./agent-chat-x-HASH.js' + r)`.
 * 2. The panel's chunk is imported by nearly every other lazy chunk (the turns, the
 *    streaming code, each feature). Had its first load failed, their `import … from
 *    './agent-chat-panel-HASH.js'` would fail for good even after the panel came back under
 *    `?retry=1`. So they do not import it: the loader that fetched the panel, under
 *    whichever URL, keeps its module under a key of its file's name
 *    (`globalThis[Symbol.for('agent-chat:agent-chat-panel-HASH.js')]`), and they read their
 *    bindings from there. They are only ever fetched once the panel is here, and the panel's
 *    exports are constants (src/ has no `export let`, checked by scripts/check-layout.ts),
 *    so reading them once is what the import would have seen.
 *
 * The build fails if a dynamic import or an import of the panel is left in a form this
 * does not know, so no chunk silently loses its retry, and if a chunk imports another that
 * a loader fetches (`staticallyLoaded`): that import would fail for good once the other's
 * first fetch failed, whatever its loader does then. Such a chunk reads what it needs
 * through the other's loader in the panel instead (src/markdown/plain.ts reads the lexer
 * through blocks.ts). One is known and allowed: the WebSocket session imports the SSE
 * chunk's resume loop, a public signature (`streamOverSocket`) of the client package. Unbundled (the dev server, the test
 * runner's source pages) none of this applies; the tests of a failed chunk run against the
 * built script (test/security/chunk-retry.test.ts).
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';

const LOADER = /\(\)\s*=>\s*import\(\s*(["'`])\.\/([^"'`]+\.js)\1\s*\)/g;
const ANY_DYNAMIC = /\bimport\(\s*["'`]\.\//g;
// File names here still hold the bundler's placeholders for their hashes (`!~{00a}~`),
// replaced everywhere in the code afterwards, in the registry's key too.
const PANEL = /^agent-chat-panel-[^"'`/]+\.js$/;
const PANEL_IMPORT = /\bimport\s*\{([^}]*)\}\s*from\s*(["'`])\.\/(agent-chat-panel-[^"'`/]+\.js)\2\s*;?/g;
const ANY_PANEL = /(["'`])\.\/agent-chat-panel-[^"'`/]+\.js\1/g;

/** Where the panel's module is kept, by the name of its file (unique per build). */
const registry = (file: string) => `globalThis[Symbol.for("agent-chat:${file}")]`;

/** Chunks that may import a chunk a loader fetches: importer → imported, by the name of their source. */
const ALLOWED_STATIC = [['websocket', 'stream']];

interface BundledChunk {
  readonly name: string;
  readonly fileName: string;
  readonly imports: readonly string[];
  readonly dynamicImports: readonly string[];
}

/**
 * Pairs of chunks where the first imports the second, which a loader also fetches (the
 * panel excepted: its imports read the registry): `importer → imported` by chunk name.
 * Exported for test/unit/chunk-retry.test.ts.
 */
export function staticallyLoaded(chunks: readonly BundledChunk[]): string[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const loaded = new Set(chunks.flatMap((c) => c.dynamicImports));
  const pairs: string[] = [];
  for (const c of chunks) {
    for (const file of c.imports) {
      const target = byFile.get(file);
      if (!target || !loaded.has(file) || PANEL.test(file)) continue;
      if (!ALLOWED_STATIC.some(([a, b]) => a === c.name && b === target.name)) pairs.push(`${c.name} → ${target.name}`);
    }
  }
  return pairs;
}

export function chunkRetry(): Plugin {
  return {
    name: 'agent-chat-chunk-retry',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((b) => b.type === 'chunk');
      const pairs = staticallyLoaded(chunks);
      if (pairs.length)
        this.error(`chunk-retry: a chunk imports another that a loader fetches (${pairs.join(', ')}); see scripts/vite-chunk-retry.ts`);
    },
    renderChunk(code, chunk) {
      const s = new RolldownMagicString(code);
      const loaders = [...code.matchAll(LOADER)];
      const dynamic = code.match(ANY_DYNAMIC)?.length ?? 0;
      if (dynamic !== loaders.length) {
        throw new Error(
          `${chunk.fileName}: ${dynamic - loaders.length} dynamic import(s) not written as chunk(() => import('./x.js')); see scripts/vite-chunk-retry.ts`,
        );
      }
      for (const match of loaders) {
        const file = match[2]!;
        const keep = PANEL.test(file) ? `.then(m=>${registry(file)}=m)` : '';
        s.overwrite(match.index, match.index + match[0].length, `r=>import(\`./${file}\`+r)${keep}`);
      }
      const reads = [...code.matchAll(PANEL_IMPORT)];
      for (const match of reads) {
        const bindings = match[1]!
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean)
          .map((b) => {
            const [name, local] = b.split(/\s+as\s+/);
            return local ? `${name}:${local}` : name;
          });
        s.overwrite(match.index, match.index + match[0].length, `const{${bindings.join(',')}}=${registry(match[3]!)};`);
      }
      const panelRefs = code.match(ANY_PANEL)?.length ?? 0;
      if (panelRefs !== reads.length + loaders.filter((m) => PANEL.test(m[2]!)).length) {
        throw new Error(`${chunk.fileName}: the panel's chunk is referenced in a way this does not know; see scripts/vite-chunk-retry.ts`);
      }
      if (!loaders.length && !reads.length) return null;
      const map = s.generateMap({ hires: true, source: chunk.fileName, includeContent: true });
      return {
        code: s.toString(),
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent as string[], names: map.names, mappings: map.mappings },
      };
    },
  };
}
