/**
 * `npm run check:manifest` (after `npm run build`): custom-elements.json, generated from the
 * element's JSDoc, must describe every public name of scripts/contract.ts. A name missing here is
 * missing for IDEs, Storybook and framework wrappers too, so this fails CI.
 */
import { ATTRIBUTES, CSS_PROPERTIES, EVENTS, METHODS, PARTS, PROPERTIES, Report, SLOTS } from './contract.ts';
import { agentChatDeclaration, readManifest, type Manifest, type Named } from './manifest.ts';

let manifest: Manifest;
try {
  manifest = readManifest();
} catch (error) {
  console.error(`check:manifest: cannot read custom-elements.json (run \`npm run build\` first): ${String(error)}`);
  process.exit(1);
}

const report = new Report('check:manifest');
const element = agentChatDeclaration(manifest);
const registered = manifest.modules.some((m) => m.exports?.some((e) => e.kind === 'custom-element-definition' && e.name === 'agent-chat'));
report.expect(registered, 'no custom-element-definition export for <agent-chat>');
if (!element) {
  report.expect(false, 'no declaration with tagName "agent-chat"');
  report.finish();
  process.exit();
}

const names = (list: Named[] | undefined) => new Set((list ?? []).map((x) => x.name));
const attributes = new Map((element.attributes ?? []).map((a) => [a.name, a]));
const members = new Map((element.members ?? []).map((m) => [m.name, m]));
const events = new Map((element.events ?? []).map((e) => [e.name, e]));
const parts = names(element.cssParts);
const cssProperties = names(element.cssProperties);
const slots = names(element.slots);

for (const [attribute, property] of Object.entries(ATTRIBUTES)) {
  const entry = attributes.get(attribute);
  report.expect(!!entry, `attribute \`${attribute}\` is missing`);
  if (entry)
    report.expect(entry.fieldName === property, `attribute \`${attribute}\` reflects to \`${entry.fieldName}\`, not \`${property}\``);
  report.expect(members.get(property)?.kind === 'field', `property \`${property}\` (attribute \`${attribute}\`) is missing`);
}
for (const property of PROPERTIES) report.expect(members.get(property)?.kind === 'field', `property \`${property}\` is missing`);
for (const method of METHODS) report.expect(members.get(method)?.kind === 'method', `method \`${method}()\` is missing`);

for (const name of EVENTS) {
  const event = events.get(name);
  report.expect(!!event, `event \`${name}\` is missing (add \`@fires {CustomEvent<Detail>} ${name} - ...\`)`);
  if (!event) continue;
  report.expect(!!event.description, `event \`${name}\` has no description`);
  report.expect(/^CustomEvent<.+>$/.test(event.type?.text ?? ''), `event \`${name}\` has no detail type (\`{CustomEvent<Detail>}\`)`);
}
for (const name of events.keys()) report.expect(name.startsWith('agent-chat-'), `event \`${name}\` is not prefixed \`agent-chat-\``);

for (const part of PARTS) report.expect(parts.has(part), `CSS part \`${part}\` is missing (add \`@csspart ${part} - ...\`)`);
for (const slot of SLOTS) report.expect(slots.has(slot), `slot \`${slot}\` is missing (add \`@slot ${slot} - ...\`)`);
for (const property of CSS_PROPERTIES) report.expect(cssProperties.has(property), `CSS custom property \`${property}\` is missing`);
for (const property of cssProperties)
  report.expect(property.startsWith('--agent-chat-'), `CSS custom property \`${property}\` is not named \`--agent-chat-*\``);

// Private members are implementation, not API (custom-elements-manifest.config.mjs drops them).
for (const member of members.values())
  report.expect(member.privacy !== 'private' && member.privacy !== 'protected', `${member.privacy} member \`${member.name}\` leaked`);

report.finish();
