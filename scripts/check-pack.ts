/**
 * `npm run check:pack` (after `npm run build`): what `npm publish` would upload. Every entry
 * point of package.json must be in the tarball, nothing from the sources, tests, demo or
 * node_modules, and the whole stays small.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dynamicImports, staticImports } from './chunks.ts';
import { COMPILE_HINT, HINTED_CHUNKS } from './vite-compile-hints.ts';
import { Report } from './contract.ts';

interface PackResult {
  files: { path: string; size: number }[];
  size: number;
  unpackedSize: number;
  entryCount: number;
}

/**
 * Unpacked, source maps included (with their sources, so they are of use without the repo:
 * more than half of the total). Raised from 2 MB with highlighted code: the highlighter
 * and its 23 grammars, each a chunk with its map, are 0.6 MB of it (0.9 MB packed in all);
 * from 3 MB with the #24/#25 round (3.12 MB: the branch index, the reply limit, the
 * send-once keys, the highlighter's slices and the reading moves, each in the script's
 * chunks, their maps and the package's own build); to 3.75 MB when it reached 3.50 MB
 * (plain code drawn in blocks). Of the 3.50 MB: 1.96 MB the chunks' source maps, 0.71 MB
 * the package's own build (dist/lib, comments kept: its .d.ts carry the API's JSDoc), 0.47
 * MB the chunks, 0.32 MB declarations. None of it is what a page loads (`npm run size`).
 */
const MAX_UNPACKED = 3.75 * 1024 * 1024;
const REQUIRED = [
  'package.json',
  'README.md',
  'LICENSE',
  'custom-elements.json',
  'dist/agent-chat.js',
  'dist/lib/index.js',
  'dist/lib/index.d.ts',
  'dist/lib/agent-chat.js',
  'dist/lib/events.d.ts',
  'dist/lib/client/index.js',
  'dist/lib/client/index.d.ts',
  'dist/lib/react/index.js',
  'dist/lib/react/index.d.ts',
  // The vendored lexer (scripts/vendor-marked.ts): dist/lib imports it, tsc does not copy it.
  'dist/lib/markdown/vendor/marked.js',
  'dist/lib/markdown/vendor/marked.d.ts',
];
const FORBIDDEN = /^(src|test|demo|scripts|docs|node_modules|coverage|\.ci|\.github)\/|\.tsbuildinfo$|^\.env/;

const root = new URL('..', import.meta.url);
/** What `npm pack` would put in the package of the folder `dir` (the widget's: the root). */
function packOf(dir: URL): PackResult {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [result] = JSON.parse(out) as PackResult[];
  if (!result) throw new Error(`npm pack printed no result in ${dir.pathname}`);
  return result;
}
const pack = packOf(root);
const files = new Set(pack.files.map((f) => f.path));

const report = new Report('check:pack');
for (const path of REQUIRED) report.expect(files.has(path), `${path} is not in the package (run \`npm run build\` first?)`);
for (const path of files) report.expect(!FORBIDDEN.test(path), `${path} must not be published`);

// Every target of "exports", "main" and "types" must ship, or an import fails after install.
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Record<string, unknown>;
const targets = new Set<string>();
const collect = (value: unknown): void => {
  if (typeof value === 'string') targets.add(value.replace(/^\.\//, ''));
  else if (value && typeof value === 'object') Object.values(value).forEach(collect);
};
collect(manifest.exports);
collect([manifest.main, manifest.module, manifest.types, manifest.customElements]);
for (const target of targets) {
  // A pattern (`./jsx/*`) must match at least one shipped file.
  const pattern = target.includes('*')
    ? new RegExp(
        `^${target
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      )
    : null;
  const ships = pattern ? [...files].some((file) => pattern.test(file)) : files.has(target);
  report.expect(ships, `package.json points at ${target}, which is not in the package`);
}

// The script tag's chunks (its core, static, and every lazy one, dynamic) must ship beside it.
const chunks = ['dist/agent-chat.js'];
for (const chunk of chunks) {
  if (!files.has(chunk)) continue;
  const code = readFileSync(new URL(chunk, root), 'utf8');
  for (const name of [...staticImports(code), ...dynamicImports(code)]) {
    const path = `dist/${name}`;
    if (chunks.includes(path)) continue;
    chunks.push(path);
    report.expect(files.has(path), `${chunk} imports ${path}, which is not in the package`);
  }
}
report.expect(
  chunks.some((c) => /^dist\/agent-chat-core-/.test(c)),
  'dist/agent-chat.js imports no core chunk',
);
// What runs as a chat loads is compiled as it streams in (scripts/vite-compile-hints.ts).
for (const name of HINTED_CHUNKS) {
  const file = chunks.find((c) => new RegExp(`^dist/agent-chat-${name}-[\\w-]+\\.js$`).test(c));
  report.expect(
    !!file && readFileSync(new URL(file, root), 'utf8').startsWith(COMPILE_HINT),
    `the ${name} chunk does not start with its compile hint`,
  );
}

// src/'s private members are `__name`, shortened by the build (vite.config.ts `mangle`): one read
// as a property in a chunk is one the minifier missed, or a library's that it renamed too.
for (const chunk of chunks) {
  if (!files.has(chunk)) continue;
  const left = readFileSync(new URL(chunk, root), 'utf8').match(/[\w$\])]\.__(?!proto__)[a-z][\w$]*/g);
  report.expect(!left, `${chunk} reads ${left?.join(', ')}: a __name property the build should have shortened`);
}

// The workspace's other packages: the wire types both halves import, and the server.
interface Manifest {
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  version: string;
}
const readManifest = (dir: URL) => JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as Manifest;
const wireDir = new URL('wire/', root);
const serverDir = new URL('server/', root);
const wireManifest = readManifest(wireDir);
const serverManifest = readManifest(serverDir);
for (const [name, dir, required, forbidden] of [
  ['wire', wireDir, ['package.json', 'README.md', 'LICENSE', 'index.js', 'index.d.ts'], /^(node_modules)\//],
  [
    'server',
    serverDir,
    ['package.json', 'README.md', 'LICENSE', 'catalog.json', 'dist/index.js', 'dist/index.d.ts', 'dist/main.js'],
    /^(src|test|scripts|node_modules|coverage)\/|\.tsbuildinfo$|^\.env/,
  ],
] as const) {
  const shipped = new Set(packOf(dir).files.map((f) => f.path));
  for (const path of required) report.expect(shipped.has(path), `${name}: ${path} is not in the package (run \`npm run build\` first?)`);
  for (const path of shipped) report.expect(!forbidden.test(path), `${name}: ${path} must not be published`);
}
for (const target of Object.values(serverManifest.bin ?? {})) {
  const path = new URL(target, serverDir);
  report.expect(
    readFileSync(path, 'utf8').startsWith('#!/usr/bin/env node'),
    `server: its bin ${target} does not start with #!/usr/bin/env node`,
  );
}
// A page that embeds the widget installs none of the server's libraries.
const widgetDependencies = (manifest.dependencies ?? {}) as Record<string, string>;
for (const dependency of Object.keys(serverManifest.dependencies ?? {})) {
  if (dependency === '@agent-chat/wire') continue;
  report.expect(!(dependency in widgetDependencies), `the widget depends on ${dependency}, a library of the server`);
}
for (const [name, dependencies] of [
  ['the widget', widgetDependencies],
  ['server', serverManifest.dependencies ?? {}],
] as const) {
  report.expect(
    dependencies['@agent-chat/wire'] === wireManifest.version,
    `${name} does not depend on @agent-chat/wire ${wireManifest.version}`,
  );
}

report.expect(
  pack.unpackedSize < MAX_UNPACKED,
  `unpacked size ${(pack.unpackedSize / 1024).toFixed(0)} KB exceeds ${MAX_UNPACKED / 1024} KB`,
);
console.log(
  `check:pack: ${pack.entryCount} files (the script and ${chunks.length - 1} chunks it loads), ${(pack.size / 1024).toFixed(0)} KB packed, ${(pack.unpackedSize / 1024).toFixed(0)} KB unpacked`,
);
report.finish();
