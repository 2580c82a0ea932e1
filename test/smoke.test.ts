import { expect } from '@open-wc/testing';

it('reaches the reference server', async () => {
  const res = await fetch('/messaging/v1/welcome-message');
  expect(res.status).to.equal(200);
  expect((await res.json()).welcome_message).to.equal('Hi');
});
