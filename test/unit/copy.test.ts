import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyReply } from '../../src/copy/copy.js';
import type { PanelContext } from '../../src/panel/context.js';
import type { ChatMessage } from '../../src/state/messages.js';
import { settled } from './support/fakes.js';

/**
 * The copy button in Node (src/copy/): "Copied" is a state shown in one message, so a copy
 * renders that message again and no other (the log re-renders a message when its `marks`
 * change, src/log/log.ts; every message only when the panel's `revision` does).
 */
function panel() {
  const actions = new Map<string, (m: ChatMessage) => void>();
  const touched: string[][] = [];
  const announced: string[] = [];
  let renders = 0;
  const ctx = {
    host: { requestUpdate: () => void renders++ },
    text: { copied: 'Copied', copyReply: 'Copy reply', copyFailed: 'Could not copy' },
    onMessageAction: (name: string, act: (m: ChatMessage) => void) => void actions.set(name, act),
    announce: (text: string) => void announced.push(text),
    renders: { touched: (keys: ReadonlyArray<string | null | undefined>) => void touched.push(keys.filter((k): k is string => !!k)) },
  };
  return { ctx: ctx as unknown as PanelContext, actions, touched, announced, renders: () => renders };
}

const reply = (key: string) => ({ key, role: 'agent', state: 'done', text: `Reply ${key}` }) as ChatMessage;

describe('copy a reply', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('"Copied" marks the copied reply for rendering, then marks it again when it goes; the rest of the log is left alone', async () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    vi.stubGlobal('navigator', { clipboard: { writeText: async (text: string) => void writes.push(text) } });
    const { ctx, actions, touched, announced, renders } = panel();
    const copy = new CopyReply(ctx);
    actions.get('copy')!(reply('r2'));
    await settled();
    expect(writes).toEqual(['Reply r2']);
    expect(touched).toEqual([['r2']]);
    expect(renders(), 'no render of the whole widget').toBe(0);
    expect(announced).toEqual(['Copied']);
    expect(JSON.stringify(copy.render(reply('r2')).values)).toContain('Copied');
    expect(JSON.stringify(copy.render(reply('r1')).values)).not.toContain('Copied');

    // Another reply copied meanwhile: the label leaves r2 and goes to r3, both render again.
    actions.get('copy')!(reply('r3'));
    await settled();
    expect(touched.at(-1)).toEqual(['r2', 'r3']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(touched.at(-1)).toEqual(['r3']);
    expect(renders()).toBe(0);
  });
});
