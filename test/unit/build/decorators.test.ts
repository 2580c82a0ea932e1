import { readFileSync } from 'node:fs';
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { inlineDecorators } from '../../../scripts/vite-decorators.js';
import { property, state } from '../../../src/shell/host.js';

// The build calls the reactive base's property decorators itself instead of through the
// `decorate` helper (scripts/vite-decorators.ts). That holds while they return nothing
// (the helper would define what they returned) and while the element's decorators compile
// to the one shape the rewrite knows.

const HEAD = 'import _decorate from "@oxc-project/runtime/helpers/decorate";\nimport { property, state } from "./shell/host.js";\n';

describe('the property decorators in the build', () => {
  it('are the decorator calls themselves', () => {
    const out = inlineDecorators(
      `${HEAD}_decorate([property({ attribute: "base-url", reflect: true })], AgentChat.prototype, "baseUrl", void 0);\n` +
        '_decorate([state()], AgentChat.prototype, "unread", void 0);\n',
    );
    expect(out?.code).toBe(
      `${HEAD}property({ attribute: "base-url", reflect: true })(AgentChat.prototype, "baseUrl");\nstate()(AgentChat.prototype, "unread");\n`,
    );
  });

  it('leave every other use of the helper as it is', () => {
    const others = [
      // Two decorators, one from elsewhere, a method's descriptor, a computed key.
      '_decorate([property(), state()], A.prototype, "a", void 0);',
      '_decorate([other()], A.prototype, "b", void 0);',
      '_decorate([property()], A.prototype, "c", Object.getOwnPropertyDescriptor(A.prototype, "c"));',
      '_decorate([property()], A.prototype, key, void 0);',
    ];
    expect(inlineDecorators(`${HEAD}import { other } from "./other.js";\n${others.join('\n')}\n`)).toBeNull();
  });

  it('rewrite all of the element', async () => {
    const file = new URL('../../../src/agent-chat-element.ts', import.meta.url);
    const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file.pathname, { decorator: { legacy: true } });
    const calls = code.match(/\b_decorate\(/g)?.length ?? 0;
    expect(calls).toBeGreaterThan(20);
    expect(inlineDecorators(code)?.code).not.toMatch(/\b_decorate\(/);
  });

  it('rely on decorators that return nothing', () => {
    class Probe {}
    expect(property({ attribute: 'x-y' })(Probe.prototype, 'xy')).toBeUndefined();
    expect(state()(Probe.prototype, 'z')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(Probe.prototype, 'xy')?.set).toBeTypeOf('function');
  });
});
