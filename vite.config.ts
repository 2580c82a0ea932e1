import { defineConfig, type Plugin } from 'vite';
import { createApp } from './demo/server/app.js';
import { toNodeMiddleware } from './demo/server/node.js';

/** `npm start`: the demo page and the reference messaging server on one port. */
function referenceServer(): Plugin {
  return {
    name: 'agent-chat-reference-server',
    configureServer(server) {
      server.middlewares.use(toNodeMiddleware(createApp()));
    },
    configurePreviewServer(server) {
      server.middlewares.use(toNodeMiddleware(createApp()));
    },
  };
}

export default defineConfig({
  root: '.',
  plugins: [referenceServer()],
  server: { port: 5173, open: false },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    lib: {
      entry: 'src/agent-chat.ts',
      formats: ['es'],
      fileName: () => 'agent-chat.js',
    },
    rolldownOptions: {
      output: { minify: true, comments: false },
    },
  },
});
