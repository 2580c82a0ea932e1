import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';

export default tseslint.config(
  // test/types/*/docs-*: the docs' snippets, written out by `npm run check:types`.
  {
    ignores: ['dist/', 'src/markdown/vendor/', 'server/dist/', 'node_modules/', 'coverage/', 'custom-elements.json', 'test/types/*/docs-*'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { lit, wc, 'lit-a11y': litA11y },
    rules: {
      ...lit.configs.recommended.rules,
      ...wc.configs.recommended.rules,
      ...litA11y.configs.recommended.rules,
      // One sanitising point: only src/markdown/ turns text into HTML (with the policy of src/security/).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'lit/directives/unsafe-html.js', message: 'Only src/markdown/ may produce HTML.' },
            // Its import() in markdown/blocks.ts is not an import declaration, so it is not caught.
            { name: 'dompurify', message: 'The sanitiser policy lives in src/security/html-policy.ts, a lazy chunk.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Only src/markdown/ may produce HTML.' },
        { property: 'outerHTML', message: 'Only src/markdown/ may produce HTML.' },
        { property: 'insertAdjacentHTML', message: 'Only src/markdown/ may produce HTML.' },
      ],
    },
  },
  {
    // Chai's property assertions (`expect(x).to.be.true`) read as bare expressions.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // Private members are named `__name`, and nothing else is: the build shortens exactly those
    // names, chunk by chunk (vite.config.ts `mangle`), as Lit's build does. A decorated member is
    // a reactive property, defined by its name as a string, so it keeps its name.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ":matches(PropertyDefinition, MethodDefinition[kind!='constructor'], TSAbstractPropertyDefinition)[accessibility='private'][decorators.length=0] > Identifier.key:not([name=/^__[a-z]/])",
          message: 'Name a private member __name: the build shortens those names (vite.config.ts).',
        },
        {
          selector: "TSParameterProperty[accessibility='private'] > Identifier.parameter:not([name=/^__[a-z]/])",
          message: 'Name a private member __name: the build shortens those names (vite.config.ts).',
        },
        {
          selector:
            ":matches(PropertyDefinition[accessibility!='private'], PropertyDefinition[decorators.length>0], MethodDefinition[accessibility!='private'], ObjectExpression > Property, TSPropertySignature, TSMethodSignature) > Identifier.key[name=/^__[a-z]/]",
          message: 'Only private members are named __name: the build shortens those names (vite.config.ts).',
        },
        {
          selector: "TSParameterProperty[accessibility!='private'] > Identifier.parameter[name=/^__[a-z]/]",
          message: 'Only private members are named __name: the build shortens those names (vite.config.ts).',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    // The Node layer's storage is a fake of each test's own.
    ignores: ['test/unit/**'],
    rules: {
      // Firefox runs test files side by side in one profile: a clear wipes another file's
      // conversation mid-test (test/support/server.ts forgetStorage removes a test's own keys).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='localStorage'][callee.property.name='clear']",
          message: 'Use forgetStorage(): other test files share this storage.',
        },
        {
          // window.localStorage.clear(), a frame's contentWindow.localStorage.clear()
          selector: "CallExpression[callee.object.property.name='localStorage'][callee.property.name='clear']",
          message: 'Use forgetStorage(): other test files share this storage.',
        },
      ],
    },
  },
  {
    // The one-shot render (markdown.ts), the RCDATA decode of a character reference
    // (entities.ts), a saved transcript's sanitised HTML (rewrite.ts) and DOMPurify's policy.
    files: ['src/markdown/markdown.ts', 'src/markdown/entities.ts', 'src/markdown/rewrite.ts', 'src/security/html-policy.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-properties': 'off' },
  },
);
