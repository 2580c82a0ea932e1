import { describe, expect, it } from 'vitest';
import { customPropertyNames, renameCustomProperties } from '../../scripts/vite-custom-properties.js';

// The build gives the widget's private custom properties short names, the same in every
// chunk (scripts/vite-custom-properties.ts): only those a stylesheet declares.

const theme = `css\`:host { --_accent: var(--agent-chat-accent, blue); --_accent-text: white; --_space: 12px; }\``;
const panel = `css\`.send { background: var(--_accent); color: var(--_accent-text); padding: var(--_space); margin: var(--_space); }
  .full { top: var(--_vv-top, 0); }\`;
  el.style.setProperty('--_vv-top', '1px');`;

describe('the private custom properties in the build', () => {
  const names = customPropertyNames([theme, panel]);

  it('renames each declared name, the most used first, and keeps the ones only code sets', () => {
    expect([...names]).toEqual([
      ['space', 'a'],
      ['accent', 'b'],
      ['accent-text', 'c'],
    ]);
    expect(names.has('vv-top')).toBe(false);
  });

  it('renames every use alike, whole names only', () => {
    expect(renameCustomProperties(panel, names)!.toString())
      .toBe(`css\`.send { background: var(--_b); color: var(--_c); padding: var(--_a); margin: var(--_a); }
  .full { top: var(--_vv-top, 0); }\`;
  el.style.setProperty('--_vv-top', '1px');`);
    expect(renameCustomProperties(theme, names)!.toString()).toBe(
      `css\`:host { --_b: var(--agent-chat-accent, blue); --_c: white; --_a: 12px; }\``,
    );
    expect(renameCustomProperties('const x = "--agent-chat-accent";', names)).toBeNull();
  });

  it('never gives a declared name the name of a kept one', () => {
    const kept = customPropertyNames([':host { --_long: 1px; } .x { top: var(--_a, 0); }']);
    expect(kept.get('long')).toBe('b');
  });

  it('has more short names than letters', () => {
    const many = Array.from({ length: 60 }, (_, i) => `--_name${i}: 0;`).join(' ');
    const short = [...customPropertyNames([many]).values()];
    expect(new Set(short).size).toBe(60);
    expect(short.slice(50, 54)).toEqual(['Y', 'Z', 'aa', 'ab']);
  });
});
