import { nothing } from 'lit-html';
import { handoff as handoffChunk } from '../chunks.js';
import type { Feature } from '../panel/feature.js';
import type { PanelContext } from '../panel/context.js';
import { reported, text as textSetting } from '../state/config.js';
import { warnOnce } from '../warn.js';

type HandOffModule = typeof import('./index.js');

/**
 * Where the hand-off sits in the panel before its chunk (index.ts) arrives: `channels`
 * checked, and the chunk fetched when there are any (the render that offers them waits
 * for it a little). Everything else is in the chunk (controller.ts).
 */
export class HandOffSlot {
  private readonly feature: Feature<HandOffModule>;
  private control: InstanceType<HandOffModule['HandOffControl']> | null = null;
  /** `channels` checked: the attribute's text. */
  private channelsText = '';

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(handoffChunk);
    // Set before the panel came: the first render waits for the chunk too.
    this.want();
  }

  /** `channels` changed: checked here; a bad value warns once and offers none. */
  setChannels(value: unknown): void {
    this.channelsText = reported((problems) => textSetting('channels', value, problems));
    this.want();
  }

  private want(): void {
    const channels = this.ctx.host.channels;
    if (this.feature.module || typeof channels !== 'string' || !channels.trim()) return;
    void this.feature.want(true).then((module) => module || warnOnce('the WhatsApp/SMS hand-off could not be loaded.'));
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
