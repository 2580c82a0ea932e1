/**
 * `npm run check:readme`: README.md must mention every attribute, event and CSS part of
 * CONTRACT.md, so the documentation a host reads cannot silently fall behind the contract.
 * A name counts as mentioned when it appears as code: `` `name` ``, `::part(name)` or in a
 * code block as an attribute (`name=`) or event listener argument (`'name'`).
 */
import { readFileSync } from 'node:fs';
import { ATTRIBUTES, EVENTS, PARTS, Report } from './contract.ts';

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
report.finish();
