import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn, TEST_PASSWORD } from '../../test/fixtures';
import { hashToken } from '../../auth/tokens';
import { manageTokenFor } from './manage-token';

// One move function (moveBookingInTx) behind every path that moves a booking: the same move made
// through the haulier's manage link, the admin's reschedule, the affected-bookings move and the
// gate's call to another bay writes the same audit details, the same haulier e-mail and the same
// webhook events. And a whole-site
// closure moves what it strands to a compatible free bay at another site; what stays is listed
// and its haulier e-mailed.

const NOW = '2026-11-23T00:00:00Z'; // Monday; the sites are in London (UTC in November)

describe.each(databaseKinds)('moving a booking on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let site: { id: string };
  let north: { id: string };
  let bays: Record<string, string>;
  let admin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const booking = async (siteId: string, bayId: string, start: string, status = 'pending') => {
    seq += 1;
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'Tenant', $5, $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', 60) returning id`,
      [orgId, siteId, bayId, `TSR-MOVE-${seq}`, `haulier${seq}@example.test`, start, end, `MOVE${seq}`, status],
    );
    const token = manageTokenFor(t.ctx.authSecret, row!.id);
    await query(`update bookings set manage_token_hash = $2 where id = $1`, [row!.id, hashToken(token)]);
    return { id: row!.id, token };
  };

  /** What a move left behind, with the values that name the booking or its time taken out. */
  const shapeOf = async (id: string) => {
    const [audit] = await query<{ action: string; details: Record<string, unknown> }>(
      `select action, details from audit_log where resource_id = $1 and action in ('booking.rescheduled', 'booking.reassigned') order by created_at desc limit 1`,
      [id],
    );
    const mail = await query<{ kind: string; recipients: string[] | null; payload: Record<string, unknown> }>(
      `select kind, recipients, payload from mail_outbox where payload->>'bookingId' = $1 order by created_at`,
      [id],
    );
    const hooks = await query<{ event_type: string; body: string }>(`select event_type, body from webhook_deliveries where body like $1 order by event_type`, [`%${id}%`]);
    const d = audit!.details;
    return {
      audit: {
        keys: ['tsr_number', 'tenant_name', 'status', 'previous_status', 'mover', 'previous_start', 'previous_bay', 'previous_site', 'new_start', 'new_bay', 'new_site'].filter((k) => k in d),
        status: d.status,
        previousBay: d.previous_bay,
        newBay: d.new_bay,
        sameTime: d.previous_start === d.new_start,
      },
      mail: mail.map((m) => ({ kind: m.kind, toHaulier: (m.recipients ?? []).length === 1, payloadKeys: Object.keys(m.payload).sort() })),
      webhooks: hooks.map((h) => {
        const body = JSON.parse(h.body) as { data?: Record<string, unknown> };
        return { type: h.event_type, keys: Object.keys(body).sort(), dataKeys: Object.keys(body.data ?? {}).sort() };
      }),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgId = (await createOrg(t.ctx.database)).id;
    site = await createSite(t.ctx.database, orgId, { name: 'South Terminal', timeZone: 'Europe/London' });
    north = await createSite(t.ctx.database, orgId, { name: 'North Terminal', timeZone: 'Europe/London' });
    bays = {
      p1: (await createBay(t.ctx.database, site as never, { name: 'P-1', heightClearanceM: 4 })).id,
      p2: (await createBay(t.ctx.database, site as never, { name: 'P-2', heightClearanceM: 4 })).id,
    };
    const adminUser = await createUser(t.ctx.database);
    await addMember(t.ctx.database, orgId, adminUser.id, 'org_admin');
    admin = bearer(await signIn(t.app, adminUser.email, TEST_PASSWORD, orgId));
    await query(
      `insert into webhook_endpoints (org_id, url, events, secret_enc, secret_hint) values ($1, 'https://hooks.example.test/baywise', '{booking.rescheduled,booking.status_changed}', 'x', 'xxxx')`,
      [orgId],
    );
  });
  afterAll(() => t?.close());

  it('writes the same audit, mail and webhook shape whichever path makes the same move', async () => {
    // P-1 is closed all week: each path moves its pending booking to P-2 at its own time.
    await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason) values ($1, $2, $3, '2026-11-24T00:00:00Z', '2026-11-30T00:00:00Z', 'Door repair')`, [
      orgId,
      site.id,
      bays.p1,
    ]);
    const viaLink = await booking(site.id, bays.p1, '2026-11-25T10:00:00Z');
    const viaAdmin = await booking(site.id, bays.p1, '2026-11-26T10:00:00Z');
    const viaSetup = await booking(site.id, bays.p1, '2026-11-27T10:00:00Z');

    const link = await t.app.inject({ method: 'POST', url: `/api/public/manage/${viaLink.token}/reschedule`, payload: { date: '2026-11-25', slot: '10:00' } });
    expect(link.statusCode, link.body).toBe(200);
    const staff = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${viaAdmin.id}/reschedule`, headers: admin, payload: { version: 1, date: '2026-11-26', slot: '10:00' } });
    expect(staff.statusCode, staff.body).toBe(200);
    const setup = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/resolve-affected`, headers: admin, payload: { bookingIds: [viaSetup.id], action: 'reassign' } });
    expect(setup.statusCode, setup.body).toBe(200);
    expect(setup.json().outcomes).toEqual([expect.objectContaining({ outcome: 'moved', bayName: 'P-2' })]);

    const shapes = await Promise.all([viaLink, viaAdmin, viaSetup].map((b) => shapeOf(b.id)));
    expect(shapes[0]).toEqual({
      audit: {
        keys: ['tsr_number', 'tenant_name', 'status', 'previous_status', 'mover', 'previous_start', 'previous_bay', 'previous_site', 'new_start', 'new_bay', 'new_site'],
        status: 'pending',
        previousBay: 'P-1',
        newBay: 'P-2',
        sameTime: true,
      },
      mail: [{ kind: 'booking.changed', toHaulier: true, payloadKeys: ['bookingId', 'change', 'reason'] }],
      webhooks: [expect.objectContaining({ type: 'booking.rescheduled' })],
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    const rows = await query<{ id: string; bay_id: string; version: number; status: string }>(`select id, bay_id, version, status from bookings where id = any($1::uuid[])`, [
      [viaLink.id, viaAdmin.id, viaSetup.id],
    ]);
    expect(rows.map((r) => [r.bay_id, r.version, r.status])).toEqual([Array(3).fill(null).map(() => [bays.p2, 2, 'pending'])].flat());

    // The gate's call of a waiting vehicle to another bay (Start at another bay) is the same move:
    // the same audit details (the status it keeps: checked in), mail and rescheduled webhook, then
    // the start at the bay as its own status move.
    const viaGate = await booking(site.id, bays.p1, '2026-11-23T00:00:00Z', 'checked_in');
    await query(`update bookings set approved_at = '2026-11-20T09:00:00Z', checked_in_at = '2026-11-22T23:50:00Z' where id = $1`, [viaGate.id]);
    const gate = await t.app.inject({ method: 'POST', url: `/api/sites/${site.id}/gate/bookings/${viaGate.id}/start`, headers: admin, payload: { version: 1, bayId: bays.p2 } });
    expect(gate.statusCode, gate.body).toBe(200);
    expect(gate.json().booking).toMatchObject({ status: 'in_progress', bayName: 'P-2', version: 3 });
    expect(await shapeOf(viaGate.id)).toEqual({
      ...shapes[0],
      audit: { ...shapes[0]!.audit, status: 'checked_in' },
      webhooks: [shapes[0]!.webhooks[0], expect.objectContaining({ type: 'booking.status_changed' })],
    });
    const [audit] = await query<{ action: string; details: Record<string, unknown> }>(
      `select action, details from audit_log where resource_id = $1 and action in ('booking.rescheduled', 'booking.reassigned')`,
      [viaGate.id],
    );
    expect(audit).toMatchObject({ action: 'booking.reassigned', details: { mover: 'org_admin', previous_status: 'checked_in', gate: true } });
    const [started] = await query<{ bay_id: string; approved_at: Date | null }>(`select bay_id, approved_at from bookings where id = $1`, [viaGate.id]);
    expect(started).toEqual({ bay_id: bays.p2, approved_at: new Date('2026-11-20T09:00:00Z') });
  });

  it('moves bookings out of a whole-site closure to a free compatible bay at another site; what stays is listed and its haulier e-mailed', async () => {
    // North's bay opens now (the first test's moves stay at their site).
    bays.n1 = (await createBay(t.ctx.database, north as never, { name: 'N-1', heightClearanceM: 4 })).id;
    const first = await booking(site.id, bays.p1, '2026-12-02T09:00:00Z', 'approved');
    const second = await booking(site.id, bays.p2, '2026-12-02T09:00:00Z', 'approved');
    // North has one bay: one of the two moves there, the other stays inside the closure.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${orgId}/blackouts`,
      headers: admin,
      payload: { siteId: site.id, bayId: null, startDate: '2026-12-02', startTime: '06:00', endDate: '2026-12-02', endTime: '18:00', reason: 'Stocktake', resolution: { action: 'reassign' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    // The two start together: the first in (start, id) order takes N-1, the other stays.
    const outcomes = res.json().outcomes as { id: string; tsrNumber: string; outcome: string; bayName: string; message: string | null }[];
    expect(outcomes.map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    const [went, stayed] = outcomes;
    expect(went).toMatchObject({ outcome: 'moved', bayName: 'N-1', message: 'Moved to North Terminal' });
    expect(stayed).toMatchObject({ outcome: 'not_moved', message: 'No compatible bay is free at another site at that time: the haulier is e-mailed' });
    const [moved] = await query<{ site_id: string; bay_id: string; status: string; start_time: Date }>(`select site_id, bay_id, status, start_time from bookings where id = $1`, [went!.id]);
    expect(moved).toMatchObject({ site_id: north.id, bay_id: bays.n1, status: 'approved', start_time: new Date('2026-12-02T09:00:00Z') });
    const [kept] = await query<{ site_id: string }>(`select site_id from bookings where id = $1`, [stayed!.id]);
    expect(kept!.site_id).toBe(site.id);
    const mail = await t.outbox();
    const movedMail = mail.filter((m) => m.subject === `Booking rescheduled by the site – ${went!.tsrNumber}`);
    expect(movedMail).toHaveLength(1);
    expect(movedMail[0]!.text).toContain('North Terminal, bay N-1');
    const stayMail = mail.filter((m) => m.subject === `Site closed at your booking time – ${stayed!.tsrNumber}`);
    expect(stayMail).toHaveLength(1);
    expect(stayMail[0]!.text).toContain('has closed South Terminal');
    expect(stayMail[0]!.text).toContain('Reason: Blackout');
  });
});
