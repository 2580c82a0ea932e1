import { defineConfig } from 'vite';
import { referenceServer } from './demo/dev-server.js';
import { highlightCoreEsm } from './scripts/vite-highlight-esm.js';
import { minifyLiterals } from './scripts/vite-minify-literals.js';
import { chunkRetry } from './scripts/vite-chunk-retry.js';
import { inlinePropertyDecorators } from './scripts/vite-decorators.js';
import { compileHints, HINTED_CHUNKS } from './scripts/vite-compile-hints.js';

/**
 * Modules the panel shares with the lazy features it loads (lit-html, the wire checks and bodies):
 * kept in the panel's chunk rather than split into small chunks of their own, which cost a
 * round trip each and compress worse apart. Every feature chunk loads after the panel anyway.
 */
const PANEL_SHARED = /[\\/](node_modules[\\/]lit-html[\\/]|src[\\/]client[\\/](errors|guards|types|bodies)\.ts$|src[\\/]panel[\\/])/;

export default defineConfig(({ command }) => ({
  root: '.',
  // A build says only what went wrong: its sizes against their budgets are the last step of
  // `npm run build` (scripts/size.ts --brief), the chunk by chunk table `npm run size`.
  logLevel: command === 'build' ? 'warn' : 'info',
  plugins: [
    referenceServer(),
    minifyLiterals(),
    highlightCoreEsm(),
    inlinePropertyDecorators(),
    chunkRetry(),
    // What runs as a chat loads, compiled as it streams in, off the main thread.
    compileHints(HINTED_CHUNKS),
  ],
  server: { port: 5173, open: false },
  build: {
    target: 'es2022',
    outDir: 'dist',
    // Emptied on every build: chunk names carry content hashes, and stale chunks would
    // otherwise pile up in the package (dist/lib is rebuilt by tsc right after).
    emptyOutDir: true,
    sourcemap: true,
    // The built-in minifier runs first (rolldownOptions.output.minify), terser after it:
    // together 0.7 KB gzip smaller than either alone, and every visitor of a host page pays
    // for the script tag (BENCHMARKS.md).
    minify: 'terser',
    terserOptions: {
      ecma: 2022,
      module: true,
      toplevel: true,
      compress: { passes: 3, ecma: 2022 },
      format: { comments: false },
      // src/'s private members are named `__name` (eslint.config.js holds every one to it, and
      // nothing else to it), as Lit's are: a private member is read only inside its class, so
      // inside one module and one chunk, and terser may shorten those names chunk by chunk.
      // No library of the build names a property so (scripts/check-pack.ts reads dist/).
      mangle: { properties: { regex: /^__[a-z]/, reserved: ['__proto__'] } },
    },
    lib: {
      entry: 'src/agent-chat.ts',
      formats: ['es'],
      fileName: () => 'agent-chat.js',
    },
    rolldownOptions: {
      // Not its timings of the plugins either: a reader takes them for a warning.
      checks: { bundlerTimings: false },
      output: {
        minify: true,
        comments: false,
        // Chunks sit beside agent-chat.js and are imported relative to it; the prefix says
        // whose files they are on a shared CDN path. Six characters of hash (36 bits: two
        // versions of a chunk get one name once in 69 billion) rather than eight: each name
        // is written where its chunk is loaded, 0.07 KB gzip of the inline load.
        chunkFileNames: 'agent-chat-[name]-[hash:6].js',
        // agent-chat.js is one line that imports the hashed core chunk (everything the page
        // needs at load) and defines the element. Lazy chunks (languages, the allow-html
        // sanitiser, the WebSocket session, the hand-off form) import what they share from
        // the core, never from agent-chat.js: a host may serve the script under another name
        // or with `?v=2` without a second copy loading, and the core can be cached forever.
        codeSplitting: {
          groups: [
            { name: 'core', tags: ['$initial'], test: (id: string) => !/[\\/]src[\\/]agent-chat\.ts$/.test(id) },
            { name: 'panel', test: (id: string) => PANEL_SHARED.test(id) },
            // The small icon buttons' stylesheet, shared by the chunks that draw them: named
            // as a chunk, not as the module's file.
            { name: 'small-buttons', test: (id: string) => /[\\/]src[\\/]icons[\\/]small-buttons\.styles\.ts$/.test(id) },
          ],
        },
      },
    },
  },
}));
