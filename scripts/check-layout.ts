/**
 * The layout's rules (docs/architecture.md), checked on the import graph of src/, type-only
 * imports included. Run by `npm run lint`.
 *
 * - No import cycles, counting every edge: static, type-only, `import()` and `typeof
 *   import()`. A cycle means two layers that cannot be read, tested or split into chunks
 *   apart. A chunk list is imported only by what fetches its chunks (the panel, the shell,
 *   the markdown renderer, the languages), and what it lists never imports it back; the
 *   conversation, the log and the features get the loaders they use handed in.
 * - Import direction: the client (src/client/) imports nothing of the widget but the
 *   console warning (it is usable alone, `agent-chat/client`); only the entries import
 *   the element (the panel sees it through `ChatHost`); a feature folder (one the registry,
 *   src/panel/features.ts, lists) reaches the panel only through its context
 *   (src/panel/context.ts, feature.ts, spec.ts), and another feature not at all (the panel
 *   composes them).
 * - One way to load a chunk: `import()` is written only in the chunk lists (src/chunks.ts,
 *   src/shell/chunks.ts, src/markdown/chunks.ts, src/i18n/chunks.ts,
 *   src/highlight/chunks.ts) and in each feature's spec (`<feature>/feature.ts`, its own
 *   chunk), each loader wrapped in `chunk()`.
 * - Exports are constants: no `export let` or `export var`. Lazy chunks read the panel's
 *   exports once, from where its loader keeps them (scripts/vite-chunk-retry.ts), so a
 *   binding the module reassigned later would not reach them.
 * - Two packages apart: nothing in src/ imports the server (server/), nothing in server/
 *   imports the widget's sources or tests; what both need of the wire is in wire/
 *   (`@agent-chat/wire`).
 * - The server's fault knobs are a layer around it: nothing in server/src/ but its wiring
 *   (app.ts) imports server/src/faults/, so no request path reads a fault plan.
 * - Size: no module in src/ over 500 lines, the element (src/agent-chat-element.ts, a thin
 *   host) at most 300 lines of code. Its comments do not count: the class's JSDoc is the
 *   public API reference the manifest is built from, and it grows with every part, slot and
 *   event, not with logic.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve('src');
// Not a vendored library's files (src/markdown/vendor/, written by scripts/vendor-marked.ts): they are its layout, not ours.
const files = (readdirSync(root, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f) && !/(^|[\\/])vendor[\\/]/.test(f))
  .map((f) => join(root, f));

const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gm;
/** `import('./x.js')` and `typeof import('./x.js')`: a chunk's loader, or a type read from a chunk. */
const DYNAMIC_IMPORT = /\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;
/** Every module's imports, of every kind (the cycle check's graph). */
const graph = new Map<string, string[]>();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set<string>();
  for (const match of [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
    targets.add(resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
  }
  graph.set(file, [...targets]);
}

// --- import direction ---------------------------------------------------------------------

/** Folders of the features the panel composes, read from its registry: each is reached only through the panel. */
const REGISTRY = 'panel/features.ts';
const FEATURES = [...readFileSync(join(root, REGISTRY), 'utf8').matchAll(/from '\.\.\/([\w-]+)\/feature\.js'/g)].map((m) => m[1]!);
if (!FEATURES.length) throw new Error(`check-layout: no feature found in src/${REGISTRY}`);
const featureOf = (path: string) => FEATURES.find((f) => path.startsWith(`${f}/`));
const PANEL_FOR_FEATURES = new Set(['panel/context.ts', 'panel/feature.ts', 'panel/spec.ts']);
/** The script's entries: the only modules that import the element's class. */
const ENTRIES = new Set(['agent-chat.ts', 'index.ts']);
const CHUNK_LISTS = new Set(['chunks.ts', 'shell/chunks.ts', 'markdown/chunks.ts', 'i18n/chunks.ts', 'highlight/chunks.ts']);

const wrongWay: string[] = [];
for (const [file, targets] of graph) {
  const from = relative(root, file);
  for (const target of targets) {
    const to = relative(root, target);
    if (from.startsWith('client/') && !to.startsWith('client/') && to !== 'warn.ts') {
      wrongWay.push(`${from} -> ${to}: the client imports nothing of the widget`);
    }
    if (to === 'agent-chat-element.ts' && !ENTRIES.has(from)) {
      wrongWay.push(
        `${from} -> ${to}: only the entries import the element; the panel and its features see it as ChatHost (src/shell/panel-api.ts)`,
      );
    }
    const feature = featureOf(from);
    if (feature && to.startsWith('panel/') && !PANEL_FOR_FEATURES.has(to)) {
      wrongWay.push(`${from} -> ${to}: a feature reaches the panel only through panel/context.ts (and feature.ts, spec.ts)`);
    }
    const other = featureOf(to);
    if (feature && other && other !== feature) wrongWay.push(`${from} -> ${to}: features reach each other only through the panel`);
  }
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const loads = [...code.matchAll(/(?<!typeof )\bimport\(/g)].length;
  const list = CHUNK_LISTS.has(from) || (from.endsWith('/feature.ts') && FEATURES.includes(from.split('/')[0]!));
  if (loads && !list) wrongWay.push(`${from}: import() belongs in a chunk list (src/chunks.ts) or a feature's spec, through chunk()`);
  if (loads && list && loads !== [...code.matchAll(/\bchunk\(\(\) => import\(/g)].length) {
    wrongWay.push(`${from}: every loader is chunk(() => import(...)), for the one retry rule`);
  }
}
// The two packages meet only in the wire module: a relative import across is a reach into the other's files.
const top = resolve('.');
const serverRoot = resolve('server');
const serverFiles = (readdirSync(serverRoot, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('node_modules') && !f.startsWith('dist'))
  .map((f) => join(serverRoot, f));
for (const [owner, list] of [
  [root, files],
  [serverRoot, serverFiles],
] as const) {
  for (const file of list) {
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = resolve(dirname(file), match[1]!);
      if (!target.startsWith(owner + '/')) {
        wrongWay.push(`${relative(top, file)} -> ${relative(top, target)}: the widget and the server share only @agent-chat/wire`);
      }
    }
  }
}
const faultsDir = join(serverRoot, 'src', 'faults') + '/';
for (const file of serverFiles) {
  if (!file.startsWith(join(serverRoot, 'src') + '/') || file.startsWith(faultsDir) || file === join(serverRoot, 'src', 'app.ts')) continue;
  for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
    if (resolve(dirname(file), match[1]!).startsWith(faultsDir)) {
      wrongWay.push(
        `${relative(top, file)} -> ${match[1]}: the fault knobs wrap the server (server/src/app.ts wires them); nothing else imports them`,
      );
    }
  }
}
for (const file of files) {
  if (/^\s*export\s+(let|var)\s/m.test(readFileSync(file, 'utf8'))) {
    wrongWay.push(
      `${relative(root, file)}: exports a binding it may reassign (export let/var); lazy chunks read exports once (scripts/vite-chunk-retry.ts)`,
    );
  }
}
if (wrongWay.length > 0) {
  console.error(`check-layout: ${wrongWay.length} import(s) against the layout (docs/architecture.md):\n  ${wrongWay.join('\n  ')}`);
  process.exit(1);
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
  console.error(`check-layout: modules over their size limit; split them by what they do:\n  ${long.join('\n  ')}`);
  process.exit(1);
}

if (cycles.length > 0) {
  console.error(`check-layout: ${cycles.length} import cycle(s) in src/:\n  ${cycles.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-layout: ok - ${files.length} modules; no import cycle (static, type-only and import() edges), none against the layout, import() only in the chunk lists, no export let; none over ${MAX_LINES} lines (the element ${ELEMENT_MAX_LINES} lines of code).`,
);
