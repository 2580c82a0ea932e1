import { nothing } from 'lit-html';
import { lazy } from '../lazy.js';
import { Feature } from '../panel/feature.js';
import type { PanelContext } from '../panel/context.js';
import { reported, text as textSetting } from '../state/config.js';
import { warnOnce } from '../warn.js';

/** The WhatsApp/SMS hand-off (state, templates, styles, its controller), fetched when `channels` is set. */
const loadHandOff = lazy(() => import('./index.js'));

/**
 * Where the hand-off sits in the panel before its chunk arrives: `channels` checked, and
 * the chunk fetched when there are any. Everything else is in the chunk (controller.ts).
 */
export class HandOffSlot {
  private readonly feature: Feature<typeof import('./index.js')>;
  private control: import('./index.js').HandOffControl | null = null;
  /** `channels` checked: the attribute's text. */
  private channelsText = '';

  constructor(private readonly ctx: PanelContext) {
    this.feature = new Feature(loadHandOff, ctx.host);
  }

  /** `channels` changed: checked here; a bad value warns once and offers none. */
  setChannels(value: unknown): void {
    this.channelsText = reported((problems) => textSetting('channels', value, problems));
  }

  needs(): Array<Promise<unknown>> {
    // `channels` itself: `channelsText` is only checked in willUpdate, after this.
    const channels = this.ctx.host.channels;
    if (typeof channels !== 'string' || !channels.trim()) return [];
    return [this.feature.ensure().then((module) => module || warnOnce('the WhatsApp/SMS hand-off could not be loaded.'))];
  }

  willUpdate(): void {
    const module = this.feature.module;
    if (module) this.control ??= new module.HandOffControl(this.ctx);
    this.control?.setChannels(this.channelsText);
  }

  renderButton() {
    return this.control?.renderButton() ?? nothing;
  }

  renderForm() {
    return this.control?.renderForm() ?? nothing;
  }
}
