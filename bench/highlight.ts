/**
 * What one call of the highlighter costs, in Node (`tsx bench/highlight.ts`): the
 * figures behind src/highlight/pieces.ts's PIECE_CHARS and BENCHMARKS.md "Highlighted code".
 *
 *  - For each block of test/support/slow-code.ts: one call on the whole block at 2, 4, 8 and
 *    16 KB (and the growth per doubling, 2 to 16 KB), then its 80 KB cut into the widget's pieces
 *    (`pieceEnd`), one call each: the longest call and their sum. Ordinary code (TypeScript,
 *    as the browser bench streams it) beside it.
 *  - `--search [grammar…]`: every fragment of one to three characters or keywords from an
 *    alphabet of code's, repeated to 512 and 1,024 characters, in each grammar (default: all
 *    of src/highlight/chunks.ts); of those that grow faster than their length, the slowest
 *    (and the slowest with line breaks) are timed again at 256 to 2,048 characters. This is
 *    how the fixtures were found.
 *
 * Each time is the shortest of three runs (another process on the machine only adds).
 */
import { loadavg } from 'node:os';
import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';
import { PIECE_CHARS, pieceEnd } from '../src/highlight/pieces.js';
import { SLOW_CODE, slowCode } from '../test/support/slow-code.js';
import { typescriptCode } from './support.js';

const GRAMMARS =
  'bash c cpp csharp css diff go graphql java javascript json kotlin markdown php python ruby rust scss sql swift typescript xml yaml'.split(
    ' ',
  );
const lowlight = createLowlight();

async function register(grammar: string): Promise<void> {
  if (lowlight.registered(grammar)) return;
  const module = (await import(`highlight.js/lib/languages/${grammar}`)) as { default: LanguageFn };
  lowlight.register(grammar, module.default);
  // Compiled and warmed up before anything is timed.
  for (let i = 0; i < 20; i++) lowlight.highlight(grammar, 'x = f(a, "b") // c\nint main() { return 0; }\n'.repeat(10));
}

/** The shortest of `runs` calls on `text`, in milliseconds. */
function time(grammar: string, text: string, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    lowlight.highlight(grammar, text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** A fragment as the tables show it: a long one by its start and length. */
const label = (fragment: string) =>
  JSON.stringify(fragment.length > 8 ? `${fragment.slice(0, 3)}…` : fragment) + (fragment.length > 8 ? ` × ${fragment.length}` : '');

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

/** `text` as the widget cuts it: one call per piece. */
function pieces(grammar: string, text: string): { longest: number; total: number; count: number } {
  let longest = 0;
  let total = 0;
  let count = 0;
  for (let from = 0; from < text.length;) {
    const end = pieceEnd(text, from, text.length);
    // A line longer than a piece stays plain: no call.
    if (end - from <= PIECE_CHARS) {
      const cost = time(grammar, text.slice(from, end));
      longest = Math.max(longest, cost);
      total += cost;
      count++;
    }
    from = end;
  }
  return { longest, total, count };
}

async function measure(): Promise<void> {
  console.log(`Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}; shortest of 3 runs, ms`);
  console.log('| block | one call: 2 KB | 4 KB | 8 KB | 16 KB | growth per doubling | 80 KB in pieces: longest call | sum | calls |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const rows: Array<[string, string, (chars: number) => string]> = [['typescript', 'TypeScript', typescriptCode]];
  for (const [grammar, shapes] of Object.entries(SLOW_CODE))
    for (const [shape, fragment] of Object.entries(shapes))
      rows.push([grammar, `${grammar} ${label(fragment)} (${shape})`, (chars) => slowCode(fragment, chars)]);
  for (const [grammar, label, make] of rows) {
    await register(grammar);
    const whole = [2, 4, 8, 16].map((kb) => time(grammar, make(kb * 1024), kb > 8 ? 1 : 3));
    // Per doubling from 2 to 16 KB (the geometric mean: one noisy size does not decide it).
    const growth = (whole[3]! / whole[0]!) ** (1 / 3);
    const cut = pieces(grammar, make(80 * 1024));
    console.log(
      `| ${label} | ${whole.map(ms).join(' | ')} | ${growth.toFixed(1)}x | ${ms(cut.longest)} | ${ms(cut.total)} | ${cut.count} |`,
    );
  }
}

async function search(grammars: string[]): Promise<void> {
  const alphabet = [
    'a',
    ' ',
    '\t',
    '\n',
    '(',
    ')',
    '<',
    '>',
    '*',
    '&',
    ':',
    ';',
    ',',
    '.',
    '"',
    "'",
    '`',
    '/',
    '\\',
    '[',
    '{',
    '=',
    '#',
    '@',
    '$',
    '%',
    '!',
    '-',
    '1',
    'if ',
    'int ',
  ];
  const fragments = new Set<string>();
  for (const a of alphabet) for (const b of ['', ...alphabet]) for (const c of b ? ['', ...alphabet] : ['']) fragments.add(a + b + c);
  const repeat = (fragment: string, chars: number) => fragment.repeat(Math.ceil(chars / fragment.length)).slice(0, chars);
  console.log(`Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}; ${fragments.size} fragments; ms`);
  console.log('| grammar | fragment | 256 | 512 | 1,024 | 2,048 |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const grammar of grammars) {
    await register(grammar);
    // Ranked by the time at 1,024 characters of those that grow faster than their length:
    // what makes a grammar slow at any size is the growth, not a high cost per character.
    const slowest: Array<[number, string]> = [];
    for (const fragment of fragments) {
      const half = time(grammar, repeat(fragment, 512), 2);
      const whole = time(grammar, repeat(fragment, 1024), 2);
      if (whole > 2.5 * half && whole > 0.5) slowest.push([whole, fragment]);
    }
    slowest.sort((a, b) => b[0] - a[0]);
    // The slowest, and the slowest of many lines (which the piece bound cuts, not the line bound).
    const top = [...slowest.slice(0, 3), ...slowest.filter(([, f]) => f.includes('\n')).slice(0, 3)];
    for (const fragment of new Set(top.map(([, f]) => f)))
      console.log(
        `| ${grammar} | ${JSON.stringify(fragment)} | ${[256, 512, 1024, 2048].map((n) => ms(time(grammar, repeat(fragment, n)))).join(' | ')} |`,
      );
  }
}

const args = process.argv.slice(2);
if (args[0] === '--search') await search(args.length > 1 ? args.slice(1) : GRAMMARS);
else await measure();
