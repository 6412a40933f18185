import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { hashToken } from '../../auth/tokens';
import { queueNewBookingMail } from './booking-mail-queue';
import { manageTokenFor } from './manage-token';

// What the organization's settings decide for bookings: who is told of a new request
// (booking-mail-queue.ts) and how late a haulier may still cancel or move through the manage
// link (manage-booking.service.ts).

const NOW = '2026-11-23T00:00:00Z';
const HOUR = 3_600_000;

describe.each(databaseKinds)('booking settings in effect on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let site: { id: string; orgId: string };
  let bay: { id: string };
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const setSettings = (settings: unknown) => query(`update organizations set settings = $2::jsonb where id = $1`, [org.id, JSON.stringify(settings)]);

  /** A booking with a working manage link, `hoursFromNow` ahead. */
  const booking = async (status: string, hoursFromNow: number) => {
    seq += 1;
    const id = crypto.randomUUID();
    const token = manageTokenFor(t.ctx.authSecret, id);
    const start = new Date(Date.parse(NOW) + hoursFromNow * HOUR);
    const end = new Date(start.getTime() + HOUR);
    await query(
      `insert into bookings (id, org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, manage_token_hash)
       values ($1, $2, $3, $4, $5, 'Fast Freight', 'jo@fastfreight.example', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'portal', 60, $10)`,
      [id, org.id, site.id, bay.id, `TSR-POLICY-${seq}`, start.toISOString(), end.toISOString(), `POL${seq}`, status, hashToken(token)],
    );
    return { id, token, reference: `TSR-POLICY-${seq}` };
  };
  const statusOf = async (id: string) => (await query<{ status: string }>(`select status from bookings where id = $1`, [id]))[0]!.status;
  const manage = (token: string, action = '', payload?: unknown) =>
    t.app.inject({ method: action ? 'POST' : 'GET', url: `/api/public/manage/${token}${action}`, payload: payload as never });

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Policy Org' });
    site = await createSite(db, org.id, { name: 'Policy Dock', timeZone: 'UTC' });
    bay = await createBay(db, site, { name: 'P-1', heightClearanceM: 5 });
    for (const email of ['boss@policy.example', 'second@policy.example']) {
      await addMember(db, org.id, (await createUser(db, { email })).id, 'org_admin');
    }
    await addMember(db, org.id, (await createUser(db, { email: 'dock@policy.example' })).id, 'dockmaster');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await query('delete from bookings');
    await setSettings({});
  });

  describe('new-request e-mail', () => {
    const newRequestMailFor = async (reference: string) => {
      const mails = await t.outbox();
      return mails.filter((m) => m.subject?.startsWith(`New booking request ${reference}`));
    };
    const queueNewRequest = async () => {
      const b = await booking('pending', 30);
      await t.ctx.database.db.transaction((tx) => queueNewBookingMail(tx, t.clock.now(), { id: b.id, orgId: org.id, tenantEmail: 'jo@fastfreight.example' }, 0));
      return b;
    };
    const recipients = (mail: { to?: unknown }) =>
      ([] as Array<{ value: Array<{ address?: string }> }>).concat((mail.to ?? []) as never).flatMap((a) => a.value.map((v) => v.address));

    it('goes to every active org admin by default', async () => {
      const b = await queueNewRequest();
      const [mail, ...more] = await newRequestMailFor(b.reference);
      expect(more).toEqual([]);
      expect(recipients(mail!).sort()).toEqual(['boss@policy.example', 'second@policy.example']);
    });

    it('goes to the listed addresses only when the settings name them', async () => {
      await setSettings({ notifications: { newRequestRecipients: 'custom', newRequestEmails: ['bookings@policy.example', 'gate@policy.example'] } });
      const b = await queueNewRequest();
      const [mail] = await newRequestMailFor(b.reference);
      expect(recipients(mail!)).toEqual(['bookings@policy.example', 'gate@policy.example']);
    });

    it('falls back to the admins when a custom list is somehow empty', async () => {
      await setSettings({ notifications: { newRequestRecipients: 'custom', newRequestEmails: [] } });
      const b = await queueNewRequest();
      const [mail] = await newRequestMailFor(b.reference);
      expect(recipients(mail!).sort()).toEqual(['boss@policy.example', 'second@policy.example']);
    });
  });

  describe('cancellation cutoff on the manage link', () => {
    it('refuses to cancel or move within the cutoff, naming it, and changes nothing', async () => {
      await setSettings({ booking: { cancellationCutoffHours: 24 } });
      const b = await booking('approved', 10);
      const view = await manage(b.token);
      expect(view.json()).toMatchObject({ status: 'approved', canCancel: false, canReschedule: false });

      const cancel = await manage(b.token, '/cancel', { reason: 'Changed plans' });
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json().error).toMatchObject({
        code: 'cancellation_cutoff',
        message: 'Bookings cannot be cancelled or changed online less than 24 hours before their start. Please contact Policy Dock directly.',
        details: { cutoffHours: 24 },
      });
      const move = await manage(b.token, '/reschedule', { date: '2026-11-25', slot: '10:00' });
      expect(move.statusCode).toBe(409);
      expect(move.json().error.code).toBe('cancellation_cutoff');
      expect(await statusOf(b.id)).toBe('approved');
      expect(await query(`select id from audit_log where resource_id = $1`, [b.id])).toEqual([]);
    });

    it('allows a cancellation outside the cutoff', async () => {
      await setSettings({ booking: { cancellationCutoffHours: 24 } });
      const b = await booking('approved', 30);
      expect((await manage(b.token)).json()).toMatchObject({ canCancel: true, canReschedule: true });
      const cancel = await manage(b.token, '/cancel', { reason: 'Changed plans' });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json()).toMatchObject({ status: 'cancelled' });
      expect(await statusOf(b.id)).toBe('cancelled');
    });

    it('uses the default of 2 hours, and 0 allows changes until the start', async () => {
      const soon = await booking('pending', 1.5);
      expect((await manage(soon.token, '/cancel', {})).json().error.message).toContain('less than 2 hours before their start');
      await setSettings({ booking: { cancellationCutoffHours: 0 } });
      expect((await manage(soon.token, '/cancel', {})).statusCode).toBe(200);
      const one = await booking('pending', 0.5);
      await setSettings({ booking: { cancellationCutoffHours: 1 } });
      expect((await manage(one.token, '/cancel', {})).json().error.message).toContain('less than 1 hour before');
    });

    it('follows a change of the setting through the settings API', async () => {
      const b = await booking('approved', 10);
      expect((await manage(b.token)).json().canCancel).toBe(true);
      const adminSession = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=password',
        payload: { email: 'boss@policy.example', password: 'Test-password-1', orgId: org.id },
      });
      const headers = { authorization: `Bearer ${adminSession.json().access_token}` };
      const patch = await t.app.inject({ method: 'PATCH', url: `/api/orgs/${org.id}/settings`, headers, payload: { booking: { cancellationCutoffHours: 12 } } });
      expect(patch.statusCode).toBe(200);
      expect((await manage(b.token)).json().canCancel).toBe(false);
      expect((await manage(b.token, '/cancel', {})).statusCode).toBe(409);
    });
  });
});
