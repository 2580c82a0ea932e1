/**
 * highlight.js ships its core as CommonJS (its `es/core.js` only re-exports `lib/core.js`).
 * Bundled as it is, the bundler adds its CommonJS interop helpers in a runtime chunk that
 * the panel then loads too, on every page, for a chunk most pages never fetch; and the test
 * runner's dev server cannot serve it to a browser at all. The core's only CommonJS is its
 * `module.exports = highlight;` line: this turns that line into an ES default export, and
 * fails if the file ever holds more CommonJS than that (an upgrade must be looked at).
 * Used by the build (vite.config.ts) and the test runner (web-test-runner.config.mjs).
 */
import type { Plugin } from 'vite';

export const HIGHLIGHT_CORE = /[\\/]node_modules[\\/]highlight\.js[\\/]lib[\\/]core\.js$/;

const EXPORT = /^module\.exports = highlight;$/m;

/** The core as an ES module; throws when its CommonJS is not the one line this knows. */
export function highlightCoreToEsm(code: string): string {
  const commonJs = code.match(/\bmodule\.exports\b|\bexports\.\w|\brequire\(/g) ?? [];
  if (commonJs.length !== 1 || !EXPORT.test(code)) {
    throw new Error(
      `highlight.js/lib/core.js is not the CommonJS this build knows (${commonJs.length} uses); see scripts/vite-highlight-esm.ts`,
    );
  }
  return code.replace(EXPORT, 'export default highlight;');
}

export function highlightCoreEsm(): Plugin {
  return {
    name: 'highlight-core-esm',
    enforce: 'pre',
    transform(code, id) {
      return HIGHLIGHT_CORE.test(id) ? { code: highlightCoreToEsm(code), map: null } : null;
    },
  };
}
