/**
 * `npm run manifest` writes custom-elements.json from the element's JSDoc:
 * attributes, properties, methods, events with their detail types, parts and theme tokens.
 * IDEs, Storybook and framework wrappers read it; scripts/check-manifest.ts holds it to
 * the public API list (scripts/contract.ts).
 */
const ENTRY_MODULES = ['src/agent-chat.ts', 'src/index.ts', 'src/client/index.ts', 'src/i18n/index.ts', 'src/events.ts'];

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
        // Only the modules a host imports: the element and the package's entry points. The
        // internal modules (state, client, features) are not API, and listing them all made
        // the manifest a sixth of the package.
        customElementsManifest.modules = (customElementsManifest.modules ?? []).filter(
          (mod) => ENTRY_MODULES.includes(mod.path) || mod.declarations?.some((d) => d.customElement),
        );
        for (const mod of customElementsManifest.modules) {
          for (const decl of mod.declarations ?? []) {
            // `dispatch(type, ...)` makes the analyzer list an event literally named "type";
            // the real events are the documented `@fires`.
            if (decl.events) decl.events = decl.events.filter((e) => e.description || e.name.includes('-'));
            if (!decl.members) continue;
            decl.members = decl.members.filter((m) => m.privacy !== 'private' && m.privacy !== 'protected' && !m.name.startsWith('#'));
          }
        }
      },
    },
  ],
};
