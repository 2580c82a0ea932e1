import type { CSSResult } from '@lit/reactive-element/css-tag.js';
import { addEnglish, type Strings } from '../i18n/index.js';
import type { Chunk } from '../lazy.js';
import { adoptStyles } from '../shell/panel-loader.js';

/**
 * What a feature's chunk exports besides its code: the stylesheet the widget adopts with
 * it, and the English of its texts (src/i18n/strings.ts `FeatureKey`).
 */
export interface FeatureModule {
  readonly styles?: CSSResult | readonly CSSResult[];
  readonly strings?: Partial<Strings>;
  readonly [name: string]: unknown;
}

/** The widget a feature belongs to: its shadow root takes the stylesheet, and it renders again when the chunk arrives. */
export interface FeatureHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  requestUpdate(): void;
}

/**
 * The chunks one widget's next render waits for: added by a feature when it becomes needed
 * (a setting turned it on, a reply brought what it shows), gone when they settle. The
 * element waits for them a little before it renders (its `scheduleUpdate`); nothing is
 * polled per render.
 */
export class RenderWaits {
  /** By the load waited for: a feature asked again for a load under way adds nothing. */
  private readonly __pending = new Map<Promise<unknown>, Promise<unknown>>();

  add(promise: Promise<unknown>): void {
    if (this.__pending.has(promise)) return;
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.__pending.set(promise, settled);
    void settled.then(() => this.__pending.delete(promise));
  }

  list(): Array<Promise<unknown>> {
    return [...this.__pending.values()];
  }
}

/**
 * One widget's use of a lazy chunk (a feature's, through its `feature.ts`, or another of src/chunks.ts):
 * its module once it has arrived here, with its stylesheet adopted by this widget's shadow
 * root. Arrival renders the widget again; a failure follows the chunks' one rule
 * (src/lazy.ts): the next need tries again, after a pause, and `retry()` (a reader's
 * Retry) at once. Until it arrives after a failure it is among `failures`, which the panel
 * says ("Part of the chat could not load", with Retry), unless its slot says so itself.
 */
export class Feature<T extends FeatureModule> {
  private __adopted: T | null = null;
  /** The load this widget follows: each is handled once (a need inside a retry pause gets the same failed one). */
  private __followed: Promise<T> | null = null;
  private __result: Promise<T | null> = Promise.resolve(null);

  constructor(
    private readonly __chunk: Chunk<T>,
    private readonly __host: FeatureHost,
    private readonly __waits: RenderWaits,
    private readonly __failures: Set<Feature<FeatureModule>> | null = null,
  ) {}

  /** The module, once it has arrived for this widget. */
  get module(): T | null {
    return this.__adopted;
  }

  /** The last load failed (until the next try): a slot may say so where the feature would be. */
  get failed(): boolean {
    return !this.__adopted && this.__chunk.failed;
  }

  /** The chunk is here, whoever asked for it (another slot, another widget): a failure of this one's is over. */
  get arrived(): boolean {
    return !!this.__chunk.module;
  }

  /**
   * The feature is needed: its chunk is fetched (or joined), and the widget renders again
   * when it arrives. `wait`: the next render waits a little for it (what it shows would
   * otherwise appear a moment late, or flash in another form).
   */
  want(wait = false): Promise<T | null> {
    if (this.__adopted) return Promise.resolve(this.__adopted);
    if (this.__chunk.module) return Promise.resolve(this.__arrive(this.__chunk.module));
    const loading = this.__chunk();
    const result = loading === this.__followed ? this.__result : this.__follow(loading);
    if (wait) this.__waits.add(result);
    return result;
  }

  /** A reader's Retry: asked again at once, whatever the pause. */
  retry(): Promise<T | null> {
    return this.__adopted ? Promise.resolve(this.__adopted) : this.__follow(this.__chunk.retry());
  }

  private __follow(loading: Promise<T>): Promise<T | null> {
    this.__followed = loading;
    return (this.__result = loading.then(
      (module) => {
        const adopted = this.__arrive(module);
        this.__failures?.delete(this);
        this.__host.requestUpdate();
        return adopted;
      },
      () => {
        // Said by the panel, or where the feature would be (`failed`); the next need tries again.
        this.__failures?.add(this);
        this.__host.requestUpdate();
        return null;
      },
    ));
  }

  private __arrive(module: T): T {
    if (!this.__adopted) {
      if (module.styles) adoptStyles(this.__host.renderRoot as ShadowRoot, module.styles);
      if (module.strings) addEnglish(module.strings);
    }
    return (this.__adopted = module);
  }
}
