import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, createBay, createOrg, createSite, createUser, signIn, bearer, TEST_PASSWORD } from '../../test/fixtures';

// Bookings a setup change left listed: the admin moves them to another free compatible bay at
// their own time (best fit), or cancels them with a reason the haulier is e-mailed. Nothing else
// of the organization, and nothing of another one, is touched.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('resolving affected bookings on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let siteId: string;
  let bays: Record<string, string>;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let otherBooking: string;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const booking = async (bayId: string, hoursFromNow: number, heightM = 3.5, org = orgId, site = siteId) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + hoursFromNow * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source)
       values ($1, $2, $3, $4, 'Tenant', $5, $6, $7, $6, $7, 'rigid', $8, $9, $10, 'approved', 'admin') returning id`,
      [org, site, bayId, `TSR-AFF-${seq}`, `haulier${seq}@example.test`, start.toISOString(), end.toISOString(), `AFF${seq}`, Math.round(heightM * 1000), heightM],
    );
    return row!.id;
  };
  const resolve = (payload: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/resolve-affected`, headers, payload: payload as never });
  const row = async (id: string) =>
    (await query<{ bay_id: string; status: string; status_reason: string | null; version: number }>(`select bay_id, status, status_reason, version from bookings where id = $1`, [id]))[0]!;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const org = await createOrg(t.ctx.database);
    orgId = org.id;
    const site = await createSite(t.ctx.database, orgId, { timeZone: 'Europe/London' });
    siteId = site.id;
    bays = {
      low: (await createBay(t.ctx.database, site, { name: 'A-1', heightClearanceM: 4 })).id,
      tall: (await createBay(t.ctx.database, site, { name: 'A-2', heightClearanceM: 5 })).id,
      tallest: (await createBay(t.ctx.database, site, { name: 'A-3', heightClearanceM: 6 })).id,
    };
    const adminUser = await createUser(t.ctx.database);
    await addMember(t.ctx.database, orgId, adminUser.id, 'org_admin');
    admin = bearer(await signIn(t.app, adminUser.email, TEST_PASSWORD, orgId));
    const dockUser = await createUser(t.ctx.database);
    await addMember(t.ctx.database, orgId, dockUser.id, 'dockmaster', { employeeId: 'D-1' });
    dock = bearer(await signIn(t.app, dockUser.email, TEST_PASSWORD, orgId));

    const other = await createOrg(t.ctx.database);
    otherOrgId = other.id;
    const otherSite = await createSite(t.ctx.database, otherOrgId);
    const otherBay = await createBay(t.ctx.database, otherSite, { name: 'X-1' });
    otherBooking = await booking(otherBay.id, 30, 3.5, otherOrgId, otherSite.id);
  });
  afterAll(() => t?.close());

  it('moves each booking to the best-fit free compatible bay at its own time, audited and mailed', async () => {
    const id = await booking(bays.low!, 24);
    // A-2 is taken at that time: the best free fit is A-3.
    await booking(bays.tall!, 24);
    const response = await resolve({ bookingIds: [id], action: 'reassign' });
    expect(response.statusCode).toBe(200);
    expect(response.json().outcomes).toEqual([expect.objectContaining({ id, outcome: 'moved', bayName: 'A-3' })]);
    const moved = await row(id);
    expect(moved).toMatchObject({ bay_id: bays.tallest, status: 'approved', version: 2 });
    const [audit] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where action = 'booking.reassigned' and resource_id = $1`, [id]);
    expect(audit!.details).toMatchObject({ previous_bay: 'A-1', new_bay: 'A-3' });
    await t.deliverMail();
    const mail = (await t.outbox()).find((m) => m.to && JSON.stringify(m.to).includes(`haulier${seq - 1}@example.test`));
    expect(mail?.subject).toMatch(/rescheduled by the site/i);
  });

  it('reports a booking no other bay can take and leaves it where it is', async () => {
    const id = await booking(bays.tallest!, 48, 5.5); // only A-3 is tall enough
    const response = await resolve({ bookingIds: [id], action: 'reassign' });
    expect(response.json().outcomes).toEqual([expect.objectContaining({ id, outcome: 'not_moved', bayName: 'A-3' })]);
    expect(await row(id)).toMatchObject({ bay_id: bays.tallest, version: 1 });
  });

  it('cancels with the reason, which the haulier is told', async () => {
    const id = await booking(bays.low!, 72);
    const response = await resolve({ bookingIds: [id], action: 'cancel', reason: 'Site closed for resurfacing' });
    expect(response.json().outcomes).toEqual([expect.objectContaining({ id, outcome: 'cancelled' })]);
    expect(await row(id)).toMatchObject({ status: 'cancelled', status_reason: 'Site closed for resurfacing' });
    await t.deliverMail();
    const mail = (await t.outbox()).find((m) => JSON.stringify(m.to).includes(`haulier${seq}@example.test`));
    expect(mail?.text).toContain('Site closed for resurfacing');
  });

  it('asks for a reason before cancelling, and changes nothing without one', async () => {
    const id = await booking(bays.low!, 96);
    const response = await resolve({ bookingIds: [id], action: 'cancel' });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('Give the reason the hauliers will be sent');
    expect((await row(id)).status).toBe('approved');
  });

  it('never touches another organization’s booking, and is for admins only', async () => {
    const response = await resolve({ bookingIds: [otherBooking], action: 'cancel', reason: 'No' });
    expect(response.json().outcomes).toEqual([expect.objectContaining({ id: otherBooking, outcome: 'skipped' })]);
    expect((await query<{ status: string }>(`select status from bookings where id = $1`, [otherBooking]))[0]!.status).toBe('approved');

    const id = await booking(bays.low!, 120);
    expect((await resolve({ bookingIds: [id], action: 'reassign' }, dock)).statusCode).toBe(403);
    expect((await resolve({ bookingIds: [id], action: 'reassign' }, {})).statusCode).toBe(401);
    expect((await row(id)).version).toBe(1);
  });
});
