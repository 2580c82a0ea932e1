/**
 * Build-time short names for the widget's private custom properties (`vite build` only,
 * src/ only): `--_accent`, `--_border`, `--_space`… become `--_a`, `--_b`, `--_c`…
 *
 * The theme reads every public `--agent-chat-*` property once into a private `--_*` one
 * (src/shell/shell.styles.ts, the highlighter's colours in src/highlight/highlight.styles.ts),
 * and every rule of every chunk uses the private ones: their names are a hundred and more
 * uses in the inline load, which the minifiers leave as written. They are nobody else's
 * (README and CONTRACT.md name only the `--agent-chat-*` ones), so one build can rename
 * them, the same way in every chunk: 37 bytes gzip of every page view, 81 of the inline load.
 *
 * Only names a stylesheet of src/ declares (`--_name:`) are renamed: those are set by the
 * widget on its own host or on the element that reads them, so a page's property of the
 * same short name, inherited from outside, can never reach a rule (a declaration inside
 * wins over an inherited value). The ones the code sets at run time and reads with a
 * fallback (the full-screen panel's `--_vv-top`, `--_vv-height`) keep their names. The
 * short names go to the most used first, in a fixed order, so the build stays
 * deterministic; every occurrence in a module of src/ is renamed, in CSS text and in
 * strings alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { RolldownMagicString } from 'rolldown';

const USE = /--_([A-Za-z][\w-]*)/g;
const DECLARATION = /--_([A-Za-z][\w-]*)\s*:/g;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Short name of the n-th name (0-based): `a`…`Z`, then `aa`, `ab`… */
function shortName(n: number): string {
  let name = '';
  for (let i = n; ; i = Math.floor(i / LETTERS.length) - 1) {
    name = LETTERS[i % LETTERS.length] + name;
    if (i < LETTERS.length) return name;
  }
}

/**
 * The renaming for these sources (the text of src/'s modules): each name some source
 * declares, to a short one, the most used first (ties by name); a short name that a kept
 * property already has is skipped.
 */
export function customPropertyNames(sources: readonly string[]): Map<string, string> {
  const declared = new Set<string>();
  const uses = new Map<string, number>();
  for (const code of sources) {
    for (const [, name] of code.matchAll(DECLARATION)) declared.add(name!);
    for (const [, name] of code.matchAll(USE)) uses.set(name!, (uses.get(name!) ?? 0) + 1);
  }
  const all = new Set(uses.keys());
  const order = [...declared].sort((a, b) => uses.get(b)! - uses.get(a)! || (a < b ? -1 : 1));
  const names = new Map<string, string>();
  let n = 0;
  for (const name of order) {
    let short: string;
    // A short name that a kept property already has (one not declared) is skipped.
    do short = shortName(n++);
    while (all.has(short) && !declared.has(short));
    names.set(name, short);
  }
  return names;
}

/** `code` with every renamed custom property renamed; null when it has none. */
export function renameCustomProperties(code: string, names: ReadonlyMap<string, string>): RolldownMagicString | null {
  let s: RolldownMagicString | null = null;
  for (const m of code.matchAll(USE)) {
    const short = names.get(m[1]!);
    if (short === undefined) continue;
    s ??= new RolldownMagicString(code);
    s.overwrite(m.index + 3, m.index + m[0].length, short);
  }
  return s;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.[cm]?[jt]s$/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

export function shortCustomProperties(options: { src: string }): Plugin {
  let names = new Map<string, string>();
  return {
    name: 'agent-chat-short-custom-properties',
    apply: 'build',
    buildStart() {
      names = customPropertyNames(sourcesUnder(options.src));
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!/[\\/]src[\\/].*\.[cm]?[jt]s$/.test(file) || /[\\/]node_modules[\\/]/.test(file)) return null;
      const s = renameCustomProperties(code, names);
      if (!s) return null;
      const map = s.generateMap({ hires: true, source: file, includeContent: true });
      return {
        code: s.toString(),
        map: { version: 3, sources: map.sources, sourcesContent: map.sourcesContent as string[], names: map.names, mappings: map.mappings },
      };
    },
  };
}
