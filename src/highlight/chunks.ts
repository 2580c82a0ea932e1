/**
 * The grammars of highlighted code: each its own small chunk, fetched the first time a
 * reply has a block in it (a reply with Python never downloads the TypeScript grammar).
 * Listed here, in the highlighter's chunk that fetches them, rather than in src/chunks.ts:
 * a list ships in the chunk that holds it, and the panel's budget would carry 23 names
 * (src/chunks.ts says why there are three lists). What is not here (or not named on the
 * fence) stays plain text, with its label.
 */
import type { LanguageFn } from 'highlight.js';
import { chunk, type Chunk } from '../lazy.js';

export const GRAMMARS: Record<string, Chunk<{ default: LanguageFn }>> = {
  bash: chunk(() => import('highlight.js/lib/languages/bash')),
  c: chunk(() => import('highlight.js/lib/languages/c')),
  cpp: chunk(() => import('highlight.js/lib/languages/cpp')),
  csharp: chunk(() => import('highlight.js/lib/languages/csharp')),
  css: chunk(() => import('highlight.js/lib/languages/css')),
  diff: chunk(() => import('highlight.js/lib/languages/diff')),
  go: chunk(() => import('highlight.js/lib/languages/go')),
  graphql: chunk(() => import('highlight.js/lib/languages/graphql')),
  java: chunk(() => import('highlight.js/lib/languages/java')),
  javascript: chunk(() => import('highlight.js/lib/languages/javascript')),
  json: chunk(() => import('highlight.js/lib/languages/json')),
  kotlin: chunk(() => import('highlight.js/lib/languages/kotlin')),
  markdown: chunk(() => import('highlight.js/lib/languages/markdown')),
  php: chunk(() => import('highlight.js/lib/languages/php')),
  python: chunk(() => import('highlight.js/lib/languages/python')),
  ruby: chunk(() => import('highlight.js/lib/languages/ruby')),
  rust: chunk(() => import('highlight.js/lib/languages/rust')),
  scss: chunk(() => import('highlight.js/lib/languages/scss')),
  sql: chunk(() => import('highlight.js/lib/languages/sql')),
  swift: chunk(() => import('highlight.js/lib/languages/swift')),
  typescript: chunk(() => import('highlight.js/lib/languages/typescript')),
  xml: chunk(() => import('highlight.js/lib/languages/xml')),
  yaml: chunk(() => import('highlight.js/lib/languages/yaml')),
};
