import { nothing } from 'lit-html';
import { describe, expect, it } from 'vitest';
import { chunk } from '../../src/lazy.js';
import type { PanelContext } from '../../src/panel/context.js';
import { Feature, RenderWaits } from '../../src/panel/feature.js';
import { FeatureUse, defineFeature, renderPlace } from '../../src/panel/spec.js';
import type { ChatMessage } from '../../src/state/messages.js';
import type { ConversationState } from '../../src/state/store.js';
import { settled } from './support/fakes.js';

/**
 * The registry's mechanics (src/panel/spec.ts), in Node: when a feature is fetched, when its
 * control is made, what a render waits for, and how a place gathers what the features show.
 */

/** A panel context with what `FeatureUse` reads: the element's settings, the conversation's state, chunks and waits. */
function panel(settings: Record<string, unknown> = {}) {
  const waits = new RenderWaits();
  const host = { renderRoot: {}, requestUpdate: () => {}, ...settings };
  const ctx = {
    host,
    view: { launcher: false },
    chat: { state: { messages: [] as ChatMessage[] } },
    feature: (load: never, saysFailure = false) => new Feature(load, host as never, waits, saysFailure ? null : new Set()),
  };
  return { ctx: ctx as unknown as PanelContext & { chat: { state: { messages: ChatMessage[] } } }, host, waits };
}

/** A feature whose chunk counts its fetches: its control renders a label under each reply, when `badge` is set. */
function badgeFeature() {
  const fetched = { count: 0 };
  const load = chunk(async () => {
    fetched.count++;
    return {
      Badge: class {
        constructor(readonly label: string) {}
      },
    };
  });
  const spec = defineFeature(load, (module) => new module.Badge('new')).with({
    on: ({ host }) => !!(host as unknown as { badge?: boolean }).badge,
    prefetch: ['turn'],
    needs: (m) => m.role === 'agent',
    wait: true,
    places: { replyControls: ({ control }, m) => (control && m.role === 'agent' ? control.label : nothing) },
  });
  return { spec, fetched };
}

const reply = { key: 'r1', role: 'agent', state: 'done', text: 'Hi' } as ChatMessage;
const changed = new Map() as never;
/** A state that shows `messages` (all a feature's `sync` reads). */
const showing = (...messages: ChatMessage[]) => ({ messages }) as unknown as ConversationState;

describe('the features registry', () => {
  it('a feature that is off is neither fetched nor made, whatever the conversation shows', async () => {
    const { spec, fetched } = badgeFeature();
    const { ctx } = panel({ badge: false });
    const use = new FeatureUse(spec, ctx);
    use.prefetch('turn');
    use.fetchForShown(showing(reply));
    use.willUpdate(changed);
    await settled();
    expect(fetched.count).toBe(0);
    expect(use.control).toBe(null);
    expect(use.render('replyControls', reply)).toBe(nothing);
  });

  it('a message that needs it fetches it, the next render waits for it, and its control is made once', async () => {
    const { spec, fetched } = badgeFeature();
    const { ctx, waits } = panel({ badge: true });
    const use = new FeatureUse(spec, ctx);
    use.fetchForShown(showing({ ...reply, role: 'user' }));
    expect(fetched.count).toBe(0);
    use.fetchForShown(showing(reply));
    expect(waits.list()).toHaveLength(1);
    await Promise.all(waits.list());
    use.willUpdate(changed);
    const control = use.control;
    use.willUpdate(changed);
    expect(use.control).toBe(control);
    expect(use.render('replyControls', reply)).toBe('new');
    expect(use.render('questionControls', reply)).toBe(nothing);
    expect(fetched.count).toBe(1);
  });

  it('turned on, it looks at the messages already shown; it is fetched ahead only at its moments', async () => {
    const { spec, fetched } = badgeFeature();
    const { ctx, host } = panel({ badge: false });
    ctx.chat.state.messages.push(reply);
    const use = new FeatureUse(spec, ctx);
    use.prefetch('transcript');
    await settled();
    expect(fetched.count).toBe(0);
    (host as { badge?: boolean }).badge = true;
    use.willUpdate(changed);
    await settled();
    expect(fetched.count).toBe(1);
  });

  it('a place shows nothing, one feature alone (no list around it), or each in the registry order', () => {
    const shows = (part: unknown) => ({ prefetch() {}, fetchForShown() {}, willUpdate() {}, render: () => part });
    expect(renderPlace([shows(nothing), shows(undefined)], 'replyControls', reply)).toBe(nothing);
    expect(renderPlace([shows(nothing)], 'editor', reply)).toBe(null);
    expect(renderPlace([shows(nothing), shows('copy')], 'replyControls', reply)).toBe('copy');
    expect(renderPlace([shows('copy'), shows(nothing), shows('regenerate')], 'replyControls', reply)).toEqual(['copy', 'regenerate']);
  });
});
