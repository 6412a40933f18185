import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainWebhooks } from '../../server/delivery/webhook-delivery';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../server/test/fixtures';
import { createTestApp, type TestApp } from '../../server/test/harness';
import { bookRescheduleCancel, createSscClient, startReceiver, subscribe, verifyBaywiseSignature } from './carrier';

// The carrier example runs as written against a Baywise listening on a local port: subscribe,
// book, reschedule, cancel through the generated typed client, and the appointment-changed events
// it receives pass its own signature check (and a tampered one does not).

describe('examples/carrier against a local Baywise', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let locationId: string;

  beforeAll(async () => {
    t = await createTestApp('pglite', { now: '2026-11-23T00:00:00Z' });
    const db = t.ctx.database;
    const orgId = (await createOrg(db, { name: 'Example Org' })).id;
    const site = await createSite(db, orgId, { name: 'Example Yard', timeZone: 'Australia/Sydney', address: '1 Wharf Rd' });
    locationId = site.id;
    await createBay(db, site, { name: 'E-1', heightClearanceM: 4.5 });
    const [{ id: tenantId }] = await db.query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Example Freight', '{ops@example-freight.test}') returning id`, [orgId]);
    const user = await createUser(db, { email: 'admin@example-org.test' });
    await addMember(db, orgId, user.id, 'org_admin');
    const admin = bearer(await signIn(t.app, 'admin@example-org.test'));
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${orgId}/api-keys`,
      headers: admin,
      payload: { name: 'Example TMS', tenantId, scopes: ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'] },
    });
    apiKey = made.json().secret;
    // The receiver listens on 127.0.0.1: a local rig allows private webhook targets.
    await db.query(`insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb) on conflict (key) do update set value = platform_settings.value || excluded.value`);
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('books, reschedules and cancels, and verifies the signed events', async () => {
    const client = createSscClient(baseUrl, apiKey);
    const receiver = await startReceiver(0, () => t.ctx.clock.now().getTime() / 1000);
    try {
      const { secret } = await subscribe(client, receiver.url);
      receiver.setSecret(secret);
      const result = await bookRescheduleCancel(client, { locationId, date: '2026-11-25', reference: 'EXAMPLE-1' });
      expect(result.finalStatus).toBe('CANCELED');
      expect(result.movedTo).not.toBe(result.bookedAt);
      await drainWebhooks(t.ctx);
      await receiver.waitFor(2, 10_000);
      expect(receiver.events.map((e) => [e.body.reasonCode, e.verified]).sort()).toEqual([
        ['CANCELLED', true],
        ['RESCHEDULED', true],
      ]);
      // The check refuses what it should.
      const now = t.ctx.clock.now().getTime() / 1000;
      expect(verifyBaywiseSignature(secret, `t=${Math.floor(now)},v1=00`, '{}', now)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('reads a failure as the standard’s failure body (the generated types’ error branch)', async () => {
    const client = createSscClient(baseUrl, 'bw_live_wrong');
    const answer = await client.POST('/appointments/v1/fetch-appointment-details', { body: { identifiers: { appointmentId: 'x' } } });
    expect(answer.response.status).toBe(401);
    expect(answer.error).toMatchObject({ status: 'FAILURE', problemDetails: [{ title: 'Unauthorized' }] });
  });
});
