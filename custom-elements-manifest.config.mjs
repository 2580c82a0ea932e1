/**
 * `npm run manifest` writes custom-elements.json from the element's JSDoc:
 * attributes, properties, methods, events with their detail types, parts and theme tokens.
 * IDEs, Storybook and framework wrappers read it; scripts/check-manifest.ts holds it to
 * the public API list (scripts/contract.ts).
 */
export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/**/*.test.ts', 'src/react/**'],
  outdir: '.',
  litelement: true,
  // package.json already points at the manifest ("customElements"); never rewrite it.
  packagejson: false,
  plugins: [
    {
      // Private and protected members (controllers, queries, render helpers, #fields) are
      // not API; dropping them keeps the manifest to what a host may use.
      name: 'agent-chat:public-api',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules ?? []) {
          for (const decl of mod.declarations ?? []) {
            // `dispatch(type, ...)` makes the analyzer list an event literally named "type";
            // the real events are the documented `@fires`.
            if (decl.events) decl.events = decl.events.filter((e) => e.description || e.name.includes('-'));
            if (!decl.members) continue;
            decl.members = decl.members.filter(
              (m) => m.privacy !== 'private' && m.privacy !== 'protected' && !m.name.startsWith('#'),
            );
          }
        }
      },
    },
  ],
};
