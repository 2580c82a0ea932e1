import { describe, expect, it } from 'vitest';
import { DEMO_PUBLISHABLE_KEY, DEV_ORGANIZATION_API_KEY } from '../../server/src/app.js';
import { createReference } from '../../scripts/vite-reference-server.js';

/**
 * `npm start` (scripts/vite-reference-server.ts) builds the server the way `npm run server`
 * does: the public dev organization key only while nothing but this machine can use it
 * (issue #45, item 2).
 */
describe('npm start’s server', () => {
  it('the dev key on this machine, a random one printed with --host or ALLOWED_ORIGINS=*', async () => {
    expect(createReference(undefined, {}).organization.origin).toBe('dev-default');
    for (const [host, env] of [
      [true, {}],
      ['0.0.0.0', {}],
      [undefined, { ALLOWED_ORIGINS: '*' }],
    ] as const) {
      const { reference, organization } = createReference(host, env);
      expect(organization.origin).toBe('random');
      expect(reference.organizationApiKey).toBe(organization.key);
      const login = (key: string) =>
        reference.app.fetch(
          new Request('http://127.0.0.1:5173/management/v1/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-organization-api-key': key },
            body: JSON.stringify({ publishable_key: DEMO_PUBLISHABLE_KEY }),
          }),
        );
      expect((await login(DEV_ORGANIZATION_API_KEY)).status).toBe(401);
      expect((await login(organization.key)).status).toBe(200);
    }
  });
});
