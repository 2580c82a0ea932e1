import { describe, expect, it } from 'vitest';
import { staticallyLoaded } from '../../scripts/vite-chunk-retry.js';

// A browser keeps a failed import per URL for the page's life: a chunk that imports another
// chunk a loader fetches would fail for good once that one's first fetch failed, whatever its
// loader's retries do. The build fails on such an import (scripts/vite-chunk-retry.ts).

const chunk = (name: string, imports: string[] = [], dynamicImports: string[] = []) => ({
  name,
  fileName: `agent-chat-${name}-abc123.js`,
  imports: imports.map((n) => `agent-chat-${n}-abc123.js`),
  dynamicImports: dynamicImports.map((n) => `agent-chat-${n}-abc123.js`),
});

describe('chunks a loader fetches are not imported by other chunks', () => {
  it('finds a chunk that imports one a loader fetches', () => {
    const chunks = [chunk('panel', ['core'], ['lex', 'plain']), chunk('core'), chunk('lex', ['panel']), chunk('plain', ['panel', 'lex'])];
    expect(staticallyLoaded(chunks)).toEqual(['plain → lex']);
  });

  it('allows the panel (its imports read the registry), shared chunks no loader fetches, and the known exception', () => {
    const chunks = [
      chunk('panel', ['core'], ['copy', 'feedback', 'stream', 'websocket']),
      chunk('core'),
      chunk('small-buttons', ['panel']),
      chunk('copy', ['panel', 'small-buttons']),
      chunk('feedback', ['panel', 'small-buttons']),
      chunk('stream', ['panel']),
      chunk('websocket', ['panel', 'stream']),
    ];
    expect(staticallyLoaded(chunks)).toEqual([]);
  });
});
