import { nothing } from 'lit-html';
import { voice as voiceChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { ChatHost } from '../shell/panel-api.js';
import type { PropertyValues } from '../shell/host.js';

type VoiceModule = typeof import('./index.js');

const canDictate = () => 'SpeechRecognition' in globalThis || 'webkitSpeechRecognition' in globalThis;

/**
 * Where the dictation button sits in the composer (attribute `voice`; the chunk is
 * index.ts): fetched when `voice` is set and the browser recognises speech (not in Firefox),
 * the render that offers it waiting for it a little.
 */
export class VoiceSlot {
  private readonly feature: Feature<VoiceModule>;
  private dictation: InstanceType<VoiceModule['Dictation']> | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(voiceChunk);
    this.want();
  }

  /** Before each render: the setting followed, and dictation ended where it can no longer be heard. */
  willUpdate(changed: PropertyValues<ChatHost>): void {
    if (changed.has('voice')) this.want();
    const module = this.feature.module;
    if (module && this.ctx.host.voice) this.dictation ??= new module.Dictation(this.ctx);
    this.dictation?.sync();
  }

  /** The reader typed or sent: dictation ends at once. */
  abort(): void {
    this.dictation?.abort();
  }

  render() {
    return this.ctx.host.voice ? (this.dictation?.render() ?? nothing) : nothing;
  }

  private want(): void {
    if (this.ctx.host.voice && !this.feature.module && canDictate()) void this.feature.want(true);
  }
}
