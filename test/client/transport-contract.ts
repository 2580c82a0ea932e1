import { expect } from '@open-wc/testing';
import type { AgentClient, ApiError, StreamHandlers, StreamOptions, StreamResult, UnknownFrame } from '../../src/client/index.js';
import type { SendMessageBody } from '../../src/client/types.js';
import type { FaultPlan, KeyStats } from '../../server/src/faults/plan.js';
import { REPLY, keyStats, rejection, setup } from './helpers.js';

/**
 * What every streaming transport promises (docs/protocol.md "Streaming"), as one suite:
 * SSE (test/client/stream.test.ts) and the WebSocket session (websocket.test.ts) run it
 * with their own way in and their own view of the requests; each file keeps only what is
 * its transport's own. The reference server drops, stalls and breaks the streams on cue
 * (server/src/faults/plan.ts).
 */
export interface Transport {
  name: string;
  /** One turn over this transport. */
  run(client: AgentClient, body: SendMessageBody, handlers: StreamHandlers, opts?: StreamOptions): Promise<StreamResult>;
  /** The turn and resume requests the server saw over this transport, in order. */
  requests(stats: KeyStats): KeyStats['requests'];
  /** What the first request of a turn carried. */
  firstRequest(body: SendMessageBody): unknown;
  /** What a resume request carried: the turn's thread and the last seq the client had. */
  resumeRequest(body: SendMessageBody, threadId: string, lastSeq: number): unknown;
}

const USER = 'user-contract-test';
// No backoff: a hidden page's timers are throttled to ~1 s (backoffDelay has its own tests).
export const FAST = { backoffMs: 0 };

/** Records what a UI would see of one streamed turn. */
export function recorder() {
  const rec = {
    threads: [] as string[],
    text: '',
    seqs: [] as number[],
    messages: 0,
    reconnects: [] as Array<{ attempt: number; error: ApiError; lastSeq: number }>,
    unknown: [] as UnknownFrame[],
  };
  const handlers: StreamHandlers = {
    onThread: (id) => rec.threads.push(id),
    onToken: (t, seq) => {
      rec.text += t;
      rec.seqs.push(seq);
    },
    onMessage: (_m, seq) => {
      rec.messages++;
      rec.seqs.push(seq);
    },
    onReconnecting: (attempt, error) => rec.reconnects.push({ attempt, error, lastSeq: rec.seqs.at(-1) ?? 0 }),
    onUnknownFrame: (f) => rec.unknown.push(f),
  };
  return { rec, handlers };
}

export function transportContract(t: Transport): void {
  const body = (text: string): SendMessageBody => ({ text, user_id: USER });

  async function resumeCase(dropAfter: number[], extra: FaultPlan = {}): Promise<void> {
    const { client, key } = await setup({ dropAfter, ...extra });
    const { rec, handlers } = recorder();
    const sent = body('Resume me');
    const result = await t.run(client, sent, handlers, FAST);

    expect(rec.text).to.equal(REPLY);
    expect(result.message?.text).to.equal(REPLY);
    expect(rec.threads).to.deep.equal([result.threadId]);
    expect(rec.messages).to.equal(1);
    // Strictly increasing: no delta was delivered twice.
    rec.seqs.forEach((s, i) => i > 0 && expect(s).to.be.greaterThan(rec.seqs[i - 1]!));
    expect(rec.reconnects.map((r) => r.attempt)).to.deep.equal(dropAfter.map((_, i) => i + 1));
    rec.reconnects.forEach((r) => expect(r.error).to.include({ retryable: true }));

    const stats = await keyStats(key);
    expect(stats.turnsRun).to.equal(1);
    const reqs = t.requests(stats);
    expect(reqs).to.have.length(dropAfter.length + 1);
    expect(reqs[0]?.lastEventId).to.equal(null);
    expect(reqs[0]?.body).to.deep.equal(t.firstRequest(sent));
    reqs.slice(1).forEach((r, i) => {
      const last = rec.reconnects[i]!.lastSeq;
      expect(r.lastEventId, `last event id of resume ${i + 1}`).to.equal(String(last));
      expect(r.body).to.deep.equal(t.resumeRequest(sent, result.threadId, last));
    });
  }

  describe(`${t.name}: resuming a dropped turn`, () => {
    it('resumes a drop right after the thread frame from seq 0', () => resumeCase([1]));
    it('resumes a drop after the first delta', () => resumeCase([2]));
    it('resumes a drop in the middle of the turn', () => resumeCase([5]));
    // REPLY is 13 words: thread + 13 deltas = 14 frames.
    it('resumes a drop after the last delta, before the message', () => resumeCase([14]));
    it('resumes several drops in a row', () => resumeCase([3, 2, 4, 1]));
    it('resumes with one character per frame (multibyte characters split across frames)', () => resumeCase([4, 6], { chunkChars: 1 }));

    it('gives up after maxRetries and reports the drop', async () => {
      const { client, key } = await setup({ dropAfter: [2, 2, 2, 2, 2, 2] });
      const { rec, handlers } = recorder();
      const e = await rejection(t.run(client, body('Never'), handlers, { ...FAST, maxRetries: 2 }));
      expect(e).to.include({ kind: 'stream', code: 'stream', retryable: true });
      expect(rec.reconnects.map((r) => r.attempt)).to.deep.equal([1, 2]);
      expect(t.requests(await keyStats(key))).to.have.length(3);
    });

    it('treats a stalled turn as a drop after idleTimeoutMs and resumes it', async () => {
      const { client, key } = await setup({ stallAfter: 3 });
      const { rec, handlers } = recorder();
      const result = await t.run(client, body('Stall'), handlers, { ...FAST, idleTimeoutMs: 800 });
      expect(result.message?.text).to.equal(REPLY);
      expect(rec.text).to.equal(REPLY);
      expect(rec.reconnects).to.have.length(1);
      expect(rec.reconnects[0]?.error.kind).to.equal('timeout');
      const stats = await keyStats(key);
      expect(stats.turnsRun).to.equal(1);
      expect(t.requests(stats)[1]?.lastEventId).to.equal(String(rec.reconnects[0]!.lastSeq));
    });

    it('reports a timeout when a stalled turn cannot be resumed', async () => {
      const { client } = await setup({ stallAfter: 2 });
      const e = await rejection(t.run(client, body('Stall'), {}, { ...FAST, idleTimeoutMs: 200, maxRetries: 0 }));
      expect(e).to.include({ kind: 'timeout', code: 'timeout' });
    });
  });

  describe(`${t.name}: a turn that fails`, () => {
    for (const statusField of ['status', 'status_code', 'code'] as const) {
      it(`ends with a stream error read from data.${statusField}, without resuming`, async () => {
        const { client, key } = await setup({ errorFrame: { after: 3, status: 503, statusField, message: 'Agent crashed' } });
        const { rec, handlers } = recorder();
        const e = await rejection(t.run(client, body('Fail'), handlers, FAST));
        expect(e).to.include({ kind: 'stream', status: 503, retryable: true, message: 'Agent crashed' });
        expect(rec.reconnects).to.have.length(0);
        expect(t.requests(await keyStats(key))).to.have.length(1);
      });
    }

    it('marks an error frame with a client status as not retryable', async () => {
      const { client } = await setup({ errorFrame: { after: 2, status: 400, statusField: 'status_code' } });
      const e = await rejection(t.run(client, body('Fail'), {}, FAST));
      expect(e).to.include({ kind: 'stream', status: 400, retryable: false });
    });

    it('rejects a malformed frame with a protocol error and does not retry', async () => {
      const { client, key } = await setup({ malformedAfter: 3 });
      const e = await rejection(t.run(client, body('Bad'), {}, FAST));
      expect(e).to.include({ kind: 'protocol', code: 'protocol' });
      expect(t.requests(await keyStats(key))).to.have.length(1);
    });

    it('passes unknown frames on and keeps the text intact', async () => {
      const { client } = await setup({ unknownFrameAfter: 2 });
      const { rec, handlers } = recorder();
      await t.run(client, body('Unknown'), handlers, FAST);
      expect(rec.text).to.equal(REPLY);
      expect(rec.unknown.map((f) => f.type)).to.deep.equal(['progress']);
    });

    it('rejects with the exception a handler threw, without resuming', async () => {
      const { client, key } = await setup();
      const bug = new Error('handler bug');
      let caught: unknown;
      const handlers = {
        onToken: () => {
          throw bug;
        },
      };
      await t.run(client, body('Bug'), handlers, FAST).catch((e: unknown) => (caught = e));
      expect(caught).to.equal(bug);
      expect(t.requests(await keyStats(key))).to.have.length(1);
    });
  });

  describe(`${t.name}: stopping a turn`, () => {
    it('rejects with abort when cancelled mid-turn, and stops', async () => {
      const { client, key } = await setup({ paceMs: 30 });
      const ctrl = new AbortController();
      let tokens = 0;
      const e = await rejection(
        t.run(client, body('Cancel'), { onToken: () => void (++tokens === 2 && ctrl.abort()) }, { ...FAST, signal: ctrl.signal }),
      );
      expect(e).to.include({ kind: 'abort', code: 'abort' });
      expect(tokens).to.equal(2);
      // The call has ended: no resume can follow it.
      expect(t.requests(await keyStats(key))).to.have.length(1);
    });

    it('rejects with abort when cancelled during the backoff', async () => {
      const { client, key } = await setup({ dropAfter: [2] });
      const ctrl = new AbortController();
      const e = await rejection(
        t.run(client, body('Cancel'), { onReconnecting: () => ctrl.abort() }, { backoffMs: 5000, signal: ctrl.signal }),
      );
      expect(e.kind).to.equal('abort');
      expect(t.requests(await keyStats(key))).to.have.length(1);
    });

    it('rejects with abort at once for an already aborted signal', async () => {
      const { client } = await setup();
      const e = await rejection(t.run(client, body('x'), {}, { signal: AbortSignal.abort() }));
      expect(e.kind).to.equal('abort');
    });
  });
}
