import { expect } from '@open-wc/testing';
import { advanceClocks, createKey, keyStats, longThread, replied } from '../support/server.js';
import { $, agentTexts, input, mount, sendByUser, type, unmountAll, until } from '../support/element.js';

/**
 * Server and network faults as a host page meets them, through the reference server's
 * knobs: every case must end in a readable state, keep the user's text and leave no
 * unhandled rejection behind.
 */
describe('resilience', () => {
  const rejections: unknown[] = [];
  const onRejection = (event: PromiseRejectionEvent) => rejections.push(event.reason);

  beforeEach(() => {
    rejections.length = 0;
    window.addEventListener('unhandledrejection', onRejection);
  });

  afterEach(async () => {
    unmountAll();
    // A task, so the rejections already unhandled are reported before judging.
    await new Promise((resolve) => setTimeout(resolve));
    window.removeEventListener('unhandledrejection', onRejection);
    expect(rejections, 'unhandled rejections').to.deep.equal([]);
  });

  it('a 503 with Retry-After is waited out and the reply arrives', async () => {
    const key = await createKey({
      paceMs: 0,
      fail: [{ status: 503, retryAfter: 1, path: '/messages/stream' }],
      replies: [{ text: 'After the wait' }],
    });
    const el = await mount({ 'publishable-key': key });
    const started = performance.now();
    await sendByUser(el, 'please');
    expect(performance.now() - started).to.be.greaterThan(900);
    expect(agentTexts(el)).to.deep.equal(['After the wait']);
    expect($(el, '[part="error"]')).to.be.null;
  });

  it('a token that expires between turns is refreshed without the reader noticing', async () => {
    const key = await createKey({ paceMs: 0, tokenTtl: 1, replies: [{ text: 'One' }, { text: 'Two' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'first');
    // exp is whole seconds, rounded up: past 2 s the first token has surely expired (both
    // the page's clock and the server's move on, rather than the test waiting it out).
    const restore = await advanceClocks(key, 2100);
    try {
      await sendByUser(el, 'second');
    } finally {
      restore();
    }
    expect(agentTexts(el)).to.deep.equal(['One', 'Two']);
    const stats = await keyStats(key);
    expect(stats.tokensIssued).to.be.greaterThan(1);
  });

  it('a 401 on the first requests is answered with one fresh token, then the chat works', async () => {
    const key = await createKey({ paceMs: 0, unauthorized: 1, replies: [{ text: 'Signed in' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hello');
    expect(agentTexts(el)).to.deep.equal(['Signed in']);
    expect((await keyStats(key)).tokensIssued).to.equal(2);
  });

  it('a malformed frame ends in a readable notice and keeps what arrived', async () => {
    const key = await createKey({ paceMs: 0, malformedAfter: 4, replies: [{ text: 'one two three four five six seven' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    // Either the stream was resumed past the bad frame, or the reader sees why it stopped.
    const text = agentTexts(el)[0] ?? '';
    if (text !== 'one two three four five six seven') {
      expect($(el, '[part="error"]')!.textContent).to.contain('interrupted');
      expect($(el, '.message.user')!.textContent).to.contain('hi');
    }
    expect(el.status === 'idle' || el.status === 'error').to.be.true;
  });

  it('unknown frame types are skipped', async () => {
    const key = await createKey({ paceMs: 0, unknownFrameAfter: 2, replies: [{ text: 'Unaffected reply' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    expect(agentTexts(el)).to.deep.equal(['Unaffected reply']);
    expect($(el, '[part="error"]')).to.be.null;
  });

  it('an HTML error page from a proxy becomes a readable notice, the text stays', async () => {
    const key = await createKey({
      fail: [
        {
          status: 502,
          path: '/messages/stream',
          rawBody: '<html><body><h1>502 Bad Gateway</h1><script>window.__x=1</script></body></html>',
        },
      ],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'my question');
    const notice = $(el, '[part="error"]')!.textContent!;
    expect(notice).to.contain('The service had a problem');
    expect(notice).not.to.contain('<html');
    expect(input(el).value).to.equal('my question');
    expect((window as { __x?: number }).__x).to.equal(undefined);
  });

  it('removing the element mid-stream aborts its request, stops updating and leaves no window listeners', async () => {
    const key = await createKey({ paceMs: 40, replies: [{ text: 'a b c d e f g h i j k l m n o p q r s t' }] });
    const streams: Array<AbortSignal | null | undefined> = [];
    const realFetch = window.fetch;
    // Observe (not replace) the requests: the real network call still happens.
    window.fetch = (resource, init) => {
      if (String(resource instanceof Request ? resource.url : resource).endsWith('/messages/stream')) streams.push(init?.signal);
      return realFetch(resource, init);
    };
    const added = new Map<string, number>();
    const realAdd = window.addEventListener;
    const realRemove = window.removeEventListener;
    window.addEventListener = function (this: Window, type: string, ...rest: unknown[]) {
      added.set(type, (added.get(type) ?? 0) + 1);
      return (realAdd as (...a: unknown[]) => void).call(this, type, ...rest);
    } as typeof window.addEventListener;
    window.removeEventListener = function (this: Window, type: string, ...rest: unknown[]) {
      added.set(type, (added.get(type) ?? 0) - 1);
      return (realRemove as (...a: unknown[]) => void).call(this, type, ...rest);
    } as typeof window.removeEventListener;
    try {
      const el = await mount({ 'publishable-key': key });
      await type(el, 'go');
      ($(el, '[part="send-button"]') as HTMLButtonElement).click();
      await until(() => agentTexts(el)[0], 'tokens');
      const threadId = el.threadId!;
      el.remove();
      await until(() => streams[0]?.aborted, 'the stream request was not aborted');
      expect(streams).to.have.length(1);
      const textAfter = agentTexts(el)[0];
      // The service runs the turn to its end whoever listens: once its reply is in the
      // transcript, every token has been sent, and none of them reached the removed widget.
      await until(() => replied(key, threadId, 'a b c d e f g h i j k l m n o p q r s t'), 'the turn did not end on the service');
      expect(agentTexts(el)[0], 'no updates after removal').to.equal(textAfter);
      for (const [type, count] of added) expect(count, `window "${type}" listeners left`).to.equal(0);
    } finally {
      window.fetch = realFetch;
      window.addEventListener = realAdd;
      window.removeEventListener = realRemove;
    }
  });

  it('a widget off the page renders nothing, whatever asks; it renders again when it returns', async () => {
    const key = await createKey({});
    const el = await mount({ 'publishable-key': key, heading: 'Before' });
    await until(() => el.status === 'idle', 'not ready');
    const heading = () => $(el, '[part="heading"]')!.textContent;
    el.remove();
    // Any late update (a chunk that arrives, a frame's tokens, a timer) asks the same way.
    el.heading = 'After';
    await el.updateComplete;
    expect(heading(), 'rendered while off the page').to.equal('Before');
    document.body.append(el);
    await until(() => heading() === 'After', 'no render once back on the page');
  });

  it('a thread switched to while off the page shows when the widget returns', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'the other thread' }] });
    const other = await longThread(key, 1);
    const el = await mount({ 'publishable-key': key });
    await until(() => el.status === 'idle' && $(el, '[part~="welcome"]'), 'not ready');
    el.remove();
    el.setAttribute('thread-id', other);
    // Loaded off the page: nothing of it is drawn there, and nothing reloads it on return.
    await until(() => el.status === 'idle' && el.messages.length === 2, 'the thread did not load');
    expect(agentTexts(el), 'rendered while off the page').to.deep.equal([]);
    document.body.append(el);
    await until(() => agentTexts(el).includes('the other thread'), 'the thread is not shown once back on the page');
  });

  it('several instances on one page stay isolated', async () => {
    const keyA = await createKey({ paceMs: 0, replies: [{ text: 'Reply for A' }] });
    const keyB = await createKey({ paceMs: 0, replies: [{ text: 'Reply for B' }], fail: [{ status: 500, path: '/messages/stream' }] });
    const a = await mount({ 'publishable-key': keyA, persist: 'local' });
    const b = await mount({ 'publishable-key': keyB, persist: 'local' });
    await sendByUser(a, 'to A');
    await sendByUser(b, 'to B');
    expect(agentTexts(a)).to.deep.equal(['Reply for A']);
    expect($(a, '[part="error"]')).to.be.null;
    expect($(b, '[part="error"]')).to.exist;
    expect(input(b).value).to.equal('to B');
    expect(b.threadId).to.equal(null);
    expect(a.threadId).to.be.a('string');
    expect((await keyStats(keyB)).requests.filter((r) => r.path.endsWith('/stream'))).to.have.length(1);
  });
});
