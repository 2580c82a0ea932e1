/**
 * `npm run check:readme`: README.md must mention every attribute, event and CSS part of
 * the public API (scripts/contract.ts), so the documentation a host reads cannot fall behind;
 * and, once `npm run build` has generated custom-elements.json, every attribute, event, CSS
 * part and custom property the element documents in its JSDoc (names added beyond the
 * contract must reach the README too).
 * A name counts as mentioned when it appears as code: `` `name` ``, `::part(name)` or in a
 * code block as an attribute (`name=`) or event listener argument (`'name'`).
 */
import { readFileSync } from 'node:fs';
import { ATTRIBUTES, EVENTS, PARTS, Report } from './contract.ts';
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
  ] as const;
  for (const [kind, list] of kinds) {
    for (const { name } of list ?? []) report.expect(mentioned(name), `${kind} \`${name}\` (custom-elements.json) is not mentioned`);
  }
}
report.finish();
