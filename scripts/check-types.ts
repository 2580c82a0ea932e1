/**
 * `npm run check:types` (after `npm run build`): the package as a TypeScript project of each
 * framework sees it.
 *
 * 1. The docs' snippets: a fenced block under `<!-- type-check: <project>/<file> -->` in
 *    docs/*.md is written to test/types/<project>/<file> (ignored by git), so what a reader
 *    copies is what compiles.
 * 2. One project per framework in test/types/ (events on document/window, React 19, Preact,
 *    Solid, Vue, Svelte, Angular), each compiled with `tsc -p` against the built package
 *    (`agent-chat`, `agent-chat/jsx/<framework>` resolve to dist/ through package.json).
 *    Wrong attribute values and event details are `@ts-expect-error` lines, so a type that
 *    stops catching them fails too.
 * 3. The package imports on a server: `import('agent-chat')` in Node, without a DOM, must
 *    load and define nothing (frameworks render on the server; the element upgrades in the
 *    browser).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Report } from './contract.ts';

const root = new URL('../', import.meta.url);
const report = new Report('check:types');

if (!existsSync(new URL('dist/jsx/react.d.ts', root)) || !existsSync(new URL('dist/lib/index.d.ts', root))) {
  console.error('check:types: no build (run `npm run build` first)');
  process.exit(1);
}

// 1. Snippets of the docs.
const MARK = /<!-- type-check: ([\w-]+)\/([\w.-]+) -->\s*\n```\w*\n([\s\S]*?)\n```/g;
let snippets = 0;
for (const page of readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md'))) {
  const text = readFileSync(new URL(`docs/${page}`, root), 'utf8');
  for (const [, project, file, code] of text.matchAll(MARK)) {
    const dir = new URL(`test/types/${project}/`, root);
    report.expect(existsSync(dir), `docs/${page}: no type-check project test/types/${project}/`);
    report.expect(file!.startsWith('docs-'), `docs/${page}: snippet files are named docs-… (git ignores them): ${file}`);
    if (!existsSync(dir) || !file!.startsWith('docs-')) continue;
    writeFileSync(new URL(file!, dir), `// From docs/${page}: edit it there.\n${code}\n`);
    snippets++;
  }
}
report.expect(snippets > 0, 'no snippet in docs/*.md is marked `<!-- type-check: … -->`');

// 2. One project per framework.
const tsc = fileURLToPath(new URL('node_modules/typescript/bin/tsc', root));
// A folder with a tsconfig.json is a project (test/types/shared/ holds what several compile).
const projects = readdirSync(new URL('test/types/', root), { withFileTypes: true }).filter(
  (d) => d.isDirectory() && existsSync(new URL(`test/types/${d.name}/tsconfig.json`, root)),
);
for (const { name } of projects) {
  const run = spawnSync(process.execPath, [tsc, '-p', `test/types/${name}`], { cwd: fileURLToPath(root), encoding: 'utf8' });
  const errors = `${run.stdout}${run.stderr}`.trim();
  report.expect(run.status === 0, `test/types/${name} does not compile:\n${errors.replace(/^/gm, '      ')}`);
}

// 3. Imports on a server.
const ssr = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const m = await import('agent-chat');
     if (typeof m.AgentChat !== 'function') throw new Error('no AgentChat export');
     if ('customElements' in globalThis || 'document' in globalThis) throw new Error('defined a DOM global');
     await import('agent-chat/client');`,
  ],
  { cwd: fileURLToPath(root), encoding: 'utf8' },
);
report.expect(ssr.status === 0, `import('agent-chat') fails without a DOM:\n${ssr.stderr.trim().replace(/^/gm, '      ')}`);

console.log(
  `check:types: ${snippets} docs snippets, ${projects.length} projects (${projects.map((d) => d.name).join(', ')}), server import`,
);
report.finish();
