import { describe, expect, it } from 'vitest';
import { minifyLiterals } from '../../../scripts/vite-minify-literals.js';

// The build writes a module's css`...` templates as unsafeCSS(`...`) when they only hold
// text (scripts/vite-minify-literals.ts): the same CSSResult, without the css tag's check
// of interpolated values in the shell.

type Hook = (this: unknown, code: string, id: string) => Promise<{ code: string } | null> | { code: string } | null;

async function build(code: string): Promise<string> {
  const plugin = minifyLiterals();
  await (plugin.buildStart as unknown as (this: unknown) => Promise<void>).call({});
  const out = await (plugin.transform as unknown as Hook).call({}, code, '/repo/src/x.styles.ts');
  return out?.code ?? code;
}

const IMPORT = "import { css, unsafeCSS } from '@lit/reactive-element/css-tag.js';\n";

describe('css templates in the build', () => {
  it('become unsafeCSS calls when they only hold text, and stay templates otherwise', async () => {
    const text = `${IMPORT}export const a = css\`:host { color: red; }\`;\nexport const b = css\`@media \${unsafeCSS(QUERY)} { p { margin: 0 } }\`;\n`;
    const out = await build(text);
    expect(out).toContain('import { unsafeCSS as css, unsafeCSS }');
    expect(out).toContain('export const a = css(`:host{color:red}`);');
    expect(out).toContain('export const b = css(`@media ${QUERY} { p { margin: 0 } }`);');

    // A template that holds a value the tag would check, or css used as a value: left alone.
    const other = `${IMPORT}export const a = css\`p { color: red }\`;\nexport const b = css\`p { \${a} }\`;\n`;
    expect(await build(other)).toMatch(/import \{ css, unsafeCSS \}[\s\S]*= css`p\{color:red\}`/);
    const passed = `${IMPORT}export const a = css\`p { color: red }\`;\nexport const tag = css;\n`;
    expect(await build(passed)).toContain('import { css, unsafeCSS }');
  });
});
