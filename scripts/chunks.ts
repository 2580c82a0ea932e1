/**
 * What a built chunk imports from beside itself, read from its minified text: shared by
 * `npm run size` (the initial load is the closure of static imports) and `check:pack`
 * (every chunk the script can load must ship).
 */

/** Relative static imports (`import ... from "./x.js"` / `import "./x.js"`), file names only. */
export function staticImports(code: string): string[] {
  return Array.from(code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+from\s*)?["'](\.\/[^"']+)["']/g), (m) => m[1]!.slice(2));
}

/**
 * What a chunk's loaders fetch, file names only: relative dynamic imports (`import("./x.js")`,
 * quoted or in backticks, with a loader's retry suffix, `import(\`./x.js\`+r)`, or not)
 * and the chunks named in its strings (the kept chunks a loader fetches first,
 * scripts/vite-chunk-retry.ts).
 */
export function dynamicImports(code: string): string[] {
  const loads = Array.from(code.matchAll(/\bimport\(\s*["'`](\.\/[^"'`]+)["'`]\s*(?:\+\s*[\w$]+\s*)?\)/g), (m) => m[1]!.slice(2));
  const named = Array.from(code.matchAll(/["'`](agent-chat-[\w-]+\.js)["'`]/g), (m) => m[1]!);
  return [...new Set([...loads, ...named])];
}
