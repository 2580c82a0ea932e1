import { expect } from '@open-wc/testing';
import { createKey, keyStats } from '../support/server.js';
import { $, agentTexts, mount, sendByUser, unmountAll } from '../support/element.js';

describe('<agent-chat transport="websocket">', () => {
  afterEach(unmountAll);

  it('streams a turn over the session socket and resumes dropped sockets without duplicated text', async () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const key = await createKey({ paceMs: 0, dropAfter: [3, 4], replies: [{ text, suggestions: ['Next'] }] });
    const el = await mount({ 'publishable-key': key, transport: 'websocket' });
    await sendByUser(el, 'over the socket');
    expect(el.status).to.equal('idle');
    expect(agentTexts(el)).to.deep.equal([text]);
    expect($(el, '[part="suggestion"]')!.textContent!.trim()).to.equal('Next');
    const stats = await keyStats(key);
    expect(stats.turnsRun).to.equal(1);
    const frames = stats.requests.filter((r) => r.method === 'WS').map((r) => (r.body as { type: string }).type);
    expect(frames[0]).to.equal('message');
    expect(frames.slice(1)).to.deep.equal(['resume', 'resume']);
    expect(stats.requests.some((r) => r.path.endsWith('/messages/stream'))).to.be.false;
  });
});
