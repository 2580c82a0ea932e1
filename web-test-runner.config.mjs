import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { defaultReporter } from '@web/test-runner';
import { tsImport } from 'tsx/esm/api';
import { countReporter } from './test/support/count-reporter.mjs';
import { reactEsmPlugin } from './test/react/esm-plugin.mjs';

// The reference server is TypeScript; tsx loads it here so the tests talk to the very code
// `npm start` serves, over real HTTP on the test runner's own origin.
const { createReferenceServer, DEV_ORGANIZATION_API_KEY } = await tsImport('./server/src/app.ts', import.meta.url);
const { openDb } = await tsImport('./server/src/store/db.ts', import.meta.url);
// One embedded PostgreSQL in memory for the run, shared by the two servers below (each test
// mints keys of its own; a running turn is leased to the server that runs it).
const db = await openDb('memory://');
const { toNodeMiddleware, isReferencePath } = await tsImport('./server/src/http/node.ts', import.meta.url);
// What the tests' host page does on its own server: uploads and the strict-CSP page (demo/host/).
const { hostMiddleware, isHostPath } = await tsImport('./demo/host/index.ts', import.meta.url);
const hostRoutes = hostMiddleware();
// The fault knobs on: every test mints keys of its own with faults attached (server/src/faults/plan.ts).
// The dev organization key: the runner listens on this machine and only its own pages call it.
// Every test page calls from this machine's address, and some send hundreds of unknown keys
// on purpose (the fuzz tests): failed credentials may cost nothing here (server/test/failures.test.ts tests what they cost).
const failures = { address: { perSecond: 1e6, burst: 1e6 }, all: { perSecond: 1e6, burst: 1e6 } };
const reference = await createReferenceServer({
  faults: true,
  organizationApiKey: DEV_ORGANIZATION_API_KEY,
  db,
  limits: { failures },
});
const serverMiddleware = toNodeMiddleware(reference.app);
/** The WebSocket session (`/messaging/v1/session`) on the runner's own server; other upgrades are left alone. */
const referenceSessions = {
  name: 'reference-server-sessions',
  serverStart: ({ server }) => {
    reference.attachSessions(server);
    // Idle connections stay open longer than browsers keep them (Firefox: 115 s), so the
    // browser, not the server, ends them: a server closing a kept-alive connection just as a
    // POST goes out on it made Firefox send that POST again (a turn counted twice under load).
    server.keepAliveTimeout = 130_000;
    server.headersTimeout = 131_000;
  },
};

/**
 * The reference server answering with a model (server/src/agents/model-agent.ts), for
 * test/server/model.test.ts: the test starts a fake OpenAI-compatible server on the
 * loopback address (`executeServerCommand('model-agent')`), and a second reference server
 * that talks to it is mounted under `/model/`, same-origin like the first.
 */
const { startFakeModel } = await tsImport('./test/support/fake-openai.ts', import.meta.url);
let model = null;
let modelStarting = null;
const modelAgent = {
  name: 'model-agent',
  async executeCommand({ command }) {
    if (command === 'model-agent') {
      // Both browsers ask at once; one fake and one server serve them (tests tell their requests apart).
      modelStarting ??= startFakeModel().then(async (fake) => {
        // A model silent for 1.5 s is given up (60 s in use), so the tests of a hung model are quick.
        const settings = { baseURL: fake.baseURL, apiKey: 'sk-test', model: 'fake-model', silenceMs: 1500 };
        const server = await createReferenceServer({
          paceMs: 0,
          model: settings,
          faults: true,
          organizationApiKey: DEV_ORGANIZATION_API_KEY,
          db,
          limits: { failures },
        });
        model = { fake, middleware: toNodeMiddleware(server.app), agent: server.agent };
      });
      await modelStarting;
      return { base: '/model', agent: model.agent };
    }
    if (command === 'model-agent-requests') return model?.fake.requests ?? [];
    return undefined;
  },
};

/**
 * A reference server that serves pages on https://shop.example only, for
 * test/server/cross-origin.test.ts: mounted under `/strict/` at its first request, and
 * called from the runner's other loopback name, so the test page is a page it refuses.
 */
let strict = null;
const strictServer = () =>
  (strict ??= createReferenceServer({ paceMs: 0, allowedOrigins: ['https://shop.example'], db, limits: { failures } }).then((server) =>
    toNodeMiddleware(server.app),
  ));

/**
 * A real nginx (Debian's package) in front of this runner's server, for
 * test/element/proxy.test.ts (issue #39): started by the first
 * `executeServerCommand('nginx')`, which answers each site's port, and stopped with the
 * runner. `defaults` is nginx as installed (it buffers responses unless told not to);
 * `idle` cuts a response after 1 s without a byte; `buffering` ignores the stream's
 * `X-Accel-Buffering: no`, as a proxy or CDN that buffers whatever it is told would.
 */
const { startNginx } = await tsImport('./server/test/nginx.ts', import.meta.url);
let nginx = null;
let upstream = null;
const proxies = {
  name: 'nginx',
  serverStart: ({ server }) => {
    const { address, port } = server.address();
    // Listening on every address (`::`, `0.0.0.0`): reached on the loopback one.
    const host = address === '::' || address === '0.0.0.0' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address;
    upstream = { host, port };
  },
  async executeCommand({ command }) {
    if (command !== 'nginx') return undefined;
    nginx ??= startNginx([upstream], {
      defaults: '',
      idle: 'proxy_read_timeout 1s;',
      buffering: 'proxy_ignore_headers X-Accel-Buffering;',
    });
    return (await nginx).ports;
  },
  serverStop: async () => (await nginx?.catch(() => null))?.stop(),
};

/** highlight.js's core is CommonJS; served as the ES module the build makes of it (scripts/vite-highlight-esm.ts). */
const { HIGHLIGHT_CORE, highlightCoreToEsm } = await tsImport('./scripts/vite-highlight-esm.ts', import.meta.url);
const highlightCore = {
  name: 'highlight-core-esm',
  transform(context) {
    if (HIGHLIGHT_CORE.test(context.path)) return { body: highlightCoreToEsm(context.body) };
    return undefined;
  },
};

const { CHROMIUM_PATH, CHROMIUM_ARGS } = await tsImport('./scripts/chromium.ts', import.meta.url);
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

// Only system browsers exist here. `BROWSERS=chromium npm test` narrows a run.
const only = process.env.BROWSERS?.split(',');
const browsers = [
  playwrightLauncher({
    product: 'chromium',
    // The copy buttons write to the clipboard and the tests read it back, as a reader who
    // allowed it would (Firefox asks on reading; its tests watch the write instead).
    createBrowserContext: ({ browser }) => browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] }),
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      headless: true,
      // gc() and an exact heap size: the memory tests (test/render/memory.test.ts) measure
      // what a streamed reply leaves behind (Firefox has neither; those tests skip there).
      args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
    },
  }),
  puppeteerLauncher({
    // The runner sizes every page with setViewport, which puppeteer sends over BiDi together
    // with a screen-orientation override. Firefox ESR 140 (Debian bookworm's today) has no
    // such command and refused every test file; the viewport itself is set by the command
    // sent beside it, so only that refusal is let through.
    createPage: async ({ context }) => {
      const page = await context.newPage();
      const setViewport = page.setViewport.bind(page);
      page.setViewport = (viewport) =>
        setViewport(viewport).catch((error) => {
          if (!/setScreenOrientationOverride/.test(String(error?.message))) throw error;
        });
      return page;
    },
    launchOptions: {
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      // Test files run in tabs side by side; Firefox throttles the timers and animation
      // frames of the tabs it considers hidden to about once a second, which turns every
      // timing in a test into a guess. Tests must see what a visible page sees.
      extraPrefsFirefox: {
        'dom.min_background_timeout_value': 4,
        'dom.min_background_timeout_value_without_budget_throttling': 4,
        'dom.timeout.enable_budget_timer_throttling': false,
        'dom.timeout.throttling_delay': 0,
        'layout.throttled_frame_rate': 60,
        'dom.suspend_inactive.enabled': false,
      },
    },
  }),
].filter((b) => !only || only.some((name) => b.name.toLowerCase().includes(name)));

export default {
  // test/unit/ is the Node layer (vitest.config.ts).
  files: ['test/**/*.test.ts', '!test/unit/**'],
  nodeResolve: true,
  // The test runner's server, with the reference server mounted: port 8000, or the next
  // free one; TEST_PORT asks for a given port (README "Two commands").
  port: process.env.TEST_PORT ? Number(process.env.TEST_PORT) : undefined,
  concurrency: 2,
  concurrentBrowsers: 2,
  // A file may take this long: the send-once file reloads 42 pages (100 s alone in Firefox).
  testsFinishTimeout: 480_000,
  // No retries: a test that fails once is a bug to find (in the test or the widget). A test
  // that must allow one says so itself, with its reason, and a retry that happens is
  // printed (test/support/retry.ts).
  testFramework: { config: { timeout: 10_000 } },
  browsers,
  // reactEsmPlugin: React is CommonJS; test/react/ imports it as ES modules through this.
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
    reactEsmPlugin(),
    highlightCore,
    referenceSessions,
    modelAgent,
    proxies,
  ],
  middleware: [
    // The production bundle with chunks missing, for tests of a failed chunk load:
    // /dist-without-lazy/x.js is dist/x.js except the feature chunks (the script, its core,
    // the panel, the turns and the streaming code load); /dist-without-panel/ has the shell only.
    async (ctx, next) => {
      const match = /^\/dist-without-(lazy|panel)\/([\w.-]+)$/.exec(ctx.path);
      if (!match) return next();
      const kept = match[1] === 'lazy' ? /^agent-chat(-(core|panel|stream|turns)-[\w-]+)?\.js$/ : /^agent-chat(-core-[\w-]+)?\.js$/;
      if (!kept.test(match[2])) {
        ctx.status = 404;
        return;
      }
      ctx.url = `/dist/${match[2]}`;
      return next();
    },
    // The production bundle with one chunk broken until it is asked for again (src/lazy.ts):
    // /dist-broken-<how>-<part>/agent-chat-<part>-HASH.js answers 404, a module that does not
    // parse, or one that throws as it runs; the same file with `?retry=N` is the real one.
    async (ctx, next) => {
      const match = /^\/dist-broken-(404|syntax|throws)-([\w-]+?)\/([\w.-]+)$/.exec(ctx.path);
      if (!match) return next();
      const [, how, part, file] = match;
      if (file.startsWith(`agent-chat-${part}-`) && !ctx.query.retry) {
        if (how === '404') {
          ctx.status = 404;
          return;
        }
        ctx.type = 'text/javascript';
        ctx.body = how === 'syntax' ? 'export const broken = ;' : 'throw new Error("a chunk that does not run");';
        return;
      }
      ctx.url = `/dist/${file}`;
      return next();
    },
    // /model/…: the reference server that answers with the fake model, once a test started it.
    async (ctx, next) => {
      if (!model || !/^\/model\//.test(ctx.url)) return next();
      ctx.respond = false;
      ctx.req.url = ctx.url.slice('/model'.length);
      await new Promise((resolve, reject) => {
        ctx.res.once('close', resolve);
        model.middleware(ctx.req, ctx.res, reject);
      });
    },
    // /strict/…: the reference server that refuses the test pages' origin.
    async (ctx, next) => {
      if (!/^\/strict\//.test(ctx.url)) return next();
      const middleware = await strictServer();
      ctx.respond = false;
      ctx.req.url = ctx.url.slice('/strict'.length);
      await new Promise((resolve, reject) => {
        ctx.res.once('close', resolve);
        middleware(ctx.req, ctx.res, reject);
      });
    },
    // The host's own routes (demo/host/): uploads and the strict-CSP page.
    async (ctx, next) => {
      if (!isHostPath(ctx.url)) return next();
      ctx.respond = false;
      await new Promise((resolve, reject) => {
        ctx.res.once('close', resolve);
        hostRoutes(ctx.req, ctx.res, reject);
      });
    },
    // Koa middleware: hand the raw request to the reference server when it owns the path.
    async (ctx, next) => {
      if (!isReferencePath(ctx.url)) return next();
      ctx.respond = false;
      await new Promise((resolve, reject) => {
        ctx.res.once('close', resolve);
        serverMiddleware(ctx.req, ctx.res, reject);
      });
    },
  ],
  reporters: [defaultReporter(), countReporter()],
};
