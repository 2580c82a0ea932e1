import { GRAMMARS } from './chunks.js';

/** Names agents write on fences, to the grammar that reads them. */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  h: 'c',
  'c++': 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  golang: 'go',
  gql: 'graphql',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  kt: 'kotlin',
  md: 'markdown',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  ts: 'typescript',
  tsx: 'typescript',
  html: 'xml',
  svg: 'xml',
  vue: 'xml',
  yml: 'yaml',
  patch: 'diff',
};

/** The grammar for a fence's language name, or null when there is none. */
export function grammarOf(name: string): string | null {
  const lower = name.toLowerCase();
  const grammar = ALIASES[lower] ?? lower;
  return Object.hasOwn(GRAMMARS, grammar) ? grammar : null;
}
