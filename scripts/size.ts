/**
 * Bundle budgets: `npm run size` (after `npm run build`).
 *
 * Two loads are binding (docs/architecture.md "Chunk map"):
 * - the launcher: what every page view of a host page downloads before `<agent-chat>` is
 *   defined, the script tag's file (a one-line module) plus every chunk it imports
 *   statically (the shell: its reactive base, attribute checks, the launcher button);
 * - inline: that plus the panel chunk and what it imports statically (lit-html, marked,
 *   the client, the conversation and its features' glue), which an inline widget fetches
 *   at once and a launcher on the first sign of intent.
 * Other chunks load on demand, relative to `import.meta.url`, only when a page uses what
 * they hold (another UI language, `allow-html`, `transport="websocket"`, the hand-off
 * form, cards…); they are listed with their own sizes, and "all features" adds the largest
 * language to every feature chunk for the worst case. No chunk may import the script itself
 * (see the check below).
 *
 * gzip -9 (zlib) is binding, brotli 11 is shown for information; 1 KB = 1000 bytes, as Vite
 * reports. Exits 1 when the build is missing or a load is over its budget. `--brief` (the
 * end of `npm run build`) prints only the two loads against their budgets.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { staticImports } from './chunks.ts';

const DIR = process.env.SIZE_DIR ?? 'dist';
const BRIEF = process.argv.includes('--brief');
const ENTRY = 'agent-chat.js';
const KB = 1000;
/** gzip bytes of the launcher (the initial load) and of an inline widget (initial + panel). */
const LAUNCHER_BUDGET = 10 * KB;
const INLINE_BUDGET = 50 * KB;
const PANEL_CHUNK = /^agent-chat-panel-/;
const LANGUAGE_CHUNK = /^agent-chat-(de|fr|es|ja|ar)-/;

const kb = (n: number) => `${(n / KB).toFixed(2)} KB`;
const gzip = (b: Buffer) => gzipSync(b, { level: 9 }).length;
const brotli = (b: Buffer) =>
  brotliCompressSync(b, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
    },
  }).length;

async function main(): Promise<number> {
  let files: string[];
  try {
    files = (await readdir(DIR)).filter((f) => f.endsWith('.js'));
  } catch {
    files = [];
  }
  if (!files.includes(ENTRY)) {
    console.error(`size: ${join(DIR, ENTRY)} not found; run \`npm run build\` first.`);
    return 1;
  }
  const code = new Map<string, Buffer>();
  for (const f of files) code.set(f, await readFile(join(DIR, f)));

  // A file and the closure of its static imports, minus what is already loaded.
  const closure = (start: string, loaded: readonly string[] = []): string[] | null => {
    const out: string[] = [];
    const queue = [start];
    while (queue.length) {
      const f = queue.shift()!;
      if (out.includes(f) || loaded.includes(f)) continue;
      const buf = code.get(f);
      if (!buf) {
        console.error(`size: ${f} is imported but missing from ${DIR}.`);
        return null;
      }
      out.push(f);
      queue.push(...staticImports(buf.toString('utf8')));
    }
    return out;
  };
  const initial = closure(ENTRY);
  const panelChunk = files.find((f) => PANEL_CHUNK.test(f));
  if (!initial) return 1;
  if (!panelChunk) {
    console.error(`size: no panel chunk (agent-chat-panel-*.js) in ${DIR}.`);
    return 1;
  }
  const panel = closure(panelChunk, initial);
  if (!panel) return 1;
  // Gzip of the files as served, one response each.
  const sum = (list: readonly string[], size: (b: Buffer) => number) => list.reduce((n, f) => n + size(code.get(f)!), 0);
  const initialGzip = sum(initial, gzip);
  const inlineGzip = initialGzip + sum(panel, gzip);
  const lazy = files.filter((f) => !initial.includes(f) && !panel.includes(f)).sort();
  // A chunk that imports the script back would load a second copy of the widget on a page
  // that serves the script under another name or with `?v=2` (README promises both).
  const backImports = files.filter((f) => staticImports(code.get(f)!.toString('utf8')).includes(ENTRY));
  if (backImports.length) {
    console.error(`size: FAIL - chunks import ${ENTRY} back: ${backImports.join(', ')}.`);
    return 1;
  }
  const languages = lazy.filter((f) => LANGUAGE_CHUNK.test(f));
  const features = lazy.filter((f) => !LANGUAGE_CHUNK.test(f));
  const largestLanguage = Math.max(0, ...languages.map((f) => gzip(code.get(f)!)));
  const everything = inlineGzip + features.reduce((n, f) => n + gzip(code.get(f)!), 0) + largestLanguage;

  const rows: string[][] = [['', 'minified', 'gzip -9', 'brotli 11']];
  const row = (f: string) => rows.push([`  ${f}`, kb(code.get(f)!.length), kb(gzip(code.get(f)!)), kb(brotli(code.get(f)!))]);
  initial.forEach(row);
  rows.push(['launcher: initial load (budget ' + kb(LAUNCHER_BUDGET) + ')', '', kb(initialGzip), kb(sum(initial, brotli))]);
  panel.forEach(row);
  rows.push(['inline: + panel (budget ' + kb(INLINE_BUDGET) + ')', '', kb(inlineGzip), kb(sum(initial, brotli) + sum(panel, brotli))]);
  rows.push(['lazy, on demand:', '', '', '']);
  [...features, ...languages].forEach(row);
  rows.push(['all features + one language', '', kb(everything), '']);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  if (!BRIEF) console.log(`\n${DIR}/`);
  for (const [i, row] of BRIEF ? [] : rows.entries()) {
    console.log(
      `  ${row[0]!.padEnd(widths[0]!)}  ${row
        .slice(1)
        .map((v, c) => v.padStart(widths[c + 1]!))
        .join('  ')}`,
    );
    if (i === 0) console.log(`  ${'-'.repeat(widths.reduce((a, b) => a + b + 2, 0))}`);
  }
  let failed = BRIEF ? false : !readmeAgrees(initialGzip, inlineGzip);
  for (const [name, bytes, budget] of [
    ['launcher', initialGzip, LAUNCHER_BUDGET],
    ['inline', inlineGzip, INLINE_BUDGET],
  ] as const) {
    if (bytes > budget) {
      console.error(`\nsize: FAIL - the ${name} load is ${kb(bytes)} gzip, over the ${kb(budget)} budget by ${kb(bytes - budget)}.`);
      failed = true;
    } else {
      console.log(`${failed ? '\n' : ''}size: ok - ${name} ${kb(bytes)} gzip, ${kb(budget - bytes)} headroom.`);
    }
  }
  return failed ? 1 : 0;
}

/**
 * README.md states the two loads as this prints them, to a tenth of a KB (gzip): the
 * launcher's ("… KB gzip for both", "pays … KB") and the inline one's ("… KB gzip with the
 * shell"). Checked by `npm run size` (the step of `npm run verify`), not by the build's brief line.
 */
function readmeAgrees(launcher: number, inline: number): boolean {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const tenth = (n: number) => (n / KB).toFixed(1);
  const wrong: string[] = [];
  for (const [pattern, bytes] of [
    [/([\d.]+) KB gzip for both/, launcher],
    [/pays ([\d.]+) KB/, launcher],
    [/([\d.]+) KB gzip with the shell/, inline],
  ] as const) {
    const said = readme.match(pattern)?.[1];
    if (said !== tenth(bytes)) wrong.push(`"${pattern.source.replace('([\\d.]+)', said ?? '?')}" should say ${tenth(bytes)}`);
  }
  if (wrong.length) console.error(`size: FAIL - README.md's sizes are not what this measures: ${wrong.join('; ')}.`);
  return !wrong.length;
}

process.exitCode = await main();
