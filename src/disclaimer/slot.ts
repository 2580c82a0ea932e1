import { disclaimer as disclaimerChunk } from '../chunks.js';
import { lexer as lexerChunk } from '../markdown/chunks.js';
import { needsLexer } from '../markdown/markdown.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';

type DisclaimerModule = typeof import('./index.js');

/**
 * Where the disclaimer sits above the messages (attribute `disclaimer`; the chunk is
 * index.ts, fetched while the attribute is set, and a render waits for it a little). Until
 * the chunk says the reader accepted, a send is held: a chunk that cannot load sends nothing.
 */
export class DisclaimerSlot {
  private readonly feature: Feature<DisclaimerModule>;
  /** The markdown lexer: a disclaimer that is more than prose waits for it as for the chunk. */
  private readonly lexer: Feature<typeof import('../markdown/lex.js')>;
  private gate: InstanceType<DisclaimerModule['Disclaimer']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(disclaimerChunk);
    this.lexer = ctx.feature(lexerChunk, true);
  }

  willUpdate(): void {
    // Asked first: a chunk another widget fetched arrives here at once, for this render.
    const text = this.ctx.host.disclaimer;
    if (text && !this.gate) {
      void this.feature.want(true);
      if (needsLexer(text)) void this.lexer.want(true);
    }
    const module = this.feature.module;
    if (module) this.gate ??= new module.Disclaimer(this.ctx);
  }

  /** Set, and its chunk not here yet: a send waits for it (`ready`) to know whether the reader accepted. */
  pending(): boolean {
    return !!this.ctx.host.disclaimer && !this.gate;
  }

  /** The chunk here, or given up on. */
  async ready(): Promise<void> {
    await this.feature.want();
    this.willUpdate();
  }

  /** Whether a send waits for the reader's acceptance; if so it is refused, and they are told (`host`: the page's call). */
  holds(host?: boolean): boolean {
    return !!this.ctx.host.disclaimer && (this.gate?.holds(host) ?? true);
  }

  /** Nothing (undefined) until the chunk is here, or once accepted. */
  render() {
    return this.gate?.render();
  }
}
