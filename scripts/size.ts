/**
 * Bundle budget: `npm run size` (after `npm run build`).
 *
 * The budget is for what a host page downloads before `<agent-chat>` is defined: the script
 * tag's file (a one-line module) plus every chunk it imports statically (the hashed core:
 * lit, marked, eventsource-parser and the widget, all inlined: no CDN or peer dependency).
 * Lazy chunks load on demand, relative to `import.meta.url`, only when a page uses what
 * they hold (another UI language, `allow-html`, `transport="websocket"`, the hand-off
 * form); they are listed with their own sizes, and "all features" adds the largest
 * language to every feature chunk for the worst case. No chunk may import the script itself
 * (see the check below).
 *
 * gzip -9 (zlib) is binding, brotli 11 is shown for information; 1 KB = 1000 bytes, as Vite
 * reports. Exits 1 when the build is missing or the initial load is over budget.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { staticImports } from './chunks.ts';

const DIR = process.env.SIZE_DIR ?? 'dist';
const ENTRY = 'agent-chat.js';
const KB = 1000;
/** gzip bytes: the initial load is binding, the rest is reported. */
const BUDGET = 50 * KB;
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

  // The initial load: the entry and the closure of its static imports.
  const initial: string[] = [];
  const queue = [ENTRY];
  while (queue.length) {
    const f = queue.shift()!;
    if (initial.includes(f)) continue;
    const buf = code.get(f);
    if (!buf) {
      console.error(`size: ${f} is imported but missing from ${DIR}.`);
      return 1;
    }
    initial.push(f);
    queue.push(...staticImports(buf.toString('utf8')));
  }
  // Gzip of the files as served, one response each.
  const initialGzip = initial.reduce((n, f) => n + gzip(code.get(f)!), 0);
  const initialBrotli = initial.reduce((n, f) => n + brotli(code.get(f)!), 0);
  const lazy = files.filter((f) => !initial.includes(f)).sort();
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
  const everything = initialGzip + features.reduce((n, f) => n + gzip(code.get(f)!), 0) + largestLanguage;

  const rows: string[][] = [['', 'minified', 'gzip -9', 'brotli 11']];
  for (const f of initial) rows.push([`  ${f}`, kb(code.get(f)!.length), kb(gzip(code.get(f)!)), kb(brotli(code.get(f)!))]);
  rows.push(['initial load (budget ' + kb(BUDGET) + ')', '', kb(initialGzip), kb(initialBrotli)]);
  rows.push(['lazy, on demand:', '', '', '']);
  for (const f of [...features, ...languages]) rows.push([`  ${f}`, kb(code.get(f)!.length), kb(gzip(code.get(f)!)), kb(brotli(code.get(f)!))]);
  rows.push(['all features + one language', '', kb(everything), '']);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log(`\n${DIR}/`);
  for (const [i, row] of rows.entries()) {
    console.log(`  ${row[0]!.padEnd(widths[0]!)}  ${row.slice(1).map((v, c) => v.padStart(widths[c + 1]!)).join('  ')}`);
    if (i === 0) console.log(`  ${'-'.repeat(widths.reduce((a, b) => a + b + 2, 0))}`);
  }
  if (initialGzip > BUDGET) {
    console.error(`\nsize: FAIL - the initial load is ${kb(initialGzip)} gzip, over the ${kb(BUDGET)} budget by ${kb(initialGzip - BUDGET)}.`);
    return 1;
  }
  console.log(`\nsize: ok - ${kb(BUDGET - initialGzip)} gzip headroom in the initial load.`);
  return 0;
}

process.exitCode = await main();
