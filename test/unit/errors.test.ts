import { describe, expect, it } from 'vitest';
import { ApiError, isApiError, parseRetryAfter } from '../../src/client/index.js';
import { errorFromResponse } from '../../src/client/errors.js';

describe('ApiError', () => {
  it('derives code and retryable from kind and status', () => {
    const e502 = new ApiError({ kind: 'http', status: 502, message: 'x' });
    expect(e502.code).to.equal('http_502');
    expect(e502.retryable).to.equal(true);
    expect(new ApiError({ kind: 'http', status: 422, message: 'x' }).retryable).to.equal(false);
    expect(new ApiError({ kind: 'http', status: 429, message: 'x' }).retryable).to.equal(true);
    expect(new ApiError({ kind: 'http', status: 408, message: 'x' }).retryable).to.equal(true);
    expect(new ApiError({ kind: 'network', message: 'x' }).code).to.equal('network');
    expect(new ApiError({ kind: 'network', message: 'x' }).retryable).to.equal(true);
    expect(new ApiError({ kind: 'timeout', message: 'x' }).retryable).to.equal(true);
    expect(new ApiError({ kind: 'abort', message: 'x' }).retryable).to.equal(false);
    expect(new ApiError({ kind: 'protocol', message: 'x' }).retryable).to.equal(false);
    expect(new ApiError({ kind: 'auth', status: 401, message: 'x' }).retryable).to.equal(false);
    expect(new ApiError({ kind: 'stream', message: 'x' }).retryable).to.equal(true);
    expect(new ApiError({ kind: 'stream', status: 400, message: 'x' }).retryable).to.equal(false);
  });

  it('is recognised by isApiError and is an Error', () => {
    const e = new ApiError({ kind: 'abort', message: 'cancelled' });
    expect(isApiError(e)).to.equal(true);
    expect(e).to.be.instanceOf(Error);
    expect(e.details).to.deep.equal([]);
    expect(e.requestId).to.equal(null);
    expect(isApiError(new Error('x'))).to.equal(false);
    expect(isApiError({ kind: 'http' })).to.equal(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3')).to.equal(3000);
    expect(parseRetryAfter(' 0 ')).to.equal(0);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).to.equal(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).to.equal(0);
  });
  it('ignores absent or invalid values', () => {
    expect(parseRetryAfter(null)).to.equal(null);
    expect(parseRetryAfter('soon')).to.equal(null);
    expect(parseRetryAfter('-1')).to.equal(null);
  });
});

// A Response value built here is the input of a pure function, not a fetch stub.
describe('errorFromResponse', () => {
  const envelope = {
    error: {
      code: 'validation_error',
      message: 'Invalid',
      request_id: 'req_1',
      details: [{ message: 'required', field: 'text' }, { message: 'bad' }],
    },
  };

  it('reads the envelope: code, request id, details; message shown as is', () => {
    const res = new Response(null, { status: 422, headers: { 'x-request-id': 'hdr' } });
    const e = errorFromResponse(res, JSON.stringify(envelope));
    expect(e.kind).to.equal('http');
    expect(e.status).to.equal(422);
    expect(e.code).to.equal('validation_error');
    expect(e.requestId).to.equal('req_1');
    expect(e.details).to.deep.equal([
      { message: 'required', field: 'text' },
      { message: 'bad', field: null },
    ]);
    expect(e.retryable).to.equal(false);
    expect(e.message).to.equal('Invalid');
  });

  it('falls back to the x-request-id header and empty details', () => {
    const res = new Response(null, { status: 404, headers: { 'x-request-id': 'hdr' } });
    const body = { error: { code: 'not_found', message: 'nope', request_id: null, details: null } };
    const e = errorFromResponse(res, JSON.stringify(body));
    expect(e.requestId).to.equal('hdr');
    expect(e.details).to.deep.equal([]);
  });

  it('turns a non-JSON body into http_<status> with a readable message', () => {
    const res = new Response(null, { status: 502, headers: { 'retry-after': '2' } });
    const e = errorFromResponse(res, '<html><body><h1>502 Bad Gateway</h1></body></html>');
    expect(e.kind).to.equal('http');
    expect(e.code).to.equal('http_502');
    expect(e.retryable).to.equal(true);
    expect(e.retryAfterMs).to.equal(2000);
    expect(e.message).to.match(/unavailable/i);
    expect(e.message).not.to.contain('<');
  });

  it('treats JSON without an envelope like any other body', () => {
    const e = errorFromResponse(new Response(null, { status: 500 }), '{"detail":"boom"}');
    expect(e.code).to.equal('http_500');
  });

  it('makes auth errors with code auth when there is no envelope', () => {
    const e = errorFromResponse(new Response(null, { status: 401 }), '', 'auth');
    expect(e.kind).to.equal('auth');
    expect(e.code).to.equal('auth');
    expect(e.retryable).to.equal(false);
  });
});
