import { describe, expect, it } from 'vitest';
import { leadWith, type LaidOutModule } from '../../scripts/vite-chunk-order.js';

// The build moves modules to the start of a chunk (scripts/vite-chunk-order.ts; the panel's
// stylesheets, and here a library with a module that extends it): a module moves only with
// everything of the chunk it imports moved before it, and the others keep their order.

const mod = (id: string, code: string, imports: string[] = []): LaidOutModule => ({ id, code, imports });

const runtime = mod('\0rolldown/runtime.js', 'var __defProp = Object.defineProperty;\n');
const url = mod('/src/security/url.ts', 'function safeUrl(u) { return u; }\n');
const styles = mod('/src/log/log.styles.ts', 'var logStyles = unsafeCSS(".log{flex:1}");\n');
const marked = mod('/node_modules/marked/lib/marked.esm.js', 'class Lexer {}\nclass Tokenizer {}\n');
const lex = mod('/src/markdown/lex.ts', 'class SafeLexer extends Lexer {}\n', [marked.id, '/src/warn.ts']);
const log = mod('/src/log/log.ts', 'class Log { render() { return logStyles; } }\n', [styles.id, lex.id, url.id]);
const modules = [runtime, url, marked, lex, log, styles];
const chunk = `import { unsafeCSS } from "./core.js";\n${modules.map((m) => `// ${m.id}\n${m.code}`).join('')}export { Log };\n`;
const FIRST = [/\.styles\.ts$/, /marked/, /lex\.ts$/];

describe('the order of a chunk’s modules in the build', () => {
  it('puts the listed modules first, in the order listed, after the runtime; the others keep theirs', () => {
    const out = leadWith(chunk, modules, FIRST)!.code;
    const order = [runtime, styles, marked, lex, url, log].map((m) => out.indexOf(m.code));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(out.startsWith('import { unsafeCSS } from "./core.js";\n')).toBe(true);
    expect(out.endsWith('export { Log };\n')).toBe(true);
    expect(out.length).toBe(chunk.length);
  });

  it('leaves a chunk already in that order as it is', () => {
    const laidOut = [runtime, styles, marked, lex, url, log];
    const ordered = laidOut.map((m) => m.code).join('');
    expect(leadWith(ordered, laidOut, FIRST)).toBeNull();
  });

  it('fails the build rather than move a module before what it imports', () => {
    expect(() => leadWith(chunk, modules, [/lex\.ts$/, /marked/])).toThrow(/lex\.ts imports .*marked.*, which would come after it/);
    expect(() => leadWith(chunk, modules, [/log\.ts$/])).toThrow(/which would come after it/);
  });

  it('fails the build when a listed module is missing or its code is not found once', () => {
    expect(() => leadWith(chunk, modules, [/highlight/])).toThrow(/no module matches/);
    expect(() => leadWith(chunk.replace(marked.code, ''), modules, FIRST)).toThrow(/marked.* is not in the chunk exactly once/);
    expect(() => leadWith(chunk + marked.code, modules, FIRST)).toThrow(/not in the chunk exactly once/);
  });
});
