import { expect } from '@open-wc/testing';
import { createKey } from '../support/server.js';
import { $, agentTexts, collect, input, mount, sendByUser, unmountAll, until } from '../support/element.js';

type ErrorDetail = { code: string; status: number | null; requestId: string | null; retryable: boolean };

describe('<agent-chat> errors', () => {
  afterEach(unmountAll);

  it('server error: readable notice, the text back in the composer, retry sends it', async () => {
    const key = await createKey({ paceMs: 0, fail: [{ status: 500, path: '/messages/stream' }], replies: [{ text: 'Recovered' }] });
    const el = await mount({ 'publishable-key': key });
    const errors = collect<ErrorDetail>(el, 'agent-chat-error');
    await sendByUser(el, 'keep this text');
    expect(el.status).to.equal('error');
    expect($(el, '[part="error"]')!.textContent).to.contain('The service had a problem');
    expect(input(el).value).to.equal('keep this text');
    expect(el.messages).to.have.length(0);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ status: 500, retryable: true });
    expect(errors[0]!.requestId).to.be.a('string');

    $(el, '[part="retry-button"]')!.click();
    await until(() => agentTexts(el)[0] === 'Recovered' && el.status === 'idle');
    expect($(el, '[part="error"]')).to.be.null;
    expect(input(el).value).to.equal('');
  });

  it('validation error: shows the envelope details and offers no retry', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key });
    const long = 'x'.repeat(5000);
    await sendByUser(el, long);
    const notice = $(el, '[part="error"]')!;
    expect(notice.textContent).to.contain('could not be processed');
    expect(notice.querySelector('li')!.textContent).to.contain('text');
    expect($(el, '[part="retry-button"]')).to.be.null;
    expect(input(el).value).to.equal(long);
  });

  it('auth error: a distinct notice and an `auth` error event', async () => {
    const key = await createKey({ tokenExchangeFailures: 5 });
    const errors = collect<ErrorDetail>(document, 'agent-chat-error');
    const el = await mount({ 'publishable-key': key }, {}, { ready: false });
    await until(() => $(el, '[part="error"]'));
    expect($(el, '[part="error"]')!.textContent).to.contain('could not sign in');
    expect(errors.at(-1)!.retryable).to.equal(false);
    // The notice offers Retry, so its text says to try again, not to reload the page.
    expect(!!$(el, '[part="retry-button"]')).to.equal(true);
    expect($(el, '[part="error"]')!.textContent).not.to.contain('reload');
  });

  it('network error: a distinct notice', async () => {
    const el = await mount({ 'publishable-key': 'pk_demo_shop', 'base-url': 'http://127.0.0.1:9' }, {}, { ready: false });
    await until(() => $(el, '[part="error"]'));
    expect($(el, '[part="error"]')!.textContent).to.contain('Could not reach the service');
    expect($(el, '[part="retry-button"]')).to.exist;
  });

  it('rate limit: a long Retry-After is not waited out silently; the notice says how long', async () => {
    const key = await createKey({ fail: [{ status: 429, code: 'rate_limited', retryAfter: 30, path: '/messages/stream' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    expect($(el, '[part="error"]')!.textContent).to.match(/Too many messages. Try again in (29|30) s/);
    expect(input(el).value).to.equal('hi');
  });

  it('an error frame mid-reply keeps the partial reply and offers to reload', async () => {
    const key = await createKey({
      paceMs: 0,
      errorFrame: { after: 4, status: 503 },
      replies: [{ text: 'alpha beta gamma delta epsilon zeta' }],
    });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    expect(el.status).to.equal('error');
    expect($(el, '[part="error"]')!.textContent).to.contain('interrupted');
    expect($(el, '.message.agent.interrupted')).to.exist;
    expect($(el, '[part="retry-button"]')).to.exist;
    // The turn reached the service: the user's message stays in the log.
    expect($(el, '.message.user')).to.exist;
  });

  it('resumes a dropped stream without the reader noticing', async () => {
    const key = await createKey({ paceMs: 0, dropAfter: [3, 5], replies: [{ text: 'one two three four five six seven eight' }] });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'hi');
    expect(el.status).to.equal('idle');
    expect(agentTexts(el)).to.deep.equal(['one two three four five six seven eight']);
  });

  it('bad configuration: a console warning and a visible notice, never an exception', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const el = await mount(
        { 'publishable-key': 'pk_demo_shop', 'agent-variables': '{not json', transport: 'carrier-pigeon', 'thread-id': 'nope' },
        {},
        { ready: false },
      );
      el.removeAttribute('base-url');
      await el.updateComplete;
      const notice = $(el, '[part="error"]')!.textContent!;
      expect(notice).to.contain('base-url is required');
      expect(notice).to.contain('agent-variables is not valid JSON');
      expect(notice).to.contain('carrier-pigeon');
      expect(notice).to.contain('thread-id');
      expect(warnings.join('\n')).to.contain('agent-variables');
    } finally {
      console.warn = warn;
    }
  });
});
