import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { developerNote, errorDetail, noticeFor } from '../../src/state/notice.js';

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
    // The service does not serve this page's origin: the site's setup, which a retry does not change.
    ['refused origin (exchange)', { kind: 'auth', message: 'x', status: 403, code: 'cors.origin_not_allowed' }, 'config', null],
    ['refused origin', { kind: 'http', message: 'x', status: 403, code: 'cors.origin_not_allowed' }, 'config', null],
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

  it("tells the developer the service's own words where the notice cannot: a model's failure, a refused origin", () => {
    const refused = new ApiError({
      kind: 'http',
      status: 403,
      code: 'cors.origin_not_allowed',
      message: 'Pages on http://shop.test may not call this server (ALLOWED_ORIGINS).',
    });
    expect(developerNote(refused, 'config')).toMatch(
      /^the service refused pages on .+ \(cors\.origin_not_allowed\): add .+ to the origins it allows \(ALLOWED_ORIGINS for agent-chat-server\)\. It said: Pages on http:\/\/shop\.test/,
    );
    const model = new ApiError({ kind: 'stream', status: 429, code: 'agents.model_rate_limited', message: 'busy', mayHaveRun: true });
    expect(developerNote(model, 'model-busy')).toBe("the agent's model failed the reply (agents.model_rate_limited): busy");
    expect(developerNote(new ApiError({ kind: 'network', message: 'x' }), 'network')).toBe(null);
  });
});
