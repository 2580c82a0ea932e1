import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { css, unsafeCSS } from '@lit/reactive-element/css-tag.js';

import { FULL_SCREEN_QUERY } from '../shell/launcher.js';

export { FULL_SCREEN_QUERY };

export const styles = css`
  /* Phones and zoomed windows: the panel is the screen, modal (FullScreen below), sized to the
     visual viewport (above an on-screen keyboard) and clear of notches and home bars. */
  @media ${unsafeCSS(FULL_SCREEN_QUERY)} {
    :host([mode='launcher']) .panel {
      position: fixed;
      inset: 0;
      inset-block-start: var(--_vv-top, 0);
      width: 100%;
      height: var(--_vv-height, 100%);
      border-radius: 0;
      border: 0;
      padding: env(safe-area-inset-top, 0) env(safe-area-inset-right, 0) env(safe-area-inset-bottom, 0) env(safe-area-inset-left, 0);
    }

    /* Covered by the panel: out of sight and out of the Tab order until it closes. */
    :host([mode='launcher'][open]) .launcher {
      display: none;
    }
  }
`;

type Host = ReactiveControllerHost & HTMLElement;

const FOCUSABLE = 'button, a[href], input, textarea, select, [tabindex]';

/**
 * A full-screen panel is modal, as a dialog that covers the page must be: focus stays in it
 * (Tab and Shift+Tab wrap), it says so to assistive technology (`aria-modal`), the page behind
 * does not scroll, and it is sized to the visual viewport, so the on-screen keyboard does not
 * cover the composer. The only change to the host page is `overflow: hidden` on its root
 * while the panel is open, put back as it was on close.
 */
export class FullScreen implements ReactiveController {
  /** Open, a launcher, and the screen is small: the panel is modal. */
  active = false;
  private __media: MediaQueryList | null = null;
  /** The page root's own `overflow` before the lock; null while not locked. */
  private __restore: string | null = null;

  constructor(
    private readonly __host: Host,
    /** A launcher whose panel is open. */
    private readonly __open: () => boolean,
    /** The panel element, once rendered. */
    private readonly __panel: () => HTMLElement | null,
  ) {
    __host.addController(this);
  }

  hostConnected(): void {
    this.__media = matchMedia(FULL_SCREEN_QUERY);
    this.__media.addEventListener('change', this.__onChange);
    visualViewport?.addEventListener('resize', this.__fit);
    visualViewport?.addEventListener('scroll', this.__fit);
  }

  hostDisconnected(): void {
    this.__media?.removeEventListener('change', this.__onChange);
    visualViewport?.removeEventListener('resize', this.__fit);
    visualViewport?.removeEventListener('scroll', this.__fit);
    this.active = false;
    this.__release();
  }

  hostUpdate(): void {
    // An update after the element left the page (nothing to lock there) is not a reason to lock.
    this.active = this.__host.isConnected && this.__open() && !!this.__media?.matches;
  }

  hostUpdated(): void {
    if (this.active) {
      this.__lock();
      this.__fit();
    } else {
      this.__release();
    }
  }

  /** Tab and Shift+Tab wrap inside the panel while it is modal; returns whether it handled the key. */
  trap(event: KeyboardEvent): boolean {
    const panel = this.__panel();
    if (!this.active || event.key !== 'Tab' || !panel) return false;
    // In order, with what the host put in the slots (a header link, a privacy note's link).
    const stops = Array.from(panel.querySelectorAll<HTMLElement>(`${FOCUSABLE}, slot`))
      .flatMap((n) =>
        n instanceof HTMLSlotElement ? n.assignedElements({ flatten: true }).flatMap((e) => [e, ...e.querySelectorAll(FOCUSABLE)]) : [n],
      )
      .filter(
        (n): n is HTMLElement =>
          n instanceof HTMLElement &&
          n.matches(FOCUSABLE) &&
          n.tabIndex >= 0 &&
          !(n as HTMLButtonElement).disabled &&
          n.getClientRects().length > 0,
      );
    const first = stops[0];
    const last = stops.at(-1);
    // Focus in slotted content is the document's, not the shadow root's.
    const active = (panel.getRootNode() as ShadowRoot).activeElement ?? document.activeElement;
    const inside = panel.contains(active) || stops.includes(active as HTMLElement);
    const wrapTo = event.shiftKey ? (active === first || !inside ? last : null) : active === last || !inside ? first : null;
    if (!wrapTo) return false;
    event.preventDefault();
    wrapTo.focus();
    return true;
  }

  private readonly __onChange = (): void => this.__host.requestUpdate();

  /** The panel takes the visual viewport: what is left above an on-screen keyboard. */
  private readonly __fit = (): void => {
    const panel = this.__panel();
    const viewport = visualViewport;
    if (!this.active || !panel || !viewport) return;
    panel.style.setProperty('--_vv-height', `${viewport.height}px`);
    panel.style.setProperty('--_vv-top', `${viewport.offsetTop}px`);
  };

  private __lock(): void {
    if (this.__restore !== null) return;
    const root = document.documentElement;
    this.__restore = root.style.overflow;
    root.style.overflow = 'hidden';
  }

  private __release(): void {
    const panel = this.__panel();
    panel?.style.removeProperty('--_vv-height');
    panel?.style.removeProperty('--_vv-top');
    if (this.__restore === null) return;
    document.documentElement.style.overflow = this.__restore;
    this.__restore = null;
  }
}
