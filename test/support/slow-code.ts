/**
 * Code that highlight.js's grammars take long to read: short fragments repeated, on which
 * the grammars of C, C++, C# and Java backtrack (one call's time grows about 4x per doubling
 * of what it reads). Found by `tsx bench/highlight.ts --search` (fragments of one to
 * three characters or keywords, timed as they double); BENCHMARKS.md "Highlighted code" has
 * the figures. `lines`: many lines (the highlighter's pieces bound each call); `line`: one
 * line (longer than a piece: it stays plain). Java's grammar is slow on long words only, so
 * its `lines` are words of a piece's length.
 */
export const SLOW_CODE = {
  c: { lines: 'a\na', line: 'int a' },
  cpp: { lines: 'a\nif ', line: 'int ' },
  csharp: { lines: 'aa\n', line: 'aa\t' },
  java: { lines: `${'a'.repeat(500)}\n`, line: 'aa' },
} as const;

export type SlowLanguage = keyof typeof SLOW_CODE;

/**
 * `fragment` repeated to `chars` characters, ending with a line break (as a fenced block's
 * code does). A line that ends in the identifier `a` gets a number after it, so no two
 * pieces of the block are the same text: repeated pieces are highlighted once (the
 * highlighter keeps them), which would measure its cache, not the grammar.
 */
export function slowCode(fragment: string, chars: number): string {
  let n = 0;
  return (
    fragment
      .repeat(Math.ceil(chars / fragment.length))
      .replace(/a$/gm, () => `a${n++}`)
      .slice(0, chars - 1) + '\n'
  );
}
