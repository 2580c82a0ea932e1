import type { RenderMarks } from './context.js';

/**
 * When the panel renders, and how much of the log a render touches (src/log/log.ts renders
 * a message again when the message, `revision` or its `marks` changed).
 *
 * What a message shows besides its own fields changes with every render except those of a
 * keystroke, of streamed tokens (the one message that grew) and of a state shown in some
 * messages only (`touched`): those leave `revision` as it was. Anything else that asks the
 * element to render (a chunk's arrival, a setting, another transition) counts as `loud`,
 * and the next render bumps `revision`: every shown message renders again.
 */
export class Renders implements RenderMarks {
  revision = 0;
  /** How many times `touched` was called: a render after one is not a keystroke's. */
  touches = 0;
  /** By message key: how many times what it shows besides itself changed (`touched`). */
  private readonly __marked = new Map<string, number>();
  private __loud = true;
  private __quiet = false;
  /** The animation frame that renders what streamed meanwhile (tokens come faster than frames). */
  private __frame = 0;

  constructor(private readonly __host: { requestUpdate(): void }) {}

  marks(key: string): number {
    return this.__marked.get(key) ?? 0;
  }

  /** Renders again the messages `keys` (and what the panel shows besides them), not the others. */
  touched(keys: ReadonlyArray<string | null | undefined>): void {
    for (const key of keys) if (key) this.__marked.set(key, this.marks(key) + 1);
    this.touches++;
    this.quietly();
  }

  /** The element was asked to render: loud, unless the ask is one of `quietly`'s. */
  renderRequested(): void {
    this.__loud ||= !this.__quiet;
  }

  /** A render for a keystroke or for streamed tokens: it leaves `revision` as it was. */
  quietly(): void {
    this.__quiet = true;
    this.__host.requestUpdate();
    this.__quiet = false;
  }

  /** Tokens: one quiet render per animation frame, whatever arrived meanwhile. */
  nextFrame(): void {
    this.__frame ||= requestAnimationFrame(() => {
      this.__frame = 0;
      this.quietly();
    });
  }

  /** A render starts: what asked for it up to here is in it. */
  rendering(): void {
    if (this.__loud) this.revision++;
    this.__loud = false;
  }
}
