/**
 * Fences the shell's reactive base (src/shell/host.ts), a port of Lit's ReactiveElement:
 * the build stops when what the port relies on has moved.
 *
 * - The installed @lit/reactive-element is the minor version host.ts says it follows
 *   (`@follows`): a new one may change the contract the element and the panel's
 *   controllers rely on. Read its changelog, run test/element/host.test.ts (it runs against
 *   both), then move the line.
 * - TypeScript compiles decorators the way host.ts's `property()` expects them:
 *   `experimentalDecorators` on (legacy `(prototype, key)` decorators, as Lit's are), and
 *   `useDefineForClassFields` off (with it on, a class field is defined on the instance and
 *   hides the accessor on the prototype: the property silently stops being reactive).
 *
 * Run first by `npm run build`.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const problems: string[] = [];

const source = readFileSync('src/shell/host.ts', 'utf8');
const follows = /@follows @lit\/reactive-element (\d+\.\d+)/.exec(source)?.[1];
const installed = (JSON.parse(readFileSync('node_modules/@lit/reactive-element/package.json', 'utf8')) as { version: string }).version;
if (!follows)
  problems.push('src/shell/host.ts no longer says which @lit/reactive-element it follows (`@follows @lit/reactive-element X.Y`)');
else if (!installed.startsWith(`${follows}.`)) {
  problems.push(
    `@lit/reactive-element ${installed} is installed; src/shell/host.ts follows ${follows}: compare, test, then update its @follows line`,
  );
}

for (const file of ['tsconfig.json', 'tsconfig.build.json']) {
  const read = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(read.config, ts.sys, '.');
  if (options.experimentalDecorators !== true) problems.push(`${file}: experimentalDecorators must be true (src/shell/host.ts decorators)`);
  if (options.useDefineForClassFields !== false)
    problems.push(`${file}: useDefineForClassFields must be false (fields would hide the reactive accessors)`);
}

if (problems.length) {
  console.error(`check-host: the reactive base's fence moved:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-host: ok - host.ts follows @lit/reactive-element ${follows} (${installed} installed); decorator settings as it needs them.`,
);
