import { describe, expect, it } from 'vitest';
import { keptChunks, loader, readOf } from '../../scripts/vite-chunk-retry.js';

// A browser keeps a failed import per URL for the page's life: a chunk that other chunks
// import would fail them for good once its first fetch failed, whatever their loaders'
// retries do. So the build keeps such a chunk's module where its loader put it, and a
// loader fetches what its chunk reads first (scripts/vite-chunk-retry.ts). The browser
// tests of a failed chunk run on the built script (test/security/chunk-retry.test.ts).

const graph = {
  'agent-chat.js': { isEntry: true, imports: ['agent-chat-core-a.js'] },
  'agent-chat-core-a.js': { isEntry: false, imports: [] },
  'agent-chat-panel-a.js': { isEntry: false, imports: ['agent-chat-core-a.js'] },
  'agent-chat-small-buttons-a.js': { isEntry: false, imports: ['agent-chat-core-a.js', 'agent-chat-panel-a.js'] },
  'agent-chat-index-a.js': { isEntry: false, imports: ['agent-chat-panel-a.js'] },
  'agent-chat-branches-a.js': {
    isEntry: false,
    imports: ['agent-chat-core-a.js', 'agent-chat-panel-a.js', 'agent-chat-small-buttons-a.js', 'agent-chat-index-a.js'],
  },
  'agent-chat-stream-a.js': { isEntry: false, imports: ['agent-chat-panel-a.js'] },
  'agent-chat-websocket-a.js': { isEntry: false, imports: ['agent-chat-panel-a.js', 'agent-chat-stream-a.js'] },
  'agent-chat-copy-a.js': { isEntry: false, imports: ['agent-chat-panel-a.js'] },
};

describe('chunks that other chunks import', () => {
  it('keeps every chunk another imports, but what the script imports', () => {
    const { kept } = keptChunks(graph);
    expect([...kept].sort()).toEqual([
      'agent-chat-index-a.js',
      'agent-chat-panel-a.js',
      'agent-chat-small-buttons-a.js',
      'agent-chat-stream-a.js',
    ]);
  });

  it('fetches what a chunk reads before it, deepest first, never the panel (always there first)', () => {
    const { before } = keptChunks({
      ...graph,
      'agent-chat-index-a.js': { isEntry: false, imports: ['agent-chat-panel-a.js', 'agent-chat-small-buttons-a.js'] },
    });
    expect(before('agent-chat-branches-a.js')).toEqual(['agent-chat-small-buttons-a.js', 'agent-chat-index-a.js']);
    expect(before('agent-chat-websocket-a.js')).toEqual(['agent-chat-stream-a.js']);
    expect(before('agent-chat-copy-a.js')).toEqual([]);
  });

  it('writes a loader that takes the retry suffix for its chunk and for what it fetches first, and keeps a kept module', async () => {
    expect(loader('agent-chat-copy-a.js', [], false)).toBe('r=>import(`./agent-chat-copy-a.js`+r)');
    expect(loader('agent-chat-panel-a.js', [], true)).toBe(
      'r=>import(`./agent-chat-panel-a.js`+r).then(m=>globalThis[Symbol.for("agent-chat:agent-chat-panel-a.js")]=m)',
    );
    // Run with a stand-in `import`: a kept module is not fetched again; the rest are, in order, with the suffix.
    const fetched: string[] = [];
    const key = (f: string) => Symbol.for(`agent-chat:${f}`);
    const g = globalThis as unknown as Record<symbol, unknown>;
    g[key('agent-chat-index-a.js')] = { kept: true };
    try {
      const code = loader('agent-chat-branches-a.js', ['agent-chat-small-buttons-a.js', 'agent-chat-index-a.js'], false).replace(
        /\bimport\(/g,
        'load(',
      );
      const load = async (url: string) => (fetched.push(url), { url });
      const run = new Function('load', `return ${code}`)(load) as (r: string) => Promise<{ url: string }>;
      expect((await run('?retry=2')).url).toBe('./agent-chat-branches-a.js?retry=2');
      expect(fetched).toEqual(['./agent-chat-small-buttons-a.js?retry=2', './agent-chat-branches-a.js?retry=2']);
      expect(g[key('agent-chat-small-buttons-a.js')]).toEqual({ url: './agent-chat-small-buttons-a.js?retry=2' });
    } finally {
      delete g[key('agent-chat-index-a.js')];
      delete g[key('agent-chat-small-buttons-a.js')];
    }
  });

  it('reads an import of a kept chunk from where its loader kept it', () => {
    expect(readOf(' t as o, n ', 'agent-chat-small-buttons-a.js')).toBe(
      'const{t:o,n}=globalThis[Symbol.for("agent-chat:agent-chat-small-buttons-a.js")];',
    );
  });
});
