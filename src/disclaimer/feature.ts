import { lexer } from '../markdown/chunks.js';
import { hasLexer, needsLexer } from '../markdown/markdown.js';
import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

/**
 * The disclaimer above the messages (attribute `disclaimer`): fetched while it is set, and a
 * render waits for it a little (and for the lexer, when the text is more than prose). Until
 * the chunk says the reader accepted, a send is held: a chunk that cannot load sends nothing.
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, ctx) => new module.Disclaimer(ctx),
).with({
  on: ({ host }) => !!host.disclaimer,
  whenOn: 'wait',
  mount: (use) => {
    const lexed = use.ctx.feature(lexer, true);
    return {
      willUpdate(): void {
        // A disclaimer that is more than prose waits for the lexer too, also when its own
        // chunk is here already (another widget fetched it): it never shows its syntax.
        const text = use.ctx.host.disclaimer;
        if (text && !hasLexer() && needsLexer(text)) void lexed.want(true);
      },
      /** Set, and its chunk not here yet: a send waits for it (`ready`) to know whether the reader accepted. */
      pending: (): boolean => use.on && !use.control,
      /** The chunk here, or given up on. */
      async ready(): Promise<void> {
        await use.want();
        use.make();
      },
      /** Whether a send waits for the reader's acceptance; if so it is refused, and they are told (`host`: the page's call). */
      holds: (host?: boolean): boolean => use.on && (use.control?.holds(host) ?? true),
    };
  },
  places: {
    // Nothing (undefined) until the chunk is here, or once accepted.
    aboveLog: ({ control }) => control?.render(),
  },
});
