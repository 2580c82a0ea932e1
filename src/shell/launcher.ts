import type { LauncherStrings } from './strings.js';
import { CHAT_PATH, CLOSE_PATH } from '../icons/paths.js';

const SVG = 'http://www.w3.org/2000/svg';

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
  private readonly path = document.createElementNS(SVG, 'path');
  private readonly dot = document.createElement('span');
  private readonly dotLabel = document.createElement('span');

  constructor(actions: LauncherActions) {
    const { button, dot, dotLabel } = this;
    button.type = 'button';
    button.className = 'launcher';
    button.setAttribute('part', 'launcher');
    button.setAttribute('aria-controls', 'panel');
    const icon = document.createElementNS(SVG, 'svg');
    icon.setAttribute('viewBox', '0 0 24 24');
    icon.setAttribute('aria-hidden', 'true');
    icon.setAttribute('focusable', 'false');
    icon.append(this.path);
    dot.className = 'unread';
    dotLabel.className = 'sr-only';
    dot.append(dotLabel);
    button.append(icon);
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
    const { button, dot } = this;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? t.close : unread ? t.openChatUnread : t.openChat);
    this.path.setAttribute('d', open ? CLOSE_PATH : CHAT_PATH);
    this.dotLabel.textContent = t.unread;
    if (unread) button.append(dot);
    else dot.remove();
  }
}
