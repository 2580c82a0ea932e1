/**
 * Fails when modules under src/ import each other in a cycle, type-only imports included:
 * a cycle means two layers that cannot be read, tested or split into chunks apart
 * (docs/architecture.md). Dynamic import() is a chunk boundary and does not count.
 * Also holds the layout's size limits: no module in src/ over 500 lines, the element
 * (src/agent-chat-element.ts, a thin host) at most 450. Run by `npm run lint`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve('src');
const files = (readdirSync(root, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => join(root, f));

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
const ELEMENT_MAX_LINES = 450;
const long: string[] = [];
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  const limit = relative(root, file) === 'agent-chat-element.ts' ? ELEMENT_MAX_LINES : MAX_LINES;
  if (lines > limit) long.push(`${relative(root, file)}: ${lines} lines (at most ${limit})`);
}
if (long.length > 0) {
  console.error(`check-cycles: modules over their size limit; split them by what they do:\n  ${long.join('\n  ')}`);
  process.exit(1);
}

if (cycles.length > 0) {
  console.error(`check-cycles: ${cycles.length} import cycle(s) in src/:\n  ${cycles.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-cycles: ok - ${files.length} modules, no import cycle, none over ${MAX_LINES} lines (the element ${ELEMENT_MAX_LINES}).`);
