import { fullScreen as fullScreenChunk } from '../chunks.js';
import type { PanelContext } from '../panel/context.js';
import type { Feature } from '../panel/feature.js';
import type { FullScreen } from './full-screen.js';

/**
 * Where the launcher's full-screen panel meets the panel (the chunk is index.ts): a
 * launcher fetches it beside the panel without holding a render for it; the panel shows at
 * once and turns modal when the chunk lands (it renders again then).
 */
export class FullScreenSlot {
  private readonly feature: Feature<typeof import('./index.js')>;
  private controller: FullScreen | null = null;

  constructor(private readonly ctx: PanelContext) {
    this.feature = ctx.feature(fullScreenChunk);
  }

  /** The panel is full screen and modal now. */
  get active(): boolean {
    return !!this.controller?.active;
  }

  willUpdate(): void {
    const { host, view } = this.ctx;
    const module = this.feature.module;
    if (!module) {
      if (view.launcher) void this.feature.want();
      return;
    }
    this.controller ??= new module.FullScreen(
      host,
      () => view.launcher && host.isOpen,
      () => host.renderRoot.querySelector<HTMLElement>('.panel'),
    );
  }

  /** Tab and Shift+Tab wrap inside the panel while it is modal; returns whether it handled the key. */
  trap(event: KeyboardEvent): boolean {
    return !!this.controller?.trap(event);
  }
}
