import { afterEach, describe, expect, it } from 'vitest';
import { KEPT, KEPT_FUNCTION, keptChunks, loader, readOf } from '../../../scripts/vite-chunk-retry.js';

// A browser keeps a failed import per URL for the page's life: a chunk that other chunks
// import would fail them for good once its first fetch failed, whatever their loaders'
// retries do. So the build keeps such a chunk's module where it was fetched to, once for
// all its readers, and a loader fetches what its chunk reads first
// (scripts/vite-chunk-retry.ts). The browser tests of a failed chunk run on the built
// script (test/security/chunk-retry.test.ts).

const c = (name: string, imports: string[] = [], isEntry = false) => ({
  name,
  isEntry,
  imports: imports.map((n) => `agent-chat-${n}-a.js`),
});
const graph = {
  'agent-chat.js': { name: 'agent-chat', isEntry: true, imports: ['agent-chat-core-a.js'] },
  'agent-chat-core-a.js': c('core', ['styles']),
  'agent-chat-styles-a.js': c('styles'),
  'agent-chat-panel-a.js': c('panel', ['core']),
  'agent-chat-small-buttons-a.js': c('small-buttons', ['core', 'panel']),
  'agent-chat-branch-index-a.js': c('branch-index', ['panel']),
  'agent-chat-branches-a.js': c('branches', ['core', 'panel', 'small-buttons', 'branch-index']),
  'agent-chat-stream-a.js': c('stream', ['panel']),
  'agent-chat-websocket-a.js': c('websocket', ['panel', 'stream']),
  'agent-chat-copy-a.js': c('copy', ['panel']),
  'agent-chat-de-a.js': c('de', ['core']),
};

describe('chunks that other chunks import', () => {
  it('keeps every chunk another imports, but what the script loads with itself', () => {
    const { kept, before } = keptChunks(graph);
    expect([...kept].sort()).toEqual([
      'agent-chat-branch-index-a.js',
      'agent-chat-panel-a.js',
      'agent-chat-small-buttons-a.js',
      'agent-chat-stream-a.js',
    ]);
    // What a loader fetches first: never the panel (always there before the chunks it lists).
    expect(before('agent-chat-branches-a.js')).toEqual(['agent-chat-small-buttons-a.js', 'agent-chat-branch-index-a.js']);
    expect(before('agent-chat-websocket-a.js')).toEqual(['agent-chat-stream-a.js']);
    expect(before('agent-chat-copy-a.js')).toEqual([]);
  });

  it('refuses the shapes its loaders cannot serve', () => {
    // A kept chunk that reads another: fetched together, it could run first.
    expect(() => keptChunks({ ...graph, 'agent-chat-branch-index-a.js': c('branch-index', ['panel', 'small-buttons']) })).toThrow(
      /reads .*small-buttons/,
    );
    // A chunk the core loads that reads the panel: the panel may not be there.
    const { servable } = keptChunks(graph);
    expect(servable('agent-chat-core-a.js', 'agent-chat-panel-a.js')).toBe(true);
    expect(servable('agent-chat-core-a.js', 'agent-chat-de-a.js')).toBe(true);
    expect(servable('agent-chat-core-a.js', 'agent-chat-copy-a.js')).toBe(false);
    expect(servable('agent-chat-panel-a.js', 'agent-chat-copy-a.js')).toBe(true);
  });

  it('writes loaders: the suffix for their chunk, kept chunks fetched first, the panel kept', () => {
    expect(loader('agent-chat-copy-a.js', [], false, false)).toBe('r=>import(`./agent-chat-copy-a.js`+r)');
    expect(loader('agent-chat-panel-a.js', [], true, true)).toBe(
      'r=>import(`./agent-chat-panel-a.js`+r).then(m=>globalThis[Symbol.for("agent-chat:agent-chat-panel-a.js")]=m)',
    );
    expect(loader('agent-chat-stream-a.js', [], true, false)).toBe(`r=>${KEPT}("agent-chat-stream-a.js")`);
    expect(loader('agent-chat-branches-a.js', ['agent-chat-small-buttons-a.js'], false, false)).toBe(
      `r=>Promise.all(["agent-chat-small-buttons-a.js"].map(${KEPT})).then(()=>import(\`./agent-chat-branches-a.js\`+r))`,
    );
  });

  describe('a kept chunk, fetched once for all its readers', () => {
    const key = Symbol.for('agent-chat:agent-chat-small-buttons-a.js');
    const state = Symbol.for('agent-chat:agent-chat-small-buttons-a.js#');
    const g = globalThis as unknown as Record<symbol, unknown>;
    afterEach(() => void (delete g[key], delete g[state]));

    /** `KEPT_FUNCTION` with `import` answered by `answer`, and the URLs asked for. */
    function kept(answer: (url: string) => Promise<unknown>) {
      const asked: string[] = [];
      const run = new Function('load', `${KEPT_FUNCTION.replace(/\bimport\(/g, 'load(')}; return ${KEPT};`)(
        (url: string) => (asked.push(url), answer(url)),
      ) as (f: string) => Promise<unknown>;
      return { run: () => run('agent-chat-small-buttons-a.js'), asked };
    }

    it('shares one fetch, keeps the module, and asks no more once it is kept', async () => {
      const { run, asked } = kept(async (url) => ({ url }));
      const [a, b] = await Promise.all([run(), run()]);
      expect(a).toBe(b);
      expect(await run()).toBe(a);
      expect(g[key]).toBe(a);
      expect(asked).toEqual(['./agent-chat-small-buttons-a.js']);
    });

    it('asks again after a failure under its own count of failures, whoever asks', async () => {
      let fail = 2;
      const { run, asked } = kept(async (url) => {
        if (fail-- > 0) throw new Error('404');
        return { url };
      });
      await expect(run()).rejects.toThrow('404');
      await expect(run()).rejects.toThrow('404');
      expect(await run()).toEqual({ url: './agent-chat-small-buttons-a.js?retry=2' });
      expect(asked).toEqual([
        './agent-chat-small-buttons-a.js',
        './agent-chat-small-buttons-a.js?retry=1',
        './agent-chat-small-buttons-a.js?retry=2',
      ]);
    });
  });

  it('reads an import of a kept chunk from where it was kept', () => {
    expect(readOf(' t as o, n ', 'agent-chat-small-buttons-a.js')).toBe(
      'const{t:o,n}=globalThis[Symbol.for("agent-chat:agent-chat-small-buttons-a.js")];',
    );
  });
});
