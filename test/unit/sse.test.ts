import { describe, expect, it } from 'vitest';
import { isApiError, readFrames, type ApiError, type DataFrame, type ReadOutcome, type UnknownFrame } from '../../src/client/index.js';
import { MAX_FRAME } from '../../src/client/sse.js';

const enc = new TextEncoder();

/** A body that yields exactly these chunks: the reader's input, as fetch would hand it over. */
function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

function splitAt(bytes: Uint8Array, ...cuts: number[]): Uint8Array[] {
  const points = [0, ...cuts, bytes.length];
  return points.slice(1).map((end, k) => bytes.slice(points[k], end));
}

interface Collected {
  frames: DataFrame[];
  unknown: UnknownFrame[];
  activity: number;
  outcome: ReadOutcome;
}

async function collect(chunks: Uint8Array[]): Promise<Collected> {
  const out = { frames: [] as DataFrame[], unknown: [] as UnknownFrame[], activity: 0 };
  const outcome = await readFrames(bodyOf(chunks), {
    onFrame: (f) => void out.frames.push(f),
    onUnknownFrame: (f) => out.unknown.push(f),
    onActivity: () => out.activity++,
  });
  return { ...out, outcome };
}

async function failure(chunks: Uint8Array[]): Promise<ApiError> {
  try {
    await collect(chunks);
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the reader to reject');
}

const sse = (s: string): Uint8Array[] => [enc.encode(s)];

const message = {
  id: '65f0c0ffee0000000000beef',
  text: 'Grüße 👋🏽 你好',
  sender: { type: 'agent' },
  cards: [],
  followup_suggestions: [],
};

// A recorded turn with everything the reader must cope with: CRLF and LF line ends,
// comments (keepalives), a multi-line data field, an unknown frame, an SSE `id:` field,
// and 2-, 3- and 4-byte UTF-8 characters, closed by [DONE].
const RECORDED =
  ': keepalive\r\n\r\n' +
  'data: {"type":"thread","data":{"thread_id":"65f0c0ffee0000000000aaaa"}}\r\n\r\n' +
  'data: {"type":"event","seq":1,"data":{"text":"Grüße "}}\n\n' +
  ':comment without space\n' +
  'id: 2\n' +
  'data: {"type":"event","seq":2,\n' +
  'data:  "data":{"text":"👋🏽 "}}\n\n' +
  'data: {"type":"progress","seq":3,"data":{"step":"search"}}\r\n\r\n' +
  'data: {"type":"event","seq":4,"data":{"text":"你好"}}\r\r' +
  `data: ${JSON.stringify({ type: 'message', seq: 5, data: message })}\n\n` +
  'data: [DONE]\n\n';

function checkRecorded(c: Collected): void {
  expect(c.outcome).to.equal('done');
  expect(c.frames.map((f) => f.type)).to.deep.equal(['thread', 'event', 'event', 'event', 'message']);
  const text = c.frames.flatMap((f) => (f.type === 'event' ? [f.data.text] : [])).join('');
  expect(text).to.equal('Grüße 👋🏽 你好');
  const last = c.frames[4];
  expect(last?.type === 'message' && last.data).to.deep.equal(message);
  expect(c.unknown).to.deep.equal([{ type: 'progress', seq: 3, data: { step: 'search' } }]);
  expect(c.activity).to.be.greaterThanOrEqual(8);
}

describe('readFrames', () => {
  const bytes = enc.encode(RECORDED);

  it('reads a recorded turn in one chunk', async () => {
    checkRecorded(await collect([bytes]));
  });

  it('reads a burst of thousands of frames in one chunk, in slices with tasks between, losing none', async () => {
    // Frames of uneven length, so that slice ends fall inside frames, inside JSON strings.
    const texts = Array.from({ length: 3_000 }, (_, i) => `token ${i} ${'é'.repeat(i % 7)}`);
    const burst = texts.map((text, i) => `data: ${JSON.stringify({ type: 'event', seq: i + 1, data: { text } })}\n\n`).join('');
    expect(burst.length).toBeGreaterThan(4 * 16_384);
    // Tasks that ran while the burst was read: a MessageChannel tick is queued at every one.
    let ticks = 0;
    let reading = true;
    const ticker = new MessageChannel();
    ticker.port1.onmessage = () => {
      ticks++;
      if (reading) ticker.port2.postMessage(null);
    };
    ticker.port2.postMessage(null);
    const c = await collect([enc.encode(burst + 'data: [DONE]\n\n')]);
    reading = false;
    ticker.port1.close();
    expect(c.frames.map((f) => (f.type === 'event' ? f.data.text : ''))).toEqual(texts);
    expect(c.outcome).toBe('done');
    expect(ticks, 'tasks between the slices').toBeGreaterThanOrEqual(3);
  });

  it('reads the recorded turn split into two chunks at every byte position', async () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      try {
        checkRecorded(await collect(splitAt(bytes, cut)));
      } catch (e) {
        throw new Error(`split at byte ${cut}: ${(e as Error).message}`);
      }
    }
  });

  it('reads the recorded turn one byte at a time', async () => {
    checkRecorded(await collect(Array.from(bytes, (b) => Uint8Array.of(b))));
  });

  it('reads it split at three positions inside multibyte characters', async () => {
    const emoji = RECORDED.indexOf('👋');
    const prefix = enc.encode(RECORDED.slice(0, emoji)).length;
    const chunks = splitAt(bytes, prefix + 1, prefix + 2, prefix + 3);
    checkRecorded(await collect(chunks));
  });

  it('reports eof when the body ends without [DONE], dropping a partial frame', async () => {
    const partial = RECORDED.slice(0, RECORDED.indexOf('data: {"type":"event","seq":4') + 20);
    const c = await collect(sse(partial));
    expect(c.outcome).to.equal('eof');
    expect(c.frames.map((f) => f.type)).to.deep.equal(['thread', 'event', 'event']);
  });

  it('stops at [DONE] and releases the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode('data: {"type":"thread","data":{"thread_id":"65f0c0ffee0000000000aaaa"}}\n\ndata: [DONE]\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const outcome = await readFrames(body, { onFrame: () => {} });
    expect(outcome).to.equal('done');
    expect(body.locked).to.equal(false);
    expect(cancelled).to.equal(true);
  });

  it('ignores frames after [DONE]', async () => {
    const c = await collect(sse('data: [DONE]\n\ndata: {"type":"event","seq":1,"data":{"text":"x"}}\n\n'));
    expect(c.outcome).to.equal('done');
    expect(c.frames).to.deep.equal([]);
  });

  it('tolerates event frames without text (work in progress)', async () => {
    const c = await collect(sse('data: {"type":"event","seq":1,"data":{"tool":"search"}}\n\ndata: [DONE]\n\n'));
    expect(c.frames).to.have.length(1);
  });
});

describe('readFrames: malformed frames', () => {
  it('rejects invalid JSON with a protocol error', async () => {
    const e = await failure(sse('data: {"type":"thread","data":{"thread_id":"65f0c0ffee0000000000aaaa"}}\n\ndata: {not json\n\n'));
    expect(e.kind).to.equal('protocol');
    expect(e.code).to.equal('protocol');
    expect(e.message).to.match(/not valid JSON/);
    expect(e.retryable).to.equal(false);
  });

  it('rejects a frame without type', async () => {
    expect((await failure(sse('data: {"seq":1,"data":{}}\n\n'))).kind).to.equal('protocol');
  });

  it('rejects JSON that is not an object', async () => {
    expect((await failure(sse('data: [1,2]\n\n'))).kind).to.equal('protocol');
    expect((await failure(sse('data: "text"\n\n'))).kind).to.equal('protocol');
  });

  it('rejects known frames with non-object data', async () => {
    expect((await failure(sse('data: {"type":"event","seq":1,"data":"hi"}\n\n'))).kind).to.equal('protocol');
    expect((await failure(sse('data: {"type":"thread"}\n\n'))).kind).to.equal('protocol');
  });

  it('rejects sequenced frames without seq, and messages that are not objects', async () => {
    expect((await failure(sse('data: {"type":"event","data":{"text":"a"}}\n\n'))).kind).to.equal('protocol');
    expect((await failure(sse('data: {"type":"message","seq":2,"data":"a"}\n\n'))).kind).to.equal('protocol');
  });

  it('reads an odd message leniently: missing fields empty, bad cards and suggestions left out', async () => {
    const data = {
      text: 'a',
      cards: [null, 7, { json_data: { entity: { title: 'T', nested: { x: 1 } } } }],
      followup_suggestions: ['ok', 3, ''],
    };
    const { frames } = await collect(sse(`data: ${JSON.stringify({ type: 'message', seq: 2, data })}\n\n`));
    expect(frames[0]!.data).to.deep.equal({
      id: '',
      text: 'a',
      sender: { type: 'agent' },
      cards: [{ json_data: { entity: { title: 'T' }, sub_entities: [] } }],
      followup_suggestions: ['ok'],
    });
  });

  it('rejects a thread frame whose id is not 24 hex digits', async () => {
    for (const id of ['t', '65f0c0ffee0000000000aaa', '65f0c0ffee0000000000aaaz', '../../etc', 42]) {
      const e = await failure(sse(`data: ${JSON.stringify({ type: 'thread', data: { thread_id: id } })}\n\n`));
      expect(e.kind, String(id)).to.equal('protocol');
    }
  });

  it('rejects a seq that is not a safe integer (1e308 would swallow every later frame)', async () => {
    for (const seq of [1e308, 2 ** 53, 1.5, 0, -1]) {
      const e = await failure(sse(`data: {"type":"event","seq":${seq},"data":{"text":"a"}}\n\n`));
      expect(e.kind, String(seq)).to.equal('protocol');
    }
  });

  it("cuts a frame that never ends at MAX_FRAME: a protocol error, not the page's memory", async () => {
    const chunk = enc.encode('x'.repeat(65_536));
    const chunks = [
      enc.encode('data: {"type":"event","seq":1,"data":{"text":"'),
      ...Array.from({ length: Math.ceil(MAX_FRAME / 65_536) + 1 }, () => chunk),
    ];
    expect((await failure(chunks)).message).to.match(/too large/);
    // Many small frames in large reads are not one large frame.
    const small = `data: {"type":"event","seq":1,"data":{"text":"${'y'.repeat(1000)}"}}\n\n`;
    const read = await collect([enc.encode(small.repeat(Math.ceil((MAX_FRAME * 1.5) / small.length))), enc.encode('data: [DONE]\n\n')]);
    expect(read.outcome).to.equal('done');
  });

  it('releases the body after a protocol error', async () => {
    const body = bodyOf(sse('data: nope\n\ndata: [DONE]\n\n'));
    await readFrames(body, { onFrame: () => {} }).catch(() => {});
    expect(body.locked).to.equal(false);
  });
});

describe('readFrames: error frames', () => {
  const frame = (data: object): Uint8Array[] =>
    sse(
      `data: {"type":"thread","data":{"thread_id":"65f0c0ffee0000000000aaaa"}}\n\ndata: ${JSON.stringify({ type: 'error', data })}\n\ndata: [DONE]\n\n`,
    );

  it('reads the status from data.status', async () => {
    const e = await failure(frame({ message: 'Upstream failed', status: 503 }));
    expect(e).to.include({ kind: 'stream', status: 503, code: 'stream', retryable: true, message: 'Upstream failed' });
  });

  it('reads the status from data.status_code', async () => {
    const e = await failure(frame({ message: 'Bad input', status_code: 400 }));
    expect(e).to.include({ kind: 'stream', status: 400, code: 'stream', retryable: false });
  });

  it('reads a numeric data.code as the status', async () => {
    const e = await failure(frame({ message: 'Busy', code: 429 }));
    expect(e).to.include({ kind: 'stream', status: 429, retryable: true });
    const e2 = await failure(frame({ message: 'Busy', code: '500' }));
    expect(e2).to.include({ status: 500, code: 'stream' });
  });

  it('treats a string data.code as the machine code, not the status', async () => {
    const e = await failure(frame({ message: 'Slow down', code: 'rate_limited', status: 429 }));
    expect(e).to.include({ kind: 'stream', status: 429, code: 'rate_limited' });
    const e2 = await failure(frame({ message: 'Oops', code: 'agent.failed' }));
    expect(e2).to.include({ status: null, code: 'agent.failed' });
  });

  it('reads the wait (`retry_after`, seconds, as over HTTP) and the request id', async () => {
    const e = await failure(
      frame({ message: 'Busy', code: 'agents.model_rate_limited', status: 429, retry_after: 20, request_id: 'req_1' }),
    );
    expect(e).to.include({ status: 429, code: 'agents.model_rate_limited', retryAfterMs: 20_000, requestId: 'req_1' });
    expect((await failure(frame({ status: 429, retry_after: '7' }))).retryAfterMs).to.equal(7000);
    for (const odd of [-1, 'soon', null, {}, 1.5])
      expect((await failure(frame({ status: 429, retry_after: odd }))).retryAfterMs, String(odd)).to.equal(null);
  });

  it('gives a readable message when the frame has none', async () => {
    const e = await failure(frame({}));
    expect(e.message).to.match(/reply failed/i);
    expect(e.retryable).to.equal(true);
  });
});
