/**
 * Fails when modules under src/ import each other in a cycle, type-only imports included:
 * a cycle means two layers that cannot be read, tested or split into chunks apart
 * (docs/architecture.md). Dynamic import() is a chunk boundary and does not count.
 * Also holds the layout's size limits: no module in src/ over 500 lines, the element
 * (src/agent-chat-element.ts, a thin host) at most 300 lines of code. Its comments do not
 * count: the class's JSDoc is the public API reference the manifest is built from, and it
 * grows with every part, slot and event, not with logic. Run by `npm run lint`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve('src');
const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f)).map((f) => join(root, f));

const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gm;
const graph = new Map<string, string[]>();
for (const file of files) {
  const targets: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
    targets.push(resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
  }
  graph.set(file, targets);
}

const done = new Set<string>();
const cycles: string[] = [];
function visit(file: string, path: string[]): void {
  const at = path.indexOf(file);
  if (at >= 0) {
    cycles.push([...path.slice(at), file].map((f) => relative(root, f)).join(' -> '));
    return;
  }
  if (done.has(file)) return;
  for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
  done.add(file);
}
for (const file of files) visit(file, []);

const MAX_LINES = 500;
const ELEMENT_MAX_LINES = 300;
const long: string[] = [];
/** Lines of `text` that hold code: not blank, not inside or made of a comment. */
function codeLines(text: string): number {
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return stripped.split('\n').filter((line) => line.trim() !== '').length;
}
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const element = relative(root, file) === 'agent-chat-element.ts';
  const lines = element ? codeLines(text) : text.split('\n').length - 1;
  const limit = element ? ELEMENT_MAX_LINES : MAX_LINES;
  if (lines > limit) long.push(`${relative(root, file)}: ${lines} ${element ? 'lines of code' : 'lines'} (at most ${limit})`);
}
if (long.length > 0) {
  console.error(`check-cycles: modules over their size limit; split them by what they do:\n  ${long.join('\n  ')}`);
  process.exit(1);
}

if (cycles.length > 0) {
  console.error(`check-cycles: ${cycles.length} import cycle(s) in src/:\n  ${cycles.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-cycles: ok - ${files.length} modules, no import cycle, none over ${MAX_LINES} lines (the element ${ELEMENT_MAX_LINES} lines of code).`,
);
