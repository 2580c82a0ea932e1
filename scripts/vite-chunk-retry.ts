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
 * 2. A chunk that other chunks import (the panel, which nearly every lazy chunk imports;
 *    the stylesheet the small buttons' features share; the SSE chunk, which the WebSocket
 *    session imports) would, had its first load failed, fail their `import … from './x.js'`
 *    for good, even after it came back under `?retry=1`. So they do not import it: its
 *    module is kept under a key of its file's name
 *    (`globalThis[Symbol.for('agent-chat:agent-chat-x-HASH.js')]`), and they read their
 *    bindings from there. The panel's loader keeps it (the panel is always there before the
 *    chunks it lists); the others are fetched by `KEPT`, once for all their readers, under
 *    their own count of failures, and a loader fetches what its chunk reads that way first,
 *    so a chunk is only ever evaluated once what it reads is there. What is read is
 *    constant (src/ has no `export let`, checked by scripts/check-layout.ts), so reading it
 *    once is what the import would have seen.
 *
 * Only what the script loads with itself (the core) is imported as it is. The build fails
 * if a dynamic import or an import of a kept chunk is left in a form this does not know,
 * or the chunk graph takes a shape the loaders cannot serve (`keptChunks`), so no chunk
 * silently loses its retry. Unbundled (the dev server, the test runner's source
 * pages) none of this applies; the tests of a failed chunk run against the built script
 * (test/security/chunk-retry.test.ts).
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';

const LOADER = /\(\)\s*=>\s*import\(\s*(["'`])\.\/([^"'`]+\.js)\1\s*\)/g;
const ANY_DYNAMIC = /\bimport\(\s*["'`]\.\//g;
// File names here still hold the bundler's placeholders for their hashes (`!~{00a}~`),
// replaced everywhere in the code afterwards, in the registry's key too.
const IMPORT = /\bimport\s*\{([^}]*)\}\s*from\s*(["'`])\.\/([^"'`/]+\.js)\2\s*;?/g;
const ANY_CHUNK = /(["'`])\.\/([^"'`/]+\.js)\1/g;

/** Where a kept chunk's module is, by the name of its file (unique per build). */
const registry = (file: string) => `globalThis[Symbol.for("agent-chat:${file}")]`;

/**
 * Fetches a kept chunk (but the panel) once for all its readers: one fetch at a time, shared,
 * its suffix counting that file's own failures (`?retry=N`), its module kept under the
 * registry's key. Added to each chunk whose loaders need it (the name is the minifier's to
 * shorten). Exported for test/unit/build/chunk-retry.test.ts.
 */
export const KEPT = '__agentChatKept';
export const KEPT_FUNCTION = `function ${KEPT}(f){const g=globalThis,k=Symbol.for("agent-chat:"+f),s=g[Symbol.for("agent-chat:"+f+"#")]??={n:0};return g[k]?Promise.resolve(g[k]):s.p??=import("./"+f+(s.n?"?retry="+s.n:"")).then(m=>g[k]=m,e=>{s.p=void 0;s.n++;throw e})}`;

/** What the chunk graph says of one chunk (the bundler's `RenderedChunk`). */
export interface GraphChunk {
  readonly name: string;
  readonly isEntry: boolean;
  readonly imports: readonly string[];
}

/**
 * The chunk graph read for the retries. Kept: every chunk another imports, but those the
 * script loads with itself (its static imports, and theirs: the core). `before(file)`: the
 * kept chunks (but the panel) a loader of `file` fetches first. Throws where the graph has a
 * shape the loaders cannot serve: a kept chunk (but the panel) that reads another, or a
 * chunk a loader of the script's own chunks fetches that reads the panel (which only the
 * panel's loaders are sure to find there). Exported for test/unit/build/chunk-retry.test.ts.
 */
export function keptChunks(chunks: Readonly<Record<string, GraphChunk>>) {
  const withScript = new Set<string>();
  const add = (file: string) => {
    if (withScript.has(file)) return;
    withScript.add(file);
    chunks[file]?.imports.forEach(add);
  };
  for (const [file, c] of Object.entries(chunks)) if (c.isEntry) add(file);
  const isPanel = (file: string) => chunks[file]?.name === 'panel';
  const kept = new Set(Object.values(chunks).flatMap((c) => c.imports.filter((file) => !withScript.has(file))));
  const before = (file: string) => (chunks[file]?.imports ?? []).filter((dep) => kept.has(dep) && !isPanel(dep));
  for (const file of kept) {
    const nested = before(file);
    if (!isPanel(file) && nested.length)
      throw new Error(`chunk-retry: ${file} reads ${nested.join(', ')}, kept chunks too; see scripts/vite-chunk-retry.ts`);
  }
  /** Whether a loader in `from` may fetch `file`: only the panel's loaders find the panel there. */
  const servable = (from: string, file: string) =>
    isPanel(file) || isPanel(from) || !(chunks[file]?.imports ?? []).some(isPanel) || !withScript.has(from);
  return { kept, before, isPanel, servable };
}

/**
 * A loader of `file` with the retry suffix `r`: what its chunk reads from kept chunks comes
 * first (fetched together, each once for all readers: `KEPT`); a kept chunk is fetched
 * that way itself, the panel under the loader's own suffix and kept.
 */
export function loader(file: string, before: readonly string[], kept: boolean, panel: boolean): string {
  const load = panel
    ? `import(\`./${file}\`+r).then(m=>${registry(file)}=m)`
    : kept
      ? `${KEPT}(${JSON.stringify(file)})`
      : `import(\`./${file}\`+r)`;
  return before.length ? `r=>Promise.all(${JSON.stringify(before)}.map(${KEPT})).then(()=>${load})` : `r=>${load}`;
}

/** `import{a as b}from"./x.js"` as a read of the kept module: `const{a:b}=…`. */
export function readOf(bindings: string, file: string): string {
  const names = bindings
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean)
    .map((b) => {
      const [name, local] = b.split(/\s+as\s+/);
      return local ? `${name}:${local}` : name;
    });
  return `const{${names.join(',')}}=${registry(file)};`;
}

export function chunkRetry(): Plugin {
  return {
    name: 'agent-chat-chunk-retry',
    apply: 'build',
    enforce: 'post',
    renderChunk(code, chunk, _options, meta) {
      const { kept, before, isPanel, servable } = keptChunks(meta.chunks);
      const s = new RolldownMagicString(code);
      const loaders = [...code.matchAll(LOADER)];
      const dynamic = code.match(ANY_DYNAMIC)?.length ?? 0;
      if (dynamic !== loaders.length) {
        throw new Error(
          `${chunk.fileName}: ${dynamic - loaders.length} dynamic import(s) not written as chunk(() => import('./x.js')); see scripts/vite-chunk-retry.ts`,
        );
      }
      let helper = false;
      for (const match of loaders) {
        const file = match[2]!;
        if (!servable(chunk.fileName, file)) {
          throw new Error(`${chunk.fileName}: loads ${file}, which reads the panel, from outside it; see scripts/vite-chunk-retry.ts`);
        }
        const code = loader(file, before(file), kept.has(file), isPanel(file));
        helper ||= code.includes(KEPT);
        s.overwrite(match.index, match.index + match[0].length, code);
      }
      // Hoisted: the loaders above may run it as soon as the chunk has run.
      if (helper) s.append(`\n${KEPT_FUNCTION}\n`);
      const reads = [...code.matchAll(IMPORT)].filter((match) => kept.has(match[3]!));
      for (const match of reads) s.overwrite(match.index, match.index + match[0].length, readOf(match[1]!, match[3]!));
      const refs = [...code.matchAll(ANY_CHUNK)].filter((match) => kept.has(match[2]!)).length;
      if (refs !== reads.length + loaders.filter((m) => kept.has(m[2]!)).length) {
        throw new Error(
          `${chunk.fileName}: a chunk other chunks import is referenced in a way this does not know; see scripts/vite-chunk-retry.ts`,
        );
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
