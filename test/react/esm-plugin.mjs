/**
 * React ships CommonJS only, and the test runner serves ES modules without converting
 * CommonJS (no @rollup/plugin-commonjs here). This dev-server plugin answers imports of
 * `react`, `react-dom` and `react-dom/client` with ES modules built by esbuild (already
 * installed for the TypeScript transform): one bundle holds both packages, so there is a
 * single React instance, and thin per-specifier modules re-export its names.
 * Used only by test/react/; the widget itself never imports React.
 */
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const PREFIX = '/__react-esm/';
const SPECIFIERS = {
  react: 'React',
  'react-dom': 'ReactDOM',
  'react-dom/client': 'ReactDOMClient',
  // Server rendering in the browser: what a Next.js page sends, rendered here to hydrate it.
  'react-dom/server': 'ReactDOMServer',
};

export function reactEsmPlugin({ rootDir = process.cwd() } = {}) {
  let bundle;

  /**
   * The names a CommonJS module exports, read in a child process: loading React inside the
   * test runner would let it touch the runner's patched console.
   */
  function exportNames(spec) {
    const script = `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(spec)}))))`;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: rootDir, encoding: 'utf8' });
    return JSON.parse(out);
  }

  async function bundleCode() {
    bundle ??= build({
      stdin: {
        contents: Object.entries(SPECIFIERS)
          .map(([spec, name]) => `import * as ${name} from '${spec}'; export { ${name} };`)
          .join('\n'),
        resolveDir: rootDir,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      write: false,
      target: 'es2022',
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0].text);
    return bundle;
  }

  function facade(spec) {
    const name = SPECIFIERS[spec];
    // Named exports as Node sees them; `default` is the module object, as CommonJS interop gives.
    const names = exportNames(spec).filter((key) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key));
    return [
      `import { ${name} as m } from '${PREFIX}bundle.js';`,
      `const mod = m.default ?? m;`,
      'export default mod;',
      ...names.map((key) => `export const ${key} = mod.${key};`),
    ].join('\n');
  }

  return {
    name: 'react-esm',
    resolveImport({ source }) {
      if (source in SPECIFIERS) return `${PREFIX}${source.replace('/', '__')}.js`;
    },
    async serve(context) {
      if (!context.path.startsWith(PREFIX)) return;
      const file = context.path.slice(PREFIX.length, -'.js'.length);
      if (file === 'bundle') return { body: await bundleCode(), type: 'js' };
      const spec = file.replace('__', '/');
      if (spec in SPECIFIERS) return { body: facade(spec), type: 'js' };
    },
  };
}
