import type { LauncherStrings } from './strings.js';
import { CHAT_PATH, CLOSE_PATH } from '../icons/paths.js';

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Where the launcher's panel fills the screen (src/full-screen/, a chunk): a phone, or a
 * desktop window zoomed to 200% (1280×800 becomes 640×400 CSS px), where a floating box
 * would be cramped.
 */
export const FULL_SCREEN_QUERY = '(max-width: 480px), (max-height: 500px)';

function icon(d: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  const path = document.createElementNS(SVG, 'path');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

export interface LauncherActions {
  toggle(): void;
  close(): void;
  /** The reader may be about to open the panel: a pointer over the button, focus, a touch. */
  intent(): void;
}

/**
 * The round launcher button with its unread dot, built with DOM calls: the shell has no
 * template library (lit-html arrives with the panel), and this is all an unopened launcher
 * shows. Attributes only, no markup strings, so strict CSP and Trusted Types have nothing
 * to say about it.
 */
export class Launcher {
  readonly button = document.createElement('button');
  /** The host's icon (slot `launcher-icon`), else the chat bubble; the close icon while open. */
  private readonly __slot = document.createElement('slot');
  private readonly __closeIcon = icon(CLOSE_PATH);
  private readonly __dot = document.createElement('span');
  private readonly __dotLabel = document.createElement('span');

  constructor(actions: LauncherActions) {
    const { button, __dot: dot, __dotLabel: dotLabel, __slot: slot } = this;
    button.type = 'button';
    button.className = 'launcher';
    button.setAttribute('part', 'launcher');
    button.setAttribute('aria-controls', 'panel');
    slot.name = 'launcher-icon';
    slot.append(icon(CHAT_PATH));
    dot.className = 'unread';
    dotLabel.className = 'sr-only';
    dot.append(dotLabel);
    button.append(slot, this.__closeIcon);
    button.addEventListener('click', () => actions.toggle());
    button.addEventListener('keydown', (event) => {
      // Escape on the button closes the open panel, as it does inside the panel.
      if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
      event.stopPropagation();
      actions.close();
    });
    for (const type of ['pointerenter', 'focus', 'pointerdown'] as const) {
      button.addEventListener(type, () => actions.intent(), { once: true, passive: true });
    }
  }

  sync(open: boolean, unread: boolean, t: LauncherStrings): void {
    const { button, __dot: dot } = this;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? t.close : unread ? t.openChatUnread : t.openChat);
    this.__slot.hidden = open;
    this.__closeIcon.toggleAttribute('hidden', !open);
    this.__dotLabel.textContent = t.unread;
    if (unread) button.append(dot);
    else dot.remove();
  }
}
