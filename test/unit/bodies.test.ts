import { describe, expect, it } from 'vitest';
import { rerunBody, turnBody } from '../../src/client/bodies.js';

describe('request bodies', () => {
  it('leave out what the widget does not have, and never send an empty thread id', () => {
    expect(turnBody({ text: 'hi', userId: 'u', threadId: null, imageUrl: '', agentVariables: undefined })).to.deep.equal({
      text: 'hi',
      user_id: 'u',
    });
    expect(turnBody({ text: 'hi', userId: 'u', threadId: '' })).to.deep.equal({ text: 'hi', user_id: 'u' });
  });

  it('carry every field under its wire name', () => {
    const variables = { static: { plan: 'pro' } };
    expect(
      turnBody({ text: 'hi', userId: 'u', threadId: 'a'.repeat(24), imageUrl: 'https://x/y.png', agentVariables: variables }),
    ).to.deep.equal({
      text: 'hi',
      user_id: 'u',
      thread_id: 'a'.repeat(24),
      image_url: 'https://x/y.png',
      agent_variables: variables,
    });
    expect(rerunBody({ replyId: 'b'.repeat(24), text: 'again', userId: 'u', versionTag: 'prod' })).to.deep.equal({
      interaction_id: 'b'.repeat(24),
      text: 'again',
      user_id: 'u',
      version_tag: 'prod',
    });
    expect(
      rerunBody({
        replyId: 'b'.repeat(24),
        text: 'again',
        userId: 'u',
        imageUrl: 'https://x/y.png',
        versionId: 'c'.repeat(24),
        versionTag: '',
      }),
    ).to.deep.equal({
      interaction_id: 'b'.repeat(24),
      text: 'again',
      user_id: 'u',
      image_url: 'https://x/y.png',
      version_id: 'c'.repeat(24),
    });
  });
});
