import { describe, expect, it } from 'vitest';
import { events } from '../../../src/react/events.js';
import { EVENTS } from '../../../scripts/contract.js';

describe('agent-chat/react event props (src/react/events.ts, generated from the manifest)', () => {
  it('map every event of the public contract, each to its own prop', () => {
    expect(Object.values(events).sort()).to.deep.equal([...EVENTS].sort());
    expect(events).to.include({
      onFeedback: 'agent-chat-feedback',
      onCardAction: 'agent-chat-card-action',
      onLinkClick: 'agent-chat-link-click',
    });
  });
});
