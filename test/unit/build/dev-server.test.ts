import { describe, expect, it } from 'vitest';
import { DEV_ORGANIZATION_API_KEY } from '../../../server/src/app.js';
import { referenceOptions } from '../../../demo/dev-server.js';

/**
 * `npm start` (demo/dev-server.ts) builds the server the way `npm run server`
 * does: the public dev organization key only while nothing but this machine can use it
 * (issue #45, item 2), and its data kept in `agent-chat-data/` unless told otherwise.
 */
describe('npm start’s server', () => {
  it('the dev key on this machine, a random one printed with --host or ALLOWED_ORIGINS=*', async () => {
    expect(referenceOptions(undefined, {}).organization.origin).toBe('dev-default');
    expect(referenceOptions(undefined, {}).options.database).toBe('agent-chat-data');
    for (const [host, env] of [
      [true, {}],
      ['0.0.0.0', {}],
      [undefined, { ALLOWED_ORIGINS: '*' }],
    ] as const) {
      const { options, organization } = referenceOptions(host, env);
      expect(organization.origin).toBe('random');
      // The server takes the key it is given (server/test/hosts.test.ts): never the dev one here.
      expect(options.organizationApiKey).toBe(organization.key);
      expect(options.organizationApiKey).not.toBe(DEV_ORGANIZATION_API_KEY);
    }
  });
});
