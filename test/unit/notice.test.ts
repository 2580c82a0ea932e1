import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { errorDetail, noticeFor } from '../../src/state/notice.js';

describe('notices', () => {
  const cases: Array<[string, ConstructorParameters<typeof ApiError>[0], string, 'send' | null]> = [
    ['network', { kind: 'network', message: 'x' }, 'network', 'send'],
    ['stalled stream', { kind: 'timeout', message: 'x' }, 'timeout', 'send'],
    ['expired credentials', { kind: 'auth', message: 'x', status: 401 }, 'auth', 'send'],
    [
      '422 with details',
      { kind: 'http', message: 'x', status: 422, details: [{ message: 'too long', field: 'text' }] },
      'validation',
      null,
    ],
    ['413', { kind: 'http', message: 'x', status: 413 }, 'validation', null],
    ['429', { kind: 'http', message: 'x', status: 429, retryAfterMs: 30_000 }, 'rate-limit', 'send'],
    ['502 page', { kind: 'http', message: 'x', status: 502 }, 'server', 'send'],
    ['error frame', { kind: 'stream', message: 'x', status: 503 }, 'stream', 'send'],
    ['malformed frame', { kind: 'protocol', message: 'x' }, 'stream', 'send'],
    ['404', { kind: 'http', message: 'x', status: 404 }, 'generic', 'send'],
    // The agent's model failed: worded for what happened, not as the visitor's fault or a cut-off reply.
    [
      'model busy (frame)',
      { kind: 'stream', message: 'x', status: 429, code: 'agents.model_rate_limited', mayHaveRun: true },
      'model-busy',
      'send',
    ],
    ['model busy (REST)', { kind: 'http', message: 'x', status: 429, code: 'agents.model_rate_limited' }, 'model-busy', 'send'],
    [
      'model unreachable',
      { kind: 'stream', message: 'x', status: 503, code: 'agents.model_unavailable', mayHaveRun: true },
      'model-unavailable',
      'send',
    ],
    ['model refused', { kind: 'stream', message: 'x', status: 502, code: 'agents.model_error', mayHaveRun: true }, 'model-failed', 'send'],
    ['model cut off', { kind: 'stream', message: 'x', status: 502, code: 'agents.model_interrupted', mayHaveRun: true }, 'stream', 'send'],
  ];
  for (const [name, init, kind, retry] of cases) {
    it(`${name} -> ${kind}${retry ? ' with retry' : ', no retry'}`, () => {
      const notice = noticeFor(new ApiError(init), 'send');
      expect(notice.kind).to.equal(kind);
      expect(notice.retry).to.equal(retry);
    });
  }

  it('lists the envelope details by field and says when to retry', () => {
    const notice = noticeFor(
      new ApiError({
        kind: 'http',
        message: 'x',
        status: 429,
        retryAfterMs: 5000,
        details: [
          { message: 'slow down', field: null },
          { message: 'too long', field: 'text' },
        ],
      }),
      'send',
    );
    expect(notice.details).to.deep.equal(['slow down', 'text: too long']);
    expect(notice.retryAt! - Date.now()).to.be.within(4000, 5000);
  });

  it('reports a malformed stream to the host as a stream error', () => {
    expect(errorDetail(new ApiError({ kind: 'protocol', message: 'bad frame' }))).to.include({ code: 'stream', retryable: false });
    expect(
      errorDetail(new ApiError({ kind: 'http', message: 'x', status: 500, code: 'internal_error', requestId: 'req_1' })),
    ).to.deep.equal({
      code: 'internal_error',
      message: 'x',
      status: 500,
      requestId: 'req_1',
      retryable: true,
    });
  });
});
