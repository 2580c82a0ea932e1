/**
 * `npm run check:readme`: README.md must mention every attribute, event and CSS part of
 * the public API (scripts/contract.ts), so the documentation a host reads cannot fall behind;
 * and, once `npm run build` has generated custom-elements.json, every attribute, event, CSS
 * part and custom property the element documents in its JSDoc (names added beyond the
 * contract must reach the README too).
 * A name counts as mentioned when it appears as code: `` `name` ``, `::part(name)` or in a
 * code block as an attribute (`name=`) or event listener argument (`'name'`).
 *
 * Event detail types must agree everywhere a host reads them: the manifest's
 * `CustomEvent<X>`, the type the package exports (src/index.ts, src/events.ts for
 * `agent-chat/react`), and every table row of README.md and docs/*.md that names an event
 * beside a `…Detail` type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ATTRIBUTES, EVENTS, PARTS, Report, SLOTS } from './contract.ts';
import { agentChatDeclaration, readManifest, type Manifest } from './manifest.ts';

let readme: string;
try {
  readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
} catch (error) {
  console.error(`check:readme: cannot read README.md: ${String(error)}`);
  process.exit(1);
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mentioned(name: string): boolean {
  const n = escape(name);
  // Bounded on both sides so `card` is not found inside `card-title` or `agent-chat-card-click`.
  return new RegExp(`\`${n}\`|part\\(${n}\\)|[\\s<]${n}=|['"]${n}['"]`).test(readme);
}

const report = new Report('check:readme');
for (const name of Object.keys(ATTRIBUTES)) report.expect(mentioned(name), `attribute \`${name}\` is not mentioned`);
for (const name of EVENTS) report.expect(mentioned(name), `event \`${name}\` is not mentioned`);
for (const name of PARTS) report.expect(mentioned(name), `CSS part \`${name}\` is not mentioned`);
for (const name of SLOTS)
  report.expect(new RegExp(`slot="${escape(name)}"`).test(readme), `slot \`${name}\` has no example (\`slot="${name}"\`)`);

function readManifestOrNull(): Manifest | null {
  try {
    return readManifest();
  } catch {
    console.warn('check:readme: no custom-elements.json (run `npm run build`); checked against scripts/contract.ts only.');
    return null;
  }
}
const manifest = readManifestOrNull();
const element = manifest && agentChatDeclaration(manifest);
if (element) {
  const kinds = [
    ['attribute', element.attributes],
    ['event', element.events],
    ['CSS part', element.cssParts],
    ['custom property', element.cssProperties],
    ['slot', element.slots],
  ] as const;
  for (const [kind, list] of kinds) {
    for (const { name } of list ?? []) report.expect(mentioned(name), `${kind} \`${name}\` (custom-elements.json) is not mentioned`);
  }
}

if (element) {
  const source = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
  const entry = source('src/index.ts');
  const events = source('src/events.ts');
  const detailOf = new Map<string, string>();
  for (const { name, type } of element.events ?? []) {
    const detail = /^CustomEvent<(\w+)>$/.exec(type?.text ?? '')?.[1];
    report.expect(!!detail, `event \`${name}\` has no \`CustomEvent<…Detail>\` type in custom-elements.json`);
    if (!detail) continue;
    detailOf.set(name, detail);
    report.expect(
      new RegExp(`export (interface|type) ${detail}\\b`).test(events),
      `\`${detail}\` (custom-elements.json, ${name}) is not a type of src/events.ts`,
    );
    report.expect(
      new RegExp(`^\\s+${detail},$`, 'm').test(entry),
      `\`${detail}\` (custom-elements.json, ${name}) is not exported by src/index.ts under that name`,
    );
  }
  const pages = [
    'README.md',
    ...readdirSync(new URL('../docs', import.meta.url))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  for (const page of pages) {
    for (const line of source(page).split('\n')) {
      if (!line.startsWith('|')) continue;
      const named = [...line.matchAll(/`(agent-chat-[a-z-]+)`/g)].map((m) => m[1]!).filter((e) => detailOf.has(e));
      const types = [...line.matchAll(/`(\w+Detail)`/g)].map((m) => m[1]!);
      if (!named.length || !types.length) continue;
      for (const event of named) {
        const want = detailOf.get(event)!;
        report.expect(
          types.every((t) => t === want),
          `${page}: the row of \`${event}\` names ${types.map((t) => `\`${t}\``).join(', ')}; custom-elements.json says \`${want}\``,
        );
      }
    }
  }
}
// The React wrapper's page lists every prop (each settable property) and every event prop
// (src/react/events.ts, generated from the manifest) it has.
if (element) {
  const page = 'docs/integration-react.md';
  const react = readFileSync(new URL(`../${page}`, import.meta.url), 'utf8');
  const listed = (name: string) => react.includes(`\`${name}\``);
  for (const { name, kind, privacy, readonly, static: isStatic } of element.members ?? []) {
    if (kind !== 'field' || readonly || isStatic || (privacy && privacy !== 'public')) continue;
    report.expect(listed(name), `${page}: the prop \`${name}\` (custom-elements.json) is not listed`);
  }
  const wrapper = readFileSync(new URL('../src/react/events.ts', import.meta.url), 'utf8');
  for (const [, prop] of wrapper.matchAll(/^\s+(on\w+): 'agent-chat-/gm))
    report.expect(listed(prop!), `${page}: the event prop \`${prop}\` (src/react/events.ts) is not listed`);
}
report.finish();
