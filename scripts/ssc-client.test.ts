import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../server/test/harness';
import { SSC_CLIENT_FILE, sscClientSource, sscDocumentFromRoutes } from './ssc-client';

// The committed typed client (examples/carrier/ssc-api.ts) is what `npm run ssc:client` writes from
// the document the server serves at /api/ssc/openapi.json: change an SSC route's schema without
// regenerating and this fails.

describe('the generated SSC client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t?.close());

  it('is up to date with /api/ssc/openapi.json', async () => {
    const served = (await t.app.inject({ url: '/api/ssc/openapi.json' })).json();
    expect(await sscDocumentFromRoutes()).toEqual(served);
    expect(fs.readFileSync(SSC_CLIENT_FILE, 'utf8')).toBe(await sscClientSource(served));
  });
});
