/**
 * What a built chunk imports from beside itself, read from its minified text: shared by
 * `npm run size` (the initial load is the closure of static imports) and `check:pack`
 * (every chunk the script can load must ship).
 */

/** Relative static imports (`import ... from "./x.js"` / `import "./x.js"`), file names only. */
export function staticImports(code: string): string[] {
  return Array.from(code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+from\s*)?["'](\.\/[^"']+)["']/g), (m) => m[1]!.slice(2));
}

/** Relative dynamic imports (`import("./x.js")`, quoted or in backticks), file names only. */
export function dynamicImports(code: string): string[] {
  return Array.from(code.matchAll(/\bimport\(\s*["'`](\.\/[^"'`]+)["'`]\s*\)/g), (m) => m[1]!.slice(2));
}
