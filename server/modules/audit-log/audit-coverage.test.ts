import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBay, createOrg, createSite, createUser, addMember, TEST_PASSWORD } from '../../test/fixtures';
import { PNG_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { hashToken, signAccessToken } from '../../auth/tokens';
import { manageTokenFor } from '../bookings/manage-token';
import { totpCode } from '../mfa/totp';

// Every write of the product leaves an audit entry (issue 12). The route table (the OpenAPI document
// Fastify builds from every registered route) lists each POST, PUT, PATCH and DELETE; each one is
// either exercised here — a successful call, then the entry it wrote is looked for — or named in
// EXEMPT with the reason it writes none. A new write route that is in neither list fails the last
// test, so the list cannot silently fall behind.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney (UTC+11)

/** Routes that change nothing a person did, or whose record lives elsewhere; with the reason. */
const EXEMPT: Record<string, string> = {
  'POST /api/rpc/get_current_user_role': 'a read (POST for the spec’s RPC shape)',
  'POST /api/public/availability': 'a read: the slot grid',
  'POST /api/public/manage/{token}/availability': 'a read: the slot grid for moving a booking',
  'POST /api/orgs/{orgId}/bookings/preview': 'a read: the bay an admin booking would get, nothing is written',
  'POST /api/orgs/{orgId}/bookings/preview-sites': 'a read: where an admin booking could go at each site, nothing is written',
  'POST /api/sites/{siteId}/plate-reads':
    'stores a plate read in plate_reads, itself a log (who, source, time, camera); what is done with it — a check-in, resolve, ignore — is audited',
  'POST /api/sites/{siteId}/plate-reads/photo': 'as POST …/plate-reads: the read of a photographed plate, kept in plate_reads',
  'POST /api/anpr/{siteId}/reads': 'as POST …/plate-reads: a site camera’s read (high volume), kept in plate_reads with its camera token',
  // ── Platform settings and error monitoring (issue 12) ──
  // ── Haulier accounts (issue 27, decision 044): sign-in, sign-out and standing requests are audited below ──
  'POST /api/public/haulier/vehicles': 'a haulier’s own saved vehicle (haulier_saved_vehicles): their address book, no organization’s data',
  'DELETE /api/public/haulier/vehicles/{id}': 'as POST …/haulier/vehicles: removes a haulier’s own saved vehicle',
  'POST /api/public/haulier/contacts': 'a haulier’s own saved contact (haulier_saved_contacts): their address book, no organization’s data',
  'DELETE /api/public/haulier/contacts/{id}': 'as POST …/haulier/contacts: removes a haulier’s own saved contact',
  'POST /api/client-errors':
    'a browser reports an error: it writes an error event (itself a log, with page and user), not a person’s action; rate limited per address',
};

type Res = { status: number; body: any; headers: Record<string, unknown> };

describe.each(databaseKinds)('every write is audited, on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  let bayIds: string[];
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let seq = 0;
  /** Route → the audit actions its call wrote. */
  const covered = new Map<string, string[]>();

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const org = (path: string) => `/api/orgs/${orgId}${path}`;
  const gate = (path: string) => `/api/sites/${siteId}${path}`;

  const session = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [row] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: row!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  const call = async (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method: method as 'POST', url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, headers: response.headers };
  };

  const auditIds = async () => new Set((await query<{ id: string }>(`select id from audit_log`)).map((r) => r.id));

  /**
   * Runs one write through `route` (its method and OpenAPI path, e.g. 'PATCH /api/orgs/{orgId}/sites/{siteId}')
   * and checks it succeeded and wrote an entry with `action`, about this organization when `ofOrg`.
   */
  const audited = async (route: string, action: string, run: () => Promise<Res>, options: { ofOrg?: boolean } = {}): Promise<Res> => {
    const before = await auditIds();
    const res = await run();
    expect(res.status, `${route}: ${JSON.stringify(res.body).slice(0, 400)}`).toBeLessThan(300);
    const entries = (await query<{ id: string; action: string; org_id: string | null }>(`select id, action, org_id from audit_log`)).filter((e) => !before.has(e.id));
    const actions = entries.map((e) => e.action);
    expect(actions, `${route} should write '${action}'`).toContain(action);
    if (options.ofOrg ?? true) expect(entries.find((e) => e.action === action)!.org_id, route).toBe(orgId);
    covered.set(route, [...(covered.get(route) ?? []), ...actions]);
    return res;
  };

  /** A booking of the test site straight into the table, in any status, from `minutesFromNow`. */
  const booking = async (status: string, minutesFromNow: number, options: { minutes?: number; bay?: number; reg?: string } = {}) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + minutesFromNow * 60_000);
    const end = new Date(start.getTime() + (options.minutes ?? 30) * 60_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at)
       values ($1, $2, $3, $4, 'Coverage Freight', 'haulier@example.test', $5, $6, $5, $6, 'rigid', $7, 3000, 3, $8, 'admin', $9, $10) returning id`,
      [
        orgId,
        siteId,
        bayIds[options.bay ?? 0],
        `TSR-COV-${seq}`,
        start.toISOString(),
        end.toISOString(),
        options.reg ?? `COV${seq}`,
        status,
        options.minutes ?? 30,
        ['checked_in', 'in_progress', 'overstay'].includes(status) ? start.toISOString() : null,
      ],
    );
    return row!.id;
  };
  const versionOf = async (id: string) => (await query<{ version: number }>(`select version from bookings where id = $1`, [id]))[0]!.version;
  const mailLink = async (to: string, pattern: RegExp) => {
    // The last such mail with such a link (outbox files sort by queue time: mail sent directly and mail from the outbox interleave).
    const mail = (await t.outbox()).filter((m) => [m.to].flat().some((a) => a?.text.includes(to)) && pattern.test(m.text ?? '')).at(-1);
    return mail?.text?.match(pattern)?.[1];
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Coverage Co' })).id;
    for (const [email, role, employeeId] of [
      ['admin@coverage.test', 'org_admin', null],
      ['dock@coverage.test', 'dockmaster', 'D-COV'],
      ['security@coverage.test', 'security', 'S-COV'],
      ['member@coverage.test', 'dockmaster', 'D-MEM'],
    ] as const) {
      const user = await createUser(db, { email, fullName: email.split('@')[0] });
      await addMember(db, orgId, user.id, role, employeeId ? { employeeId } : {});
    }
    admin = await session('admin@coverage.test');
    dock = await session('dock@coverage.test');
    security = await session('security@coverage.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sites, holidays and bays', async () => {
    const site = await audited('POST /api/orgs/{orgId}/sites', 'site.created', () =>
      call('POST', org('/sites'), admin, { name: 'Coverage Yard', timeZone: 'Australia/Sydney' }),
    );
    siteId = site.body.id;
    await audited('PATCH /api/orgs/{orgId}/sites/{siteId}', 'site.updated', () => call('PATCH', org(`/sites/${siteId}`), admin, { address: '1 Dock Road' }));
    const holiday = await audited('POST /api/orgs/{orgId}/sites/{siteId}/holidays', 'site.holiday_created', () =>
      call('POST', org(`/sites/${siteId}/holidays`), admin, { name: 'Christmas Day', fromDate: '2026-12-25', toDate: '2026-12-25' }),
    );
    await audited('DELETE /api/orgs/{orgId}/sites/{siteId}/holidays/{holidayId}', 'site.holiday_deleted', () =>
      call('DELETE', org(`/sites/${siteId}/holidays/${holiday.body.holiday.id}`), admin),
    );
    const spare = await call('POST', org('/sites'), admin, { name: 'Spare Yard', timeZone: 'Australia/Sydney' });
    await audited('POST /api/orgs/{orgId}/sites/{siteId}/deactivate', 'site.deactivated', () => call('POST', org(`/sites/${spare.body.id}/deactivate`), admin, {}));
    await audited('POST /api/orgs/{orgId}/sites/{siteId}/reactivate', 'site.reactivated', () => call('POST', org(`/sites/${spare.body.id}/reactivate`), admin, {}));

    const bay = await audited('POST /api/orgs/{orgId}/bays', 'bay.created', () => call('POST', org('/bays'), admin, { siteId, name: 'C-1', heightClearanceM: 5 }));
    const second = await call('POST', org('/bays'), admin, { siteId, name: 'C-2', heightClearanceM: 5 });
    bayIds = [bay.body.bay?.id ?? bay.body.id, second.body.bay?.id ?? second.body.id];
    expect(bayIds.every(Boolean), JSON.stringify(bay.body)).toBe(true);
    await audited('PATCH /api/orgs/{orgId}/bays/{bayId}', 'bay.updated', () => call('PATCH', org(`/bays/${bayIds[1]}`), admin, { capacity: 2 }));
    const doomed = await call('POST', org('/bays'), admin, { siteId, name: 'C-TEMP', heightClearanceM: 4 });
    const doomedId = doomed.body.bay?.id ?? doomed.body.id;
    await audited('POST /api/orgs/{orgId}/bays/{bayId}/deactivate', 'bay.deactivated', () => call('POST', org(`/bays/${doomedId}/deactivate`), admin, {}));
    await audited('POST /api/orgs/{orgId}/bays/{bayId}/reactivate', 'bay.reactivated', () => call('POST', org(`/bays/${doomedId}/reactivate`), admin, {}));
    await audited('DELETE /api/orgs/{orgId}/bays/{bayId}', 'bay.deleted', () => call('DELETE', org(`/bays/${doomedId}`), admin, {}));
  });

  it('blackouts and recurring blackouts', async () => {
    const one = await audited('POST /api/orgs/{orgId}/blackouts', 'blackout.created', () =>
      call('POST', org('/blackouts'), admin, { siteId, bayId: bayIds[1], startDate: '2026-12-02', startTime: '06:00', endDate: '2026-12-02', endTime: '07:00', reason: 'Resurfacing' }),
    );
    const blackoutId = one.body.blackout.id;
    await audited('PATCH /api/orgs/{orgId}/blackouts/{blackoutId}', 'blackout.updated', () => call('PATCH', org(`/blackouts/${blackoutId}`), admin, { endTime: '07:30' }));
    await audited('DELETE /api/orgs/{orgId}/blackouts/{blackoutId}', 'blackout.deleted', () => call('DELETE', org(`/blackouts/${blackoutId}`), admin, {}));
    const series = await audited('POST /api/orgs/{orgId}/blackout-series', 'blackout_series.created', () =>
      call('POST', org('/blackout-series'), admin, { siteId, bayId: bayIds[1], frequency: 'weekly', weekdays: ['sun'], startsOn: '2026-12-06', startLocal: '10:00', durationMin: 60, until: '2026-12-27' }),
    );
    const seriesId = series.body.series.id;
    await audited('PATCH /api/orgs/{orgId}/blackout-series/{seriesId}', 'blackout_series.updated', () => call('PATCH', org(`/blackout-series/${seriesId}`), admin, { durationMin: 30 }));
    await audited('DELETE /api/orgs/{orgId}/blackout-series/{seriesId}', 'blackout_series.deleted', () => call('DELETE', org(`/blackout-series/${seriesId}`), admin, {}));
  });

  it('tenants', async () => {
    const tenant = await audited('POST /api/orgs/{orgId}/tenants', 'tenant.created', () => call('POST', org('/tenants'), admin, { name: 'Coverage Haulage' }));
    await audited('PATCH /api/orgs/{orgId}/tenants/{tenantId}', 'tenant.updated', () => call('PATCH', org(`/tenants/${tenant.body.id}`), admin, { phone: '+61 2 9000 0000' }));
    await audited('POST /api/orgs/{orgId}/tenants/import', 'tenant.imported', async () => {
      const response = await t.app.inject({ method: 'POST', url: org('/tenants/import'), headers: { ...admin, 'content-type': 'text/csv' }, payload: 'name\nImported Freight\n' });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    });
  });

  it('standing bookings: a series, its dates, a request approved or declined', async () => {
    // Wednesday, Friday and Sunday 21:00 in Sydney: the site closes at 16:00 on Sundays (a conflict).
    const values = {
      siteId,
      weekdays: [3, 5, 7],
      startLocal: '21:00',
      durationMin: 30,
      startsOn: '2026-11-24',
      weeksAhead: 1,
      tsrNumber: 'STD-COV',
      tenantName: 'Standing Coverage',
      contactName: 'Sam',
      tenantEmail: 'standing@coverage.test',
      vehicleType: 'van',
      vehicleRegistration: 'STD COV',
      vehicleHeightM: 2.5,
    };
    const created = await audited('POST /api/orgs/{orgId}/standing-bookings', 'standing_booking.created', () => call('POST', org('/standing-bookings'), admin, values));
    const id = created.body.id;
    expect(created.body.occurrences.map((o: { date: string; status: string }) => `${o.date} ${o.status}`)).toEqual(['2026-11-25 booked', '2026-11-27 booked', '2026-11-29 conflict']);
    await audited('PUT /api/orgs/{orgId}/standing-bookings/{standingId}', 'standing_booking.updated', () => call('PUT', org(`/standing-bookings/${id}`), admin, { ...values, notes: 'Side gate' }));
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/occurrences/{date}/move', 'standing_booking.occurrence_moved', () =>
      call('POST', org(`/standing-bookings/${id}/occurrences/2026-11-25/move`), admin, { date: '2026-11-25', slot: '20:00' }),
    );
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/occurrences/{date}/cancel', 'standing_booking.occurrence_cancelled', () =>
      call('POST', org(`/standing-bookings/${id}/occurrences/2026-11-27/cancel`), admin, {}),
    );
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/occurrences/{date}/resolve', 'standing_booking.conflict_resolved', () =>
      call('POST', org(`/standing-bookings/${id}/occurrences/2026-11-29/resolve`), admin, { action: 'skip' }),
    );
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/cancel', 'standing_booking.cancelled', () => call('POST', org(`/standing-bookings/${id}/cancel`), admin, {}));
    const requested = async (reference: string) =>
      (
        await query<{ id: string }>(
          `insert into standing_bookings (org_id, site_id, status, weekdays, start_local, duration_min, starts_on, weeks_ahead, tsr_number, tenant_name, tenant_email, vehicle_type, vehicle_registration, vehicle_height_m)
           values ($1, $2, 'requested', '{3}', '20:30', 30, '2026-11-24', 1, $3, 'Asked Coverage', 'asked@coverage.test', 'van', $3, 2.5) returning id`,
          [orgId, siteId, reference],
        )
      )[0]!.id;
    const approve = await requested('REQ-COV-1');
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/approve', 'standing_booking.approved', () => call('POST', org(`/standing-bookings/${approve}/approve`), admin, {}));
    const decline = await requested('REQ-COV-2');
    await audited('POST /api/orgs/{orgId}/standing-bookings/{standingId}/decline', 'standing_booking.declined', () =>
      call('POST', org(`/standing-bookings/${decline}/decline`), admin, { reason: 'No room' }),
    );
  });

  it('the team and invitations', async () => {
    const invited = await audited('POST /api/orgs/{orgId}/team/invitations', 'invitation.created', () =>
      call('POST', org('/team/invitations'), admin, { email: 'new@coverage.test', role: 'dockmaster', employeeId: 'D-NEW' }),
    );
    await audited('POST /api/orgs/{orgId}/team/invitations/{invitationId}/resend', 'invitation.resent', () => call('POST', org(`/team/invitations/${invited.body.id}/resend`), admin, {}));
    const token = await mailLink('new@coverage.test', /accept-invitation\?token=([A-Za-z0-9_-]+)/);
    expect(token).toBeTruthy();
    await audited('POST /api/invitations/{token}/accept', 'invitation.accepted', () => call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'New Dock', password: 'Gate-keeper-9' }));
    const other = await call('POST', org('/team/invitations'), admin, { email: 'other@coverage.test', role: 'org_admin' });
    await audited('DELETE /api/orgs/{orgId}/team/invitations/{invitationId}', 'invitation.revoked', () => call('DELETE', org(`/team/invitations/${other.body.id}`), admin));

    const team = await call('GET', org('/team'), admin);
    const member = (team.body.members as { id: string; email: string }[]).find((m) => m.email === 'member@coverage.test')!;
    await audited('PATCH /api/orgs/{orgId}/team/members/{membershipId}', 'member.updated', () => call('PATCH', org(`/team/members/${member.id}`), admin, { employeeId: 'D-MEM-2' }));
    await audited('POST /api/orgs/{orgId}/team/members/{membershipId}/deactivate', 'member.deactivated', () => call('POST', org(`/team/members/${member.id}/deactivate`), admin, {}));
    await audited('POST /api/orgs/{orgId}/team/members/{membershipId}/reactivate', 'member.reactivated', () => call('POST', org(`/team/members/${member.id}/reactivate`), admin, {}));
  });

  it('organization settings, the logo and camera tokens', async () => {
    await audited('PATCH /api/orgs/{orgId}/settings', 'organization.settings_updated', () => call('PATCH', org('/settings'), admin, { booking: { cancellationCutoffHours: 4 } }));
    await audited('PATCH /api/orgs/{orgId}/settings/profile', 'organization.profile_updated', () => call('PATCH', org('/settings/profile'), admin, { contactPhone: '+61 2 9000 0001' }));
    await audited('PUT /api/orgs/{orgId}/settings/logo', 'organization.logo_updated', () => {
      const form = new FormData();
      form.append('logo', new Blob([new Uint8Array(PNG_BYTES)]), 'logo.png');
      return call('PUT', org('/settings/logo'), admin, form);
    });
    await audited('DELETE /api/orgs/{orgId}/settings/logo', 'organization.logo_removed', () => call('DELETE', org('/settings/logo'), admin));
    const token = await audited('POST /api/orgs/{orgId}/settings/camera-tokens', 'camera_token.created', () => call('POST', org('/settings/camera-tokens'), admin, { siteId, name: 'Gate camera' }));
    await audited('DELETE /api/orgs/{orgId}/settings/camera-tokens/{tokenId}', 'camera_token.revoked', () => call('DELETE', org(`/settings/camera-tokens/${token.body.id}`), admin));
  });

  it('bookings in the organization’s workspace', async () => {
    const created = await audited('POST /api/orgs/{orgId}/bookings', 'booking.created', () =>
      call('POST', org('/bookings'), admin, {
        tsrNumber: 'TSR-COV-ADMIN',
        tenantName: 'Coverage Freight',
        contactName: 'Cora Cover',
        tenantEmail: 'cora@coverage.test',
        date: '2026-11-30',
        slot: '09:00',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'COVADM',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
        approve: false,
      }),
    );
    const id = created.body.id;
    await audited('POST /api/orgs/{orgId}/bookings/{bookingId}/transitions', 'booking.approved', () =>
      call('POST', org(`/bookings/${id}/transitions`), admin, { to: 'approved', version: created.body.version }),
    );
    await audited('POST /api/orgs/{orgId}/bookings/{bookingId}/reschedule', 'booking.rescheduled', async () =>
      call('POST', org(`/bookings/${id}/reschedule`), admin, { version: await versionOf(id), date: '2026-11-30', slot: '10:00' }),
    );
    const overstay = await booking('overstay', -90, { minutes: 60, bay: 1 });
    await audited('POST /api/orgs/{orgId}/bookings/{bookingId}/extend', 'booking.in_progress', async () =>
      call('POST', org(`/bookings/${overstay}/extend`), admin, { version: await versionOf(overstay), endTime: '2026-11-23T00:20:00Z' }),
    );
    const affected = await booking('approved', 60 * 24 * 3);
    await audited('POST /api/orgs/{orgId}/bookings/resolve-affected', 'booking.cancelled', () =>
      call('POST', org('/bookings/resolve-affected'), admin, { bookingIds: [affected], action: 'cancel', reason: 'The yard is closed that day' }),
    );
  });

  it('the gate', async () => {
    const pending = await booking('pending', 120);
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/approve', 'booking.approved', () => call('POST', gate(`/gate/bookings/${pending}/approve`), dock, { version: 1 }));
    const declined = await booking('pending', 150);
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/decline', 'booking.declined', () =>
      call('POST', gate(`/gate/bookings/${declined}/decline`), admin, { version: 1, reason: 'Dock closed for works' }),
    );
    const arriving = await booking('approved', 30, { bay: 0 });
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/check-in', 'booking.checked_in', () => call('POST', gate(`/gate/bookings/${arriving}/check-in`), security, {}));
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/start', 'booking.in_progress', () => call('POST', gate(`/gate/bookings/${arriving}/start`), dock, {}));
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/check-out', 'booking.completed', () => call('POST', gate(`/gate/bookings/${arriving}/check-out`), dock, {}));
    const overstay = await booking('overstay', -200, { minutes: 60, bay: 0 });
    await audited('POST /api/sites/{siteId}/gate/bookings/{bookingId}/extend', 'booking.in_progress', async () =>
      call('POST', gate(`/gate/bookings/${overstay}/extend`), dock, { version: await versionOf(overstay), endTime: '2026-11-23T00:10:00Z' }),
    );
    // The other bays are taken now: a free one for the walk-in.
    await createBay(t.ctx.database, { id: siteId, orgId }, { name: 'C-WALK', heightClearanceM: 5 });
    await audited('POST /api/sites/{siteId}/gate/walk-ins', 'booking.created', () =>
      call('POST', gate('/gate/walk-ins'), security, {
        tsrNumber: 'TSR-COV-WALK',
        tenantName: 'Roadside Freight',
        contactName: 'Sam Driver',
        tenantEmail: 'sam@roadside.example',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'WALK 01',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    await audited('POST /api/sites/{siteId}/gate/emergency', 'site.emergency_stopped', () => call('POST', gate('/gate/emergency'), dock, { reason: 'Drill' }));
    await audited('DELETE /api/sites/{siteId}/gate/emergency', 'site.emergency_resumed', () => call('DELETE', gate('/gate/emergency'), dock));
  });

  it('the gate kiosk: its device, a driver’s check-in, walk-in requests accepted and declined', async () => {
    const device = await audited('POST /api/orgs/{orgId}/settings/kiosk-devices', 'kiosk_device.created', () => call('POST', org('/settings/kiosk-devices'), admin, { siteId, name: 'Gate kiosk' }));
    const kiosk = { authorization: `Kiosk ${device.body.secret as string}` };
    const bay = await createBay(t.ctx.database, { id: siteId, orgId }, { name: 'C-KIOSK', heightClearanceM: 5 });
    bayIds.push(bay.id);
    await booking('approved', 20, { reg: 'KSK 123', bay: bayIds.length - 1 });
    await audited('POST /api/kiosk/check-in', 'booking.checked_in', () => call('POST', '/api/kiosk/check-in', kiosk, { plate: 'ksk123' }));
    const asked = await audited('POST /api/kiosk/walk-in-requests', 'walk_in_request.created', () => call('POST', '/api/kiosk/walk-in-requests', kiosk, { plate: 'KWALK 1', company: 'Kiosk Freight' }));
    await createBay(t.ctx.database, { id: siteId, orgId }, { name: 'C-KIOSK-2', heightClearanceM: 5 });
    await audited('POST /api/sites/{siteId}/kiosk/walk-in-requests/{requestId}/accept', 'walk_in_request.accepted', () =>
      call('POST', gate(`/kiosk/walk-in-requests/${asked.body.requestId}/accept`), dock, {
        tsrNumber: 'TSR-COV-KIOSK',
        tenantName: 'Kiosk Freight',
        contactName: 'Kim Driver',
        tenantEmail: 'kim@kiosk.example',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'KWALK 1',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    const other = await call('POST', '/api/kiosk/walk-in-requests', kiosk, { plate: 'KWALK 2', company: 'Other Freight' });
    await audited('POST /api/sites/{siteId}/kiosk/walk-in-requests/{requestId}/decline', 'walk_in_request.declined', () =>
      call('POST', gate(`/kiosk/walk-in-requests/${other.body.requestId}/decline`), dock, { reason: 'No slot today' }),
    );
    await audited('DELETE /api/orgs/{orgId}/settings/kiosk-devices/{deviceId}', 'kiosk_device.revoked', () => call('DELETE', org(`/settings/kiosk-devices/${device.body.id}`), admin));
  });

  it('plate reads decided at the gate', async () => {
    const expected = await booking('approved', 240, { reg: 'PLT123' });
    const read = await call('POST', gate('/plate-reads'), dock, { plate: 'ZZZ 999' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    await audited('POST /api/sites/{siteId}/plate-reads/{id}/resolve', 'plate_read.resolved', () => call('POST', gate(`/plate-reads/${read.body.id}/resolve`), dock, { bookingId: expected }));
    const stray = await call('POST', gate('/plate-reads'), dock, { plate: 'YYY 888' });
    await audited('POST /api/sites/{siteId}/plate-reads/{id}/ignore', 'plate_read.ignored', () => call('POST', gate(`/plate-reads/${stray.body.id}/ignore`), dock, {}));
  });

  it('the booking portal and its manage link', async () => {
    await audited('POST /api/public/quote-requests', 'quote.requested', () => call('POST', '/api/public/quote-requests', {}, { name: 'Quinn', company: 'Quote Co', email: 'quinn@quote.test' }), { ofOrg: false });
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId,
        tsrNumber: 'TSR-COV-PORTAL',
        tenantName: 'Portal Freight',
        contactName: 'Pat Portal',
        tenantEmail: 'pat@portal.test',
        date: '2026-11-25',
        slot: '10:00',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'PRT001',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    const created = await audited('POST /api/public/bookings', 'booking.created', () => call('POST', '/api/public/bookings', {}, form));
    const token = (created.body.manageUrl as string).split('/book/manage/')[1]!;
    await audited('POST /api/public/manage/{token}/reschedule', 'booking.rescheduled', () => call('POST', `/api/public/manage/${token}/reschedule`, {}, { date: '2026-11-25', slot: '11:00' }));
    await audited('POST /api/public/manage/{token}/cancel', 'booking.cancelled', () => call('POST', `/api/public/manage/${token}/cancel`, {}, { reason: 'Plans changed' }));
    // Running late on the day (decision 043): a booking at 17:00 today, its truck 50 minutes late, then moved to an offered slot.
    const lateId = await booking('approved', 360, { reg: 'LATE01' });
    const lateToken = manageTokenFor(t.ctx.authSecret, lateId);
    await query(`update bookings set manage_token_hash = $2 where id = $1`, [lateId, hashToken(lateToken)]);
    const report = await audited('POST /api/public/manage/{token}/late', 'booking.late_reported', () => call('POST', `/api/public/manage/${lateToken}/late`, {}, { eta: '17:50' }));
    await audited('POST /api/public/manage/{token}/late/accept', 'booking.rescheduled', () =>
      call('POST', `/api/public/manage/${lateToken}/late/accept`, {}, { startTime: report.body.offers[0].start }),
    );
  });

  it('sign-in, the account and sign-out', async () => {
    const signedIn = await audited('POST /api/auth/token', 'auth.signed_in', () =>
      call('POST', '/api/auth/token?grant_type=password', {}, { email: 'admin@coverage.test', password: TEST_PASSWORD, orgId }),
    );
    const headers = { authorization: `Bearer ${signedIn.body.access_token}` };
    await audited('POST /api/auth/dockmaster/token', 'auth.signed_in', () => call('POST', '/api/auth/dockmaster/token', {}, { siteId, employeeId: 'D-COV', password: TEST_PASSWORD }));
    await audited('PUT /api/auth/user', 'auth.profile_updated', () => call('PUT', '/api/auth/user', headers, { fullName: 'Ada Admin' }), { ofOrg: false });
    await audited('PUT /api/auth/user', 'auth.password_changed', () => call('PUT', '/api/auth/user', headers, { password: 'New-password-2', currentPassword: TEST_PASSWORD }), { ofOrg: false });
    await audited('POST /api/auth/logout', 'auth.signed_out', () => call('POST', '/api/auth/logout', headers), { ofOrg: false });

    await audited('POST /api/auth/signup', 'auth.signed_up', () => call('POST', '/api/auth/signup', {}, { email: 'fresh@coverage.test', password: 'Fresh-password-3', fullName: 'Fresh Person' }), { ofOrg: false });
    const confirm = await mailLink('fresh@coverage.test', /auth\/confirm\?token=([A-Za-z0-9_-]+)/);
    await audited('POST /api/auth/verify', 'auth.email_confirmed', () => call('POST', '/api/auth/verify', {}, { type: 'signup', token: confirm }), { ofOrg: false });
    await audited('POST /api/auth/recover', 'auth.password_recovery_requested', () => call('POST', '/api/auth/recover', {}, { email: 'fresh@coverage.test' }), { ofOrg: false });
    const reset = await mailLink('fresh@coverage.test', /reset-password\?token=([A-Za-z0-9_-]+)/);
    await audited('POST /api/auth/verify', 'auth.password_reset', () => call('POST', '/api/auth/verify', {}, { type: 'recovery', token: reset, password: 'Reset-password-4' }), { ofOrg: false });
  });

  it('platform administration: suspending and reactivating an organization', async () => {
    const db = t.ctx.database;
    await createUser(db, { email: 'super@coverage.test', platformRole: 'super_admin' });
    const platform = await session('super@coverage.test');
    const other = (await createOrg(db, { name: 'Suspended Co' })).id;
    const suspend = () => call('POST', `/api/platform/organizations/${other}/suspend`, platform, { reason: 'Unpaid invoices' });
    const before = await auditIds();
    await audited('POST /api/platform/organizations/{orgId}/suspend', 'organization.suspended', suspend, { ofOrg: false });
    await audited('POST /api/platform/organizations/{orgId}/reactivate', 'organization.reactivated', () =>
      call('POST', `/api/platform/organizations/${other}/reactivate`, platform, {}), { ofOrg: false });
    // Both entries are about the organization acted on.
    const entries = (await query<{ id: string; org_id: string | null }>(`select id, org_id from audit_log`)).filter((e) => !before.has(e.id));
    expect(entries.map((e) => e.org_id)).toEqual([other, other]);
  });

  // ── Platform settings and error monitoring (issue 12) ─────────────────────────────────────────
  it('platform settings and error triage', async () => {
    const db = t.ctx.database;
    await createUser(db, { email: 'settings@coverage.test', platformRole: 'super_admin' });
    const platform = await session('settings@coverage.test');
    const view = await call('GET', '/api/platform/settings', platform);
    await audited('PUT /api/platform/settings', 'platform.settings_updated', () =>
      call('PUT', '/api/platform/settings', platform, { ...view.body.config, maintenanceBanner: 'Coverage maintenance' }), { ofOrg: false });
    await call('PUT', '/api/platform/settings', platform, view.body.config);

    const report = await call('POST', '/api/client-errors', {}, { kind: 'error', name: 'TypeError', message: 'Coverage failure', url: '/org/bays' });
    expect(report.status).toBe(202);
    const [group] = (await call('GET', '/api/platform/errors', platform)).body.items;
    await audited('POST /api/platform/errors/{fingerprint}/resolve', 'platform.issue_resolved', () =>
      call('POST', `/api/platform/errors/${group.fingerprint}/resolve`, platform), { ofOrg: false });
    await audited('POST /api/platform/errors/{fingerprint}/reopen', 'platform.issue_reopened', () =>
      call('POST', `/api/platform/errors/${group.fingerprint}/reopen`, platform), { ofOrg: false });
  });
  // ── Issue 12, organizations and quote requests (h-orgs) ──────────────────────────────────────
  it('platform administration: creating an organization, the quote-request inbox', async () => {
    const db = t.ctx.database;
    await createUser(db, { email: 'owner@coverage.test', platformRole: 'platform_owner' });
    const platform = await session('owner@coverage.test');
    const created = await audited('POST /api/platform/organizations', 'organization.created', () =>
      call('POST', '/api/platform/organizations', platform, { name: 'Created Co', adminEmail: 'first@created.test', adminName: 'First Admin' }), { ofOrg: false });
    expect(created.body.organization.slug).toBe('created-co');
    const asked = async (company: string) => {
      const sent = await call('POST', '/api/public/quote-requests', {}, { name: 'Quinn', company, email: `quinn@${company.toLowerCase().replace(/\W/g, '')}.test` });
      return sent.body.id as string;
    };
    const contacted = await asked('Contacted Co');
    await audited('POST /api/platform/quote-requests/{quoteId}/contacted', 'quote.contacted', () =>
      call('POST', `/api/platform/quote-requests/${contacted}/contacted`, platform, {}), { ofOrg: false });
    const converted = await asked('Converted Co');
    const res = await audited('POST /api/platform/quote-requests/{quoteId}/convert', 'quote.converted', () =>
      call('POST', `/api/platform/quote-requests/${converted}/convert`, platform, { name: 'Converted Co', adminEmail: 'quinn@converted.test', adminName: 'Quinn' }), { ofOrg: false });
    expect(covered.get('POST /api/platform/quote-requests/{quoteId}/convert')).toEqual(expect.arrayContaining(['organization.created', 'quote.converted']));
    expect(res.body.quote.convertedOrg.id).toBe(res.body.organization.id);
  });
  // ── end of issue 12, organizations and quote requests ─────────────────────────────────────────
  // ── Issue 12, impersonation and two-factor sign-in (h-access) ────────────────────────────────
  it('two-factor sign-in: enrolment, recovery codes, turning it off', async () => {
    await createUser(t.ctx.database, { email: 'mfa@coverage.test', platformRole: 'super_admin' });
    const platform = await session('mfa@coverage.test');
    const started = await audited('POST /api/auth/mfa/enrol', 'mfa.enrolment_started', () => call('POST', '/api/auth/mfa/enrol', platform), { ofOrg: false });
    const secret = started.body.secret as string;
    const confirmed = await audited('POST /api/auth/mfa/confirm', 'mfa.enrolled', () =>
      call('POST', '/api/auth/mfa/confirm', platform, { code: totpCode(secret, new Date(NOW)) }), { ofOrg: false });
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    // The next step's code (one step of drift is accepted; this step's code is spent).
    const fresh = await audited('POST /api/auth/mfa/recovery-codes', 'mfa.recovery_codes_regenerated', () =>
      call('POST', '/api/auth/mfa/recovery-codes', platform, { code: totpCode(secret, new Date(Date.parse(NOW) + 30_000)) }), { ofOrg: false });
    await audited('POST /api/auth/mfa/disable', 'mfa.disabled', () =>
      call('POST', '/api/auth/mfa/disable', platform, { recoveryCode: fresh.body.recoveryCodes[0] }), { ofOrg: false });
  });

  it('impersonation: start, end by the member’s session, end by the platform user', async () => {
    await createUser(t.ctx.database, { email: 'support@coverage.test', platformRole: 'platform_support' });
    const platform = await session('support@coverage.test');
    const [member] = await query<{ id: string }>(`select id from users where email = 'dock@coverage.test'`);
    const startIt = () => call('POST', '/api/platform/impersonations', platform, { userId: member!.id, orgId, reason: 'Checking the gate queue for a customer' });
    const first = await audited('POST /api/platform/impersonations', 'impersonation.start', startIt);
    await audited('POST /api/impersonations/end', 'impersonation.end', () => call('POST', '/api/impersonations/end', { authorization: `Bearer ${first.body.access_token}` }));
    const second = await startIt();
    await audited('POST /api/platform/impersonations/{sessionId}/end', 'impersonation.end', () =>
      call('POST', `/api/platform/impersonations/${second.body.impersonation.id}/end`, platform));
  });

  // --- Plans and billing (issue 12, server/modules/billing) ------------------------------------
  it('plans and billing: plans, an organization’s plan, invoices and the payment webhook', async () => {
    const db = t.ctx.database;
    await createUser(db, { email: 'billing@coverage.test', platformRole: 'super_admin' });
    const platform = await session('billing@coverage.test');
    const customer = (await createOrg(db, { name: 'Billed Co', createdAt: new Date('2026-01-01T00:00:00Z') })).id;
    const plan = await audited('POST /api/platform/plans', 'plan.created', () =>
      call('POST', '/api/platform/plans', platform, { name: 'Coverage Plan', priceUsd: 49, maxSites: null, maxBays: null, maxMembers: null, maxBookingsPerMonth: null }), { ofOrg: false });
    await audited('PATCH /api/platform/plans/{planId}', 'plan.updated', () => call('PATCH', `/api/platform/plans/${plan.body.id}`, platform, { priceUsd: 59 }), { ofOrg: false });
    await audited('PUT /api/platform/organizations/{orgId}/plan', 'organization.plan_changed', () =>
      call('PUT', `/api/platform/organizations/${customer}/plan`, platform, { planId: plan.body.id }), { ofOrg: false });
    const run = await audited('POST /api/platform/invoices/issue', 'invoice.issued', () => call('POST', '/api/platform/invoices/issue', platform, { period: '2026-10' }), { ofOrg: false });
    expect(run.body.issued).toBe(1);
    expect(covered.get('POST /api/platform/invoices/issue')).toContain('invoices.issue_run');
    const issue = async (period: string) => {
      await call('POST', '/api/platform/invoices/issue', platform, { period });
      return (await query<{ id: string }>(`select id from invoices where org_id = $1 and period_key = $2`, [customer, period]))[0]!.id;
    };
    const october = (await query<{ id: string }>(`select id from invoices where org_id = $1 and period_key = '2026-10'`, [customer]))[0]!.id;
    await audited('POST /api/platform/invoices/{invoiceId}/mark-paid', 'invoice.marked_paid', () =>
      call('POST', `/api/platform/invoices/${october}/mark-paid`, platform, { reference: 'Transfer 1' }), { ofOrg: false });
    const september = await issue('2026-09');
    await audited('POST /api/platform/invoices/{invoiceId}/void', 'invoice.voided', () => call('POST', `/api/platform/invoices/${september}/void`, platform, { reason: 'Waived' }), { ofOrg: false });
    // Stripe's webhook, signed locally with the endpoint's secret (no network).
    const august = await issue('2026-08');
    t.ctx.config.stripe.webhookSecret = 'whsec_coverage';
    const payload = JSON.stringify({ id: 'evt_coverage', object: 'event', type: 'invoice.paid', data: { object: { amount_paid: 5900, currency: 'usd', metadata: { baywise_invoice_id: august } } } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_coverage', timestamp: Math.floor(Date.parse(NOW) / 1000) });
    await audited('POST /api/billing/stripe/webhook', 'invoice.paid', () =>
      call('POST', '/api/billing/stripe/webhook', { 'content-type': 'application/json', 'stripe-signature': signature }, payload), { ofOrg: false });
    const entries = await query<{ action: string; org_id: string | null }>(`select action, org_id from audit_log where action in ('invoice.marked_paid', 'invoice.voided', 'invoice.paid', 'organization.plan_changed')`);
    expect(entries.every((e) => e.org_id === customer)).toBe(true);
  });

  // ── Issue 13, API keys and the SSC appointment API (h-ssc) ──────────────────────────────────────
  it('API keys and the SSC appointment API (the key is the actor)', async () => {
    const db = t.ctx.database;
    // A fresh session: an earlier test signs the admin out.
    const orgAdmin = await session('admin@coverage.test');
    const site = await createSite(db, orgId, { name: 'SSC Coverage Yard', timeZone: 'UTC' });
    await createBay(db, site, { name: 'SSC-1', heightClearanceM: 4.5 });
    const [tenant] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'SSC Coverage Freight', '{ops@ssccov.test}') returning id`, [orgId]);
    const key = await audited('POST /api/orgs/{orgId}/api-keys', 'api_key.created', () =>
      call('POST', org('/api-keys'), orgAdmin, { name: 'Coverage TMS', tenantId: tenant!.id, scopes: ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'] }),
    );
    const carrier = { authorization: `Bearer ${key.body.secret}` };
    const ssc = (path: string) => `/api/ssc${path}`;
    const window = (time: string) => ({ arrivalWindow: { startDateTime: `2026-11-25T${time}:00Z`, duration: 'PT1H' } });
    await audited('POST /api/ssc/appointments/v1/fetch-available-appointments', 'ssc.availability_fetched', () =>
      call('POST', ssc('/appointments/v1/fetch-available-appointments'), carrier, { identifiers: { locationId: site.id }, dateRestrictions: { exactDate: '2026-11-25' } }),
    );
    const scheduled = await audited('POST /api/ssc/appointments/v1/schedule-appointment', 'booking.created', () =>
      call('POST', ssc('/appointments/v1/schedule-appointment'), carrier, { identifiers: { primaryReferenceNumber: 'COV-LOAD', locationId: site.id }, preferredAppointment: window('10:00') }),
    );
    const identifiers = { appointmentId: scheduled.body.appointment.id };
    await audited('POST /api/ssc/appointments/v1/reschedule-appointment', 'booking.rescheduled', () =>
      call('POST', ssc('/appointments/v1/reschedule-appointment'), carrier, { identifiers, preferredAppointment: window('12:00') }),
    );
    // A confirmed appointment's reschedule waits for the site (issue 24): an admin accepts one, refuses the next.
    const bookingId = identifiers.appointmentId as string;
    const version = async () => (await query<{ version: number }>(`select version from bookings where id = $1`, [bookingId]))[0]!.version;
    expect((await call('POST', org(`/bookings/${bookingId}/transitions`), orgAdmin, { to: 'approved', version: await version() })).status).toBe(200);
    await audited('POST /api/ssc/appointments/v1/reschedule-appointment', 'ssc.reschedule_requested', () =>
      call('POST', ssc('/appointments/v1/reschedule-appointment'), carrier, { identifiers, preferredAppointment: window('13:00') }),
    );
    await audited('POST /api/orgs/{orgId}/bookings/{bookingId}/reschedule-request/accept', 'booking.rescheduled', () =>
      call('POST', org(`/bookings/${bookingId}/reschedule-request/accept`), orgAdmin),
    );
    expect((await call('POST', ssc('/appointments/v1/reschedule-appointment'), carrier, { identifiers, preferredAppointment: window('14:00') })).body.status).toBe('PENDING');
    await audited('POST /api/orgs/{orgId}/bookings/{bookingId}/reschedule-request/refuse', 'ssc.reschedule_refused', () =>
      call('POST', org(`/bookings/${bookingId}/reschedule-request/refuse`), orgAdmin, { reason: 'Dock full' }),
    );
    await audited('POST /api/ssc/appointments/v1/fetch-appointment-details', 'ssc.appointment_viewed', () =>
      call('POST', ssc('/appointments/v1/fetch-appointment-details'), carrier, { identifiers }),
    );
    await audited('POST /api/ssc/appointments/v1/cancel-appointment', 'booking.cancelled', () => call('POST', ssc('/appointments/v1/cancel-appointment'), carrier, { identifiers }));
    const subscription = await audited('POST /api/ssc/webhooks/v1/subscriptions', 'ssc.subscription_created', () =>
      call('POST', ssc('/webhooks/v1/subscriptions'), carrier, { eventTypes: ['appointment-changed'], callbackUrl: 'https://93.184.215.14/ssc' }),
    );
    const one = ssc(`/webhooks/v1/subscriptions/${subscription.body.subscriptionId}`);
    await audited('PUT /api/ssc/webhooks/v1/subscriptions/{subscriptionId}', 'ssc.subscription_updated', () => call('PUT', one, carrier, { eventTypes: ['fetch-available-appointments'] }));
    await audited('DELETE /api/ssc/webhooks/v1/subscriptions/{subscriptionId}', 'ssc.subscription_deleted', () => call('DELETE', one, carrier));
    await audited('POST /api/orgs/{orgId}/api-keys/{keyId}/revoke', 'api_key.revoked', () => call('POST', org(`/api-keys/${key.body.id}/revoke`), orgAdmin));
    const roles = await query<{ actor_role: string }>(`select distinct actor_role from audit_log where details ->> 'api_key_id' = $1`, [key.body.id]);
    expect(roles.map((r) => r.actor_role)).toEqual(['api_key']);
  });
  // ── end of issue 13 ─────────────────────────────────────────────────────────────────────────────

  // ── Issue 13, outbound webhooks (h-hooks) ────────────────────────────────────────────────────
  it('webhook endpoints, their test ping and redelivery; TSR connections', async () => {
    const hooksAdmin = await session('admin@coverage.test');
    const created = await audited('POST /api/orgs/{orgId}/webhooks', 'webhook.created', () =>
      call('POST', org('/webhooks'), hooksAdmin, { url: 'https://93.184.215.14/hooks', events: ['booking.created'] }));
    const id = created.body.endpoint.id as string;
    await audited('PATCH /api/orgs/{orgId}/webhooks/{webhookId}', 'webhook.updated', () => call('PATCH', org(`/webhooks/${id}`), hooksAdmin, { description: 'ERP' }));
    await audited('POST /api/orgs/{orgId}/webhooks/{webhookId}/rotate-secret', 'webhook.secret_rotated', () => call('POST', org(`/webhooks/${id}/rotate-secret`), hooksAdmin));
    const ping = await audited('POST /api/orgs/{orgId}/webhooks/{webhookId}/test', 'webhook.test_sent', () => call('POST', org(`/webhooks/${id}/test`), hooksAdmin));
    await query(`update webhook_deliveries set status = 'delivered' where id = $1`, [ping.body.id]);
    await audited('POST /api/orgs/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'webhook.redelivered', () =>
      call('POST', org(`/webhooks/${id}/deliveries/${ping.body.id}/redeliver`), hooksAdmin));
    await audited('DELETE /api/orgs/{orgId}/webhooks/{webhookId}', 'webhook.deleted', () => call('DELETE', org(`/webhooks/${id}`), hooksAdmin));
    await audited('PUT /api/orgs/{orgId}/tsr-connections', 'tsr_connection.saved', () =>
      call('PUT', org('/tsr-connections'), hooksAdmin, { system: 'servicenow', baseUrl: 'https://93.184.215.14', username: 'integration', password: 'pw' }));
    await audited('DELETE /api/orgs/{orgId}/tsr-connections/{system}', 'tsr_connection.deleted', () => call('DELETE', org('/tsr-connections/servicenow'), hooksAdmin));
  });
  // ── end of issue 13, outbound webhooks ─────────────────────────────────────────────────────────

  // ── Issue 13, delivery logs of the TSR link and of carriers' SSC subscriptions (h-integlog) ───────
  it('a TSR work note sent again; a carrier’s SSC subscription removed by the admin', async () => {
    const logAdmin = await session('admin@coverage.test');
    await call('PUT', org('/tsr-connections'), logAdmin, { system: 'servicenow', baseUrl: 'https://93.184.215.14', username: 'integration', password: 'pw' });
    const [connection] = await query<{ id: string }>(`select id from tsr_connections where org_id = $1 and system = 'servicenow'`, [orgId]);
    const [note] = await query<{ id: string }>(
      `insert into webhook_deliveries (org_id, kind, connection_id, event_type, event_id, url, body, status, max_attempts)
       values ($1, 'tsr', $2, 'tsr.servicenow.work_note', gen_random_uuid(), 'https://93.184.215.14/api/now/table/sc_task/0123456789abcdef0123456789abcdef', '{}', 'failed', 6) returning id`,
      [orgId, connection!.id],
    );
    await audited('POST /api/orgs/{orgId}/tsr-connections/{system}/deliveries/{deliveryId}/redeliver', 'tsr_connection.redelivered', () =>
      call('POST', org(`/tsr-connections/servicenow/deliveries/${note!.id}/redeliver`), logAdmin));
    const [tenant] = await query<{ id: string }>(`select id from tenants where org_id = $1 order by created_at limit 1`, [orgId]);
    const [subscription] = await query<{ id: string }>(
      `insert into ssc_webhook_subscriptions (org_id, tenant_id, event_types, callback_url) values ($1, $2, '{appointment-changed}', 'https://tms.example.com/ssc') returning id`,
      [orgId, tenant!.id],
    );
    const [event] = await query<{ id: string }>(
      `insert into webhook_deliveries (org_id, kind, subscription_id, event_type, event_id, url, body, status, max_attempts)
       values ($1, 'ssc', $2, 'appointment-changed', gen_random_uuid(), 'https://tms.example.com/ssc', '{}', 'failed', 6) returning id`,
      [orgId, subscription!.id],
    );
    await audited('POST /api/orgs/{orgId}/ssc-subscriptions/{subscriptionId}/deliveries/{deliveryId}/redeliver', 'ssc.subscription_redelivered', () =>
      call('POST', org(`/ssc-subscriptions/${subscription!.id}/deliveries/${event!.id}/redeliver`), logAdmin));
    await audited('DELETE /api/orgs/{orgId}/ssc-subscriptions/{subscriptionId}', 'ssc.subscription_deleted', () =>
      call('DELETE', org(`/ssc-subscriptions/${subscription!.id}`), logAdmin));
  });
  // ── end of the delivery logs ──────────────────────────────────────────────────────────────────────

  it('a haulier’s sign-in link, sign-in, standing request and sign-out', async () => {
    await audited('POST /api/public/haulier/sign-in-link', 'haulier.sign_in_link_requested', () => call('POST', '/api/public/haulier/sign-in-link', {}, { email: 'driver@regular.test' }), {
      ofOrg: false,
    });
    const token = await mailLink('driver@regular.test', /\/book\/account\/sign-in#token=([\w-]+)/);
    const signedIn = await audited('POST /api/public/haulier/sessions', 'haulier.signed_in', () => call('POST', '/api/public/haulier/sessions', {}, { token }), { ofOrg: false });
    const cookie = { cookie: String([signedIn.headers['set-cookie']].flat()[0]).split(';')[0]! };
    await query(`insert into tenants (org_id, name, email_domains, standing_requests_allowed) values ($1, 'Regular Test Runs', '{regular.test}', true)`, [orgId]);
    await audited('POST /api/public/haulier/standing-requests', 'standing_booking.requested', () =>
      call('POST', '/api/public/haulier/standing-requests', cookie, {
        orgId,
        siteId,
        tenantName: 'Regular Test Runs',
        contactName: 'Dee',
        weekdays: [2],
        startLocal: '07:00',
        durationMin: 60,
        startsOn: '2026-12-01',
        tsrNumber: 'TSR-STANDING',
        vehicleType: 'rigid',
        vehicleRegistration: 'STD1',
        vehicleHeightM: 3,
      }),
    );
    await audited('DELETE /api/public/haulier/sessions/current', 'haulier.signed_out', () => call('DELETE', '/api/public/haulier/sessions/current', cookie), { ofOrg: false });
  });

  it('covers every write route of the route table (or names why it writes no entry)', () => {
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(writes.length).toBeGreaterThan(50);
    const unaccounted = writes.filter((route) => !covered.has(route) && !(route in EXEMPT));
    expect(unaccounted, 'write routes neither exercised here nor exempt').toEqual([]);
    // Neither list names a route that no longer exists.
    expect([...covered.keys(), ...Object.keys(EXEMPT)].filter((route) => !writes.includes(route))).toEqual([]);
  });
});
