/**
 * Code that highlight.js's grammars take long to read: short fragments repeated, on which
 * the grammars of C, C++, C# and Java backtrack (one call grows about 4x per doubling of
 * its input). Found by `tsx scripts/bench-highlight.ts --search` (every fragment of one to
 * three characters or keywords from an alphabet of code's, timed as it doubles); BENCHMARKS.md "Highlighted
 * code" has the figures. `lines`: many short lines (the highlighter's pieces bound each
 * call); `line`: one line (past the piece bound: it stays plain).
 */
export const SLOW_CODE = {
  c: { lines: 'a\na', line: 'int a' },
  cpp: { lines: '\nint ', line: 'int ' },
  csharp: { lines: 'aa\n', line: 'aa\t' },
  java: { lines: '@ 1\n', line: 'aa' },
} as const;

export type SlowLanguage = keyof typeof SLOW_CODE;

/** `fragment` repeated to `chars` characters, ending with a line break (as a fenced block's code does). */
export function slowCode(fragment: string, chars: number): string {
  return fragment.repeat(Math.ceil(chars / fragment.length)).slice(0, chars - 1) + '\n';
}
