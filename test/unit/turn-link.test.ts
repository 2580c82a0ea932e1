import { afterEach, describe, expect, it, vi } from 'vitest';
import { TurnLink, lockName } from '../../src/continuity/tabs.js';
import type { RunningTurn } from '../../src/continuity/running-turn.js';
import { FakeLocks, installLocks } from './support/locks.js';

/**
 * Which of several tabs sending at once runs its turn (docs/protocol.md "Tabs share one
 * conversation"): the one that gets the scope's lock, unless another tab's turn was heard
 * while it waited or storage moved on since its request was built. Every "tab" here is a
 * TurnLink of its own on one fake LockManager and Node's BroadcastChannel.
 */
const SCOPE = 'unit-scope';
const record: RunningTurn = { body: { text: 'q', user_id: 'u' }, threadId: null, lastSeq: 0, text: '', after: null, startedAt: Date.now() };
const open = (free = () => true, current: () => RunningTurn | null = () => record) =>
  TurnLink.open(SCOPE, current, () => undefined, false, free);
const links: TurnLink[] = [];

afterEach(() => {
  for (const link of links.splice(0)) link.leave();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('tabs sending at the same instant', () => {
  it('one link opens; the others hear its turn and give up at once', async () => {
    // The lock wait's timer never runs here: the others can only have given up on hearing the turn.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const locks = installLocks(vi.stubGlobal);
    const opening = [open(), open(), open()];
    const winner = await opening[0]!;
    expect(winner).toBeInstanceOf(TurnLink);
    links.push(winner!);
    winner!.announce();
    expect(await Promise.all(opening.slice(1))).toEqual([null, null]);
    expect(locks.isHeld(lockName(SCOPE))).toBe(true);
    winner!.end('done', null);
    await vi.waitFor(() => expect(locks.isHeld(lockName(SCOPE))).toBe(false));
  });

  it('a lock let go of silently within the wait (a mirroring tab) is taken', async () => {
    const locks = installLocks(vi.stubGlobal);
    let release!: () => void;
    void locks.request(lockName(SCOPE), {}, () => new Promise<void>((r) => (release = r)));
    const opening = open();
    await new Promise((r) => setImmediate(r));
    release();
    const link = await opening;
    expect(link).toBeInstanceOf(TurnLink);
    links.push(link!);
  });

  it('granted after storage moved on (another thread, another turn stored): given up, the lock let go', async () => {
    const locks = installLocks(vi.stubGlobal);
    let release!: () => void;
    void locks.request(lockName(SCOPE), {}, () => new Promise<void>((r) => (release = r)));
    const opening = open(() => false);
    release();
    expect(await opening).toBe(null);
    await vi.waitFor(() => expect(locks.isHeld(lockName(SCOPE))).toBe(false));
  });

  it('a lock held past the wait: given up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const locks = installLocks(vi.stubGlobal);
    void locks.request(lockName(SCOPE), {}, () => new Promise<void>(() => undefined));
    let result: TurnLink | null | undefined;
    void open().then((link) => (result = link));
    await vi.advanceTimersByTimeAsync(999);
    expect(result).toBe(undefined);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(null);
  });

  it('held already (taking over a turn): opens without asking', async () => {
    const locks = installLocks(vi.stubGlobal, new FakeLocks());
    void locks.request(lockName(SCOPE), {}, () => new Promise<void>(() => undefined));
    const link = await TurnLink.open(
      SCOPE,
      () => record,
      () => undefined,
      true,
      () => false,
    );
    expect(link).toBeInstanceOf(TurnLink);
    links.push(link!);
  });

  it('without Web Locks only storage decides', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    const link = await open();
    expect(link).toBeInstanceOf(TurnLink);
    links.push(link!);
    expect(await open(() => false)).toBe(null);
  });
});
