import { describe, expect, it } from 'vitest';
import { RenderWaits } from '../../src/panel/feature.js';

// What a widget's next render waits for (src/panel/feature.ts): the chunks on their way that
// a feature asked it to wait for, each once however often it is asked, gone once settled.

describe('the waits of a render', () => {
  it('holds a load once however often it is asked for, and lets it go when it settles, failed or not', async () => {
    const waits = new RenderWaits();
    let arrive!: () => void;
    let fail!: (e: Error) => void;
    const arriving = new Promise<void>((resolve) => (arrive = resolve));
    const failing = new Promise<void>((_, reject) => (fail = reject));
    waits.add(arriving);
    waits.add(arriving);
    waits.add(failing);
    expect(waits.list()).toHaveLength(2);
    arrive();
    fail(new Error('404'));
    await Promise.all(waits.list());
    await Promise.resolve();
    expect(waits.list()).toHaveLength(0);
    // A later load of the same chunk is a new promise: waited for again.
    waits.add(Promise.resolve());
    expect(waits.list()).toHaveLength(1);
  });
});
