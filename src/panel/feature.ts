import type { CSSResult } from '@lit/reactive-element/css-tag.js';
import { adoptStyles } from '../shell/panel-loader.js';

/** The widget a feature belongs to: its shadow root takes the stylesheet, and it renders again when the chunk settles. */
export interface FeatureHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  requestUpdate(): void;
}

/**
 * One widget's use of a lazy feature: its module once loaded (its stylesheet adopted by
 * the widget's shadow root), or `failed` after a fetch that did not work, until `retry()`,
 * so a failed chunk is not refetched on every render. The host renders again whenever the
 * chunk settles, so a render that went ahead without it is never the last word.
 */
export class Feature<T extends { styles: CSSResult }> {
  module: T | null = null;
  failed = false;
  private pending: Promise<T | null> | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly host: FeatureHost,
  ) {}

  ensure(): Promise<T | null> {
    if (this.module || this.failed) return Promise.resolve(this.module);
    return (this.pending ??= this.load()
      .then(
        (module) => {
          adoptStyles(this.host.renderRoot as ShadowRoot, module.styles);
          return (this.module = module);
        },
        () => {
          this.failed = true;
          return null;
        },
      )
      .finally(() => {
        this.pending = null;
        this.host.requestUpdate();
      }));
  }

  retry(): Promise<T | null> {
    this.failed = false;
    return this.ensure();
  }
}
