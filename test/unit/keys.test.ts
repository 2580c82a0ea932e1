import { describe, expect, it, vi } from 'vitest';
import { onPanelKey, type KeyTargets } from '../../src/panel/keys.js';
import type { ChatController } from '../../src/state/chat-controller.js';

/** A key event as far as the panel's keys read it. */
function key(init: { key: string; ctrlKey?: boolean; metaKey?: boolean; target?: object }) {
  return { ctrlKey: false, metaKey: false, target: null, ...init, preventDefault: vi.fn(), stopPropagation: vi.fn() };
}

function targets(over: Partial<KeyTargets> & { running?: boolean; historyOpen?: boolean } = {}) {
  const field = {} as HTMLTextAreaElement;
  const chat = { turnRunning: over.running ?? false, stop: vi.fn() } as unknown as ChatController & { stop: ReturnType<typeof vi.fn> };
  const history = { isOpen: over.historyOpen ?? false, close: vi.fn() };
  const input = vi.fn(() => field);
  const on = { chat, launcher: false, open: false, input, trap: () => false, history, closePanel: vi.fn(), ...over };
  return { on: on as KeyTargets, chat, history, input, field, closePanel: on.closePanel as ReturnType<typeof vi.fn> };
}

describe("the panel's keys", () => {
  it('Ctrl+. and ⌘. stop a running reply, in either mode; nothing when none runs', () => {
    for (const mods of [{ ctrlKey: true }, { metaKey: true }]) {
      const t = targets({ running: true, launcher: true, open: true });
      const event = key({ key: '.', ...mods });
      onPanelKey(event as unknown as KeyboardEvent, t.on);
      expect(t.chat.stop).toHaveBeenCalledOnce();
      expect(event.preventDefault).toHaveBeenCalled();
    }
    const idle = targets();
    onPanelKey(key({ key: '.', ctrlKey: true }) as unknown as KeyboardEvent, idle.on);
    expect(idle.chat.stop).not.toHaveBeenCalled();
  });

  it('Escape closes the history list first, and goes no further', () => {
    const t = targets({ historyOpen: true, running: true, launcher: true, open: true });
    const event = key({ key: 'Escape', target: t.field });
    onPanelKey(event as unknown as KeyboardEvent, t.on);
    expect(t.history.close).toHaveBeenCalledOnce();
    expect(event.stopPropagation).toHaveBeenCalled();
    expect(t.chat.stop).not.toHaveBeenCalled();
    expect(t.closePanel).not.toHaveBeenCalled();
  });

  it('inline, Escape in the text field stops the reply; elsewhere it does nothing', () => {
    const t = targets({ running: true });
    onPanelKey(key({ key: 'Escape', target: t.field }) as unknown as KeyboardEvent, t.on);
    expect(t.chat.stop).toHaveBeenCalledOnce();
    const other = targets({ running: true });
    onPanelKey(key({ key: 'Escape', target: {} }) as unknown as KeyboardEvent, other.on);
    expect(other.chat.stop).not.toHaveBeenCalled();
  });

  it("a launcher's Escape closes its open panel and the reply keeps streaming", () => {
    const t = targets({ running: true, launcher: true, open: true });
    const event = key({ key: 'Escape', target: t.field });
    onPanelKey(event as unknown as KeyboardEvent, t.on);
    expect(t.closePanel).toHaveBeenCalledOnce();
    expect(event.stopPropagation).toHaveBeenCalled();
    expect(t.chat.stop).not.toHaveBeenCalled();
  });

  it('the text field is looked up only for an Escape inline with a reply running', () => {
    const t = targets({ running: false });
    for (const k of ['a', 'Enter', '.', 'Escape']) onPanelKey(key({ key: k }) as unknown as KeyboardEvent, t.on);
    expect(t.input).not.toHaveBeenCalled();
  });

  it('a key the full-screen trap took goes no further', () => {
    const t = targets({ running: true, trap: () => true });
    onPanelKey(key({ key: 'Escape', target: t.field }) as unknown as KeyboardEvent, t.on);
    expect(t.chat.stop).not.toHaveBeenCalled();
  });
});
