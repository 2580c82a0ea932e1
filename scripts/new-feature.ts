/**
 * `npm run new-feature <name>`: a new lazy feature (docs/architecture.md "Where a change
 * goes"), as a folder that builds and passes its test from the start. It writes
 *
 * - src/<name>/index.ts, the chunk: the control, its stylesheet;
 * - src/<name>/<name>.ts, the control: a button under each finished reply, which announces
 *   that it was pressed (one listener for every message: `data-act`);
 * - src/<name>/<name>.styles.ts;
 * - src/<name>/feature.ts, the spec: on while the element has the attribute `<name>`,
 *   fetched when a finished reply shows, rendered among a reply's controls;
 * - test/unit/<name>.test.ts, the spec and the control in Node;
 *
 * and adds the feature to the registry (src/panel/features.ts), after the others. What to
 * change next: the setting (a property of the element, with its JSDoc, and `ChatHost`),
 * the English (`strings.ts`, keys in `FeatureKeys` and every language table), the control.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const name = process.argv[2] ?? '';
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  console.error('new-feature: give a name in kebab-case, e.g. `npm run new-feature share-link`.');
  process.exit(2);
}
const folder = join('src', name);
if (existsSync(folder)) {
  console.error(`new-feature: ${folder} exists already.`);
  process.exit(2);
}
/** `share-link` → `shareLink`, `ShareLink`. */
const camel = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const Pascal = camel[0]!.toUpperCase() + camel.slice(1);
const registry = join('src', 'panel', 'features.ts');
const source = readFileSync(registry, 'utf8');
if (new RegExp(`\\b${camel}\\b`).test(source)) {
  console.error(`new-feature: the registry has a ${camel} already.`);
  process.exit(2);
}

const files: Record<string, string> = {
  [join(folder, 'index.ts')]:
    `/** ${Pascal}, a lazy chunk: feature.ts fetches it when a finished reply shows while the attribute \`${name}\` is set. */
export { ${Pascal} } from './${name}.js';
export { styles } from './${name}.styles.js';
`,
  [join(folder, `${name}.ts`)]: `import { html } from 'lit-html';
import type { PanelContext } from '../panel/context.js';
import type { ChatMessage } from '../state/messages.js';

/** The ${name} button under a finished reply. */
export class ${Pascal} {
  constructor(private readonly __ctx: PanelContext) {
    // One listener serves every message's controls (\`data-act\`): none of its own per reply.
    __ctx.onMessageAction('${name}', (m) => this.__act(m));
  }

  render() {
    return html\`<button part="${name}-button" class="icon-button small" type="button" aria-label="${name}" data-act="${name}">${name}</button>\`;
  }

  private __act(m: ChatMessage): void {
    this.__ctx.announce(\`${name}: \${m.key}\`);
  }
}
`,
  [join(folder, `${name}.styles.ts`)]: `import { css } from '@lit/reactive-element/css-tag.js';

export const styles = css\`
  [part='${name}-button'] {
    font: inherit;
  }
\`;
`,
  [join(folder, 'feature.ts')]: `import { nothing } from 'lit-html';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';
import { finished } from '../state/messages.js';

/** ${Pascal}: on while the element has the attribute \`${name}\`; fetched when a finished reply shows, and such a render waits for it a little. */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.${Pascal}(ctx),
).with({
  on: ({ host }) => host.hasAttribute('${name}'),
  needs: finished,
  wait: true,
  places: {
    replyControls: ({ control }, m) => (control && finished(m) ? control.render() : nothing),
  },
});
`,
  [join('test', 'unit', `${name}.test.ts`)]: `import { nothing } from 'lit-html';
import { describe, expect, it } from 'vitest';
import type { PanelContext } from '../../src/panel/context.js';
import { FeatureUse } from '../../src/panel/spec.js';
import { feature } from '../../src/${name}/feature.js';
import type { ChatMessage } from '../../src/state/messages.js';

/** What the feature reads of the panel, in Node: the element's attribute, and where the button's click lands. */
function context(attribute: boolean) {
  const actions = new Map<string, (m: ChatMessage) => void>();
  const announced: string[] = [];
  const ctx = {
    host: { hasAttribute: (name: string) => attribute && name === '${name}', renderRoot: {}, requestUpdate() {} },
    feature: (load: FeatureUse['spec']['load']) => ({ module: load.module, want: () => load().then((m) => m) }),
    onMessageAction: (name: string, act: (m: ChatMessage) => void) => void actions.set(name, act),
    announce: (text: string) => void announced.push(text),
  };
  return { ctx: ctx as unknown as PanelContext, actions, announced };
}

const reply = { key: 'r1', role: 'agent', state: 'done', text: 'Hello' } as ChatMessage;

describe('${name}', () => {
  it('is on only while the element has its attribute', () => {
    expect(feature.on!(context(true).ctx)).toBe(true);
    expect(feature.on!(context(false).ctx)).toBe(false);
  });

  it('renders its button under a finished reply, and its click is announced', async () => {
    const { ctx, actions, announced } = context(true);
    const control = feature.create(await feature.load(), ctx);
    expect(feature.places!.replyControls!({ control } as never, reply)).toEqual(control.render());
    expect(feature.places!.replyControls!({ control } as never, { ...reply, state: 'streaming' })).toBe(nothing);
    actions.get('${name}')!(reply);
    expect(announced).toEqual(['${name}: r1']);
  });
});
`,
};

mkdirSync(folder);
for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
const lastImport = [...source.matchAll(/^import \{ feature as \w+ \} from '\.\.\/[\w-]+\/feature\.js';$/gm)].at(-1)!;
const at = lastImport.index + lastImport[0].length;
const withImport = `${source.slice(0, at)}\nimport { feature as ${camel} } from '../${name}/feature.js';${source.slice(at)}`;
writeFileSync(registry, withImport.replace(/(export const FEATURES = \{[^}]*?),?(\s*)\};/, `$1, ${camel},$2};`));
// The project's formatting, as the lint checks it.
execFileSync(join('node_modules', '.bin', 'prettier'), [
  '--write',
  '--log-level',
  'warn',
  folder,
  registry,
  join('test', 'unit', `${name}.test.ts`),
]);
console.log(
  `new-feature: wrote ${folder}/ (index.ts, ${name}.ts, ${name}.styles.ts, feature.ts) and test/unit/${name}.test.ts; added ${camel} to ${registry}.`,
);
