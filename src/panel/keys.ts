import type { ChatController } from '../state/chat-controller.js';

/** What the panel's keys act on (src/panel/panel.ts hands its own parts). */
export interface KeyTargets {
  readonly chat: ChatController;
  /** A launcher's panel (else inline), and whether it is open. */
  readonly launcher: boolean;
  readonly open: boolean;
  /** The composer's text field, looked up only for a key that needs it (a search of the shadow tree). */
  input(): HTMLTextAreaElement | null;
  /** The full-screen panel keeps Tab inside (src/full-screen/); true when it took the key. */
  trap(event: KeyboardEvent): boolean;
  readonly history: { readonly isOpen: boolean; close(): void };
  closePanel(): void;
}

/**
 * The panel's keys: Ctrl+. (⌘. on a Mac, the system's "cancel") stops a running reply in
 * either mode; Escape closes the history list, else, inline in the text field, stops the
 * reply, else closes a launcher's panel (the reply keeps streaming; the unread dot shows
 * when it lands).
 */
export function onPanelKey(event: KeyboardEvent, on: KeyTargets): void {
  if (on.trap(event)) return;
  if (event.key === '.' && (event.ctrlKey || event.metaKey) && on.chat.turnRunning) {
    event.preventDefault();
    on.chat.stop();
    return;
  }
  if (event.key !== 'Escape') return;
  if (on.history.isOpen) {
    event.stopPropagation();
    on.history.close();
  } else if (!on.launcher && on.chat.turnRunning && event.target === on.input()) {
    on.chat.stop();
  } else if (on.launcher && on.open) {
    event.stopPropagation();
    on.closePanel();
  }
}
