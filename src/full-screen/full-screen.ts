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
  private media: MediaQueryList | null = null;
  /** The page root's own `overflow` before the lock; null while not locked. */
  private restore: string | null = null;

  constructor(
    private readonly host: Host,
    /** A launcher whose panel is open. */
    private readonly open: () => boolean,
    /** The panel element, once rendered. */
    private readonly panel: () => HTMLElement | null,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.media = matchMedia(FULL_SCREEN_QUERY);
    this.media.addEventListener('change', this.onChange);
    visualViewport?.addEventListener('resize', this.fit);
    visualViewport?.addEventListener('scroll', this.fit);
  }

  hostDisconnected(): void {
    this.media?.removeEventListener('change', this.onChange);
    visualViewport?.removeEventListener('resize', this.fit);
    visualViewport?.removeEventListener('scroll', this.fit);
    this.active = false;
    this.release();
  }

  hostUpdate(): void {
    // An update after the element left the page (nothing to lock there) is not a reason to lock.
    this.active = this.host.isConnected && this.open() && !!this.media?.matches;
  }

  hostUpdated(): void {
    if (this.active) {
      this.lock();
      this.fit();
    } else {
      this.release();
    }
  }

  /** Tab and Shift+Tab wrap inside the panel while it is modal; returns whether it handled the key. */
  trap(event: KeyboardEvent): boolean {
    const panel = this.panel();
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

  private readonly onChange = (): void => this.host.requestUpdate();

  /** The panel takes the visual viewport: what is left above an on-screen keyboard. */
  private readonly fit = (): void => {
    const panel = this.panel();
    const viewport = visualViewport;
    if (!this.active || !panel || !viewport) return;
    panel.style.setProperty('--_vv-height', `${viewport.height}px`);
    panel.style.setProperty('--_vv-top', `${viewport.offsetTop}px`);
  };

  private lock(): void {
    if (this.restore !== null) return;
    const root = document.documentElement;
    this.restore = root.style.overflow;
    root.style.overflow = 'hidden';
  }

  private release(): void {
    const panel = this.panel();
    panel?.style.removeProperty('--_vv-height');
    panel?.style.removeProperty('--_vv-top');
    if (this.restore === null) return;
    document.documentElement.style.overflow = this.restore;
    this.restore = null;
  }
}
