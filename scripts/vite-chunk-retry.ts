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
 *    for good, even after it came back under `?retry=1`. So they do not import it: the
 *    loader that fetched it, under whichever URL, keeps its module under a key of its
 *    file's name (`globalThis[Symbol.for('agent-chat:agent-chat-x-HASH.js')]`), and they
 *    read their bindings from there. A loader fetches what its chunk imports first (with
 *    its own suffix, unless it is kept already), so a chunk is only ever evaluated once
 *    what it reads is there; the panel is always there before the chunks it lists. What
 *    is read is constant (src/ has no `export let`, checked by scripts/check-layout.ts),
 *    so reading it once is what the import would have seen.
 *
 * Only the core, which the script itself imports, is imported as it is. The build fails if
 * a dynamic import or an import of a kept chunk is left in a form this does not know, so
 * no chunk silently loses its retry. Unbundled (the dev server, the test runner's source
 * pages) none of this applies; the tests of a failed chunk run against the built script
 * (test/security/chunk-retry.test.ts).
 */
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';

const LOADER = /\(\)\s*=>\s*import\(\s*(["'`])\.\/([^"'`]+\.js)\1\s*\)/g;
const ANY_DYNAMIC = /\bimport\(\s*["'`]\.\//g;
// File names here still hold the bundler's placeholders for their hashes (`!~{00a}~`),
// replaced everywhere in the code afterwards, in the registry's key too.
const PANEL = /^agent-chat-panel-[^"'`/]+\.js$/;
const IMPORT = /\bimport\s*\{([^}]*)\}\s*from\s*(["'`])\.\/([^"'`/]+\.js)\2\s*;?/g;
const ANY_CHUNK = /(["'`])\.\/([^"'`/]+\.js)\1/g;

/** Where a kept chunk's module is, by the name of its file (unique per build). */
const registry = (file: string) => `globalThis[Symbol.for("agent-chat:${file}")]`;

/** What the chunk graph says of one chunk (the bundler's `RenderedChunk`). */
export interface GraphChunk {
  readonly isEntry: boolean;
  readonly imports: readonly string[];
}

/**
 * The chunk graph's kept chunks (every chunk another imports, but those the script's entry
 * imports) and, per chunk, the kept chunks its loader fetches first, deepest first.
 * Exported for test/unit/chunk-retry.test.ts.
 */
export function keptChunks(chunks: Readonly<Record<string, GraphChunk>>): { kept: Set<string>; before(file: string): string[] } {
  const withScript = new Set(Object.values(chunks).flatMap((c) => (c.isEntry ? c.imports : [])));
  const kept = new Set(Object.values(chunks).flatMap((c) => c.imports.filter((file) => !withScript.has(file))));
  const before = (file: string, out: string[] = [], seen = new Set<string>()): string[] => {
    for (const dep of chunks[file]?.imports ?? []) {
      if (!kept.has(dep) || seen.has(dep) || PANEL.test(dep)) continue;
      seen.add(dep);
      before(dep, out, seen);
      out.push(dep);
    }
    return out;
  };
  return { kept, before: (file) => before(file) };
}

/**
 * A loader of `file` with the retry suffix `r`: what its chunk reads from kept chunks is
 * fetched first, in order, each unless it is kept already; a kept chunk keeps its module.
 */
export function loader(file: string, before: readonly string[], keep: boolean): string {
  const load = `import(\`./${file}\`+r)${keep ? `.then(m=>${registry(file)}=m)` : ''}`;
  if (!before.length) return `r=>${load}`;
  const each = `(p,f)=>p.then(()=>globalThis[Symbol.for("agent-chat:"+f)]||import("./"+f+r).then(m=>globalThis[Symbol.for("agent-chat:"+f)]=m))`;
  return `r=>${JSON.stringify(before)}.reduce(${each},Promise.resolve()).then(()=>${load})`;
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
      const { kept, before } = keptChunks(meta.chunks);
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
        s.overwrite(match.index, match.index + match[0].length, loader(file, before(file), kept.has(file)));
      }
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
