import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from '../../../scripts/vite-compile-hints.js';

// V8 compiles the functions of a file that starts with its explicit compile hint as the file
// streams in, off the main thread (scripts/vite-compile-hints.ts): the chunks that run as a
// chat loads start with it, and their source maps keep pointing at the same code.

describe('compile hints', () => {
  it('puts the hint first in the chunks named, with a line of no mappings in front of their maps', () => {
    const bundle = {
      'agent-chat-panel-abc.js': {
        type: 'chunk' as const,
        name: 'panel',
        fileName: 'agent-chat-panel-abc.js',
        code: 'import"x";',
        map: null,
      },
      'agent-chat-panel-abc.js.map': { type: 'asset' as const, source: JSON.stringify({ version: 3, mappings: 'AAAA,CAAC' }) },
      'agent-chat-core-abc.js': {
        type: 'chunk' as const,
        name: 'core',
        fileName: 'agent-chat-core-abc.js',
        code: 'var e=1;',
        map: { mappings: 'AAAA' },
      },
      'agent-chat-copy-abc.js': { type: 'chunk' as const, name: 'copy', fileName: 'agent-chat-copy-abc.js', code: 'const a=1;', map: null },
    };
    expect(addCompileHints(bundle, ['panel', 'core', 'lex'])).toEqual(['panel', 'core']);
    expect(bundle['agent-chat-panel-abc.js'].code).toBe(`${COMPILE_HINT}import"x";`);
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad\n');
    expect(JSON.parse(bundle['agent-chat-panel-abc.js.map'].source).mappings).toBe(';AAAA,CAAC');
    expect(bundle['agent-chat-core-abc.js'].map.mappings).toBe(';AAAA');
    expect(bundle['agent-chat-copy-abc.js'].code).toBe('const a=1;');
  });
});
