import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../../../domain/realtime';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// The organization's bays API: add, edit, close, reopen, delete — names unique per site in any
// case, natural order, bays with bookings kept for their history, upcoming bookings never left
// silently on a bay that no longer takes them, the portal offering a new bay at once, and nothing
// of it reachable from outside the organization.

// 11:00 on a Monday in Sydney.
const NOW = '2026-11-23T00:00:00Z';
const HOUR = 3_600_000;

type Bay = {
  id: string;
  siteId: string;
  name: string;
  heightClearanceM: number;
  lengthM: number | null;
  features: string[];
  capacity: number;
  active: boolean;
  upcomingBookings: number;
  hasBookings: boolean;
};

describe.each(databaseKinds)('organization bays API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let harbourDcId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`,
      [user!.id, NOW],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };
  const url = (path: string, orgId = acmeId) => `/api/orgs/${orgId}${path}`;

  /** A site of Acme of its own, so each test sees only its bays. */
  const newSite = async (orgId = acmeId) => {
    seq += 1;
    const [site] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, $2, 'Australia/Sydney') returning id`, [orgId, `Bay Yard ${seq}`]);
    return site!.id;
  };
  const create = async (siteId: string, body: Record<string, unknown>, headers = admin) =>
    call('POST', url('/bays'), headers, { siteId, heightClearanceM: 4.5, ...body });
  const createBay = async (siteId: string, body: Record<string, unknown>): Promise<Bay> => {
    const res = await create(siteId, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.bay;
  };
  const bayRow = async (id: string) =>
    (await query<{ name: string; height_clearance_m: string; active: boolean; features: string[] }>(`select name, height_clearance_m, active, features from bays where id = $1`, [id]))[0];
  const countBays = async (siteId: string) => (await query<{ n: number }>(`select count(*)::int as n from bays where site_id = $1`, [siteId]))[0]!.n;

  /** A booking on `bayId` at `hoursFromNow` for an hour, with the vehicle given. */
  const booking = async (
    siteId: string,
    bayId: string,
    options: { status?: string; hoursFromNow?: number; heightM?: number; lengthM?: number | null; needs?: string[]; email?: string } = {},
  ) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + (options.hoursFromNow ?? 48) * HOUR);
    const end = new Date(start.getTime() + HOUR);
    const height = options.heightM ?? 3.5;
    const length = options.lengthM ?? null;
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, vehicle_length_mm, vehicle_length_m,
                             special_access_needs, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'Bay Test Haulage', $5, $6, $7, $6, $7, 'rigid', $8, $9, $10, $11, $12, $13, $14, 'admin', 60) returning id`,
      [
        acmeId,
        siteId,
        bayId,
        `TSR-BAY-${seq}`,
        options.email ?? `haulier${seq}@bays.test`,
        start.toISOString(),
        end.toISOString(),
        `BAY${seq}`,
        Math.round(height * 1000),
        height,
        length === null ? null : Math.round(length * 1000),
        length,
        options.needs ?? null,
        options.status ?? 'approved',
      ],
    );
    return row!.id;
  };
  const bookingRow = async (id: string) =>
    (await query<{ bay_id: string; status: string; status_reason: string | null }>(`select bay_id, status, status_reason from bookings where id = $1`, [id]))[0]!;
  const audit = async (resourceId: string) =>
    query<{ action: string; actor_email: string; details: Record<string, unknown> }>(
      `select action, actor_email, details from audit_log where resource_id = $1 order by created_at, id`,
      [resourceId],
    );
  const mailTo = async (address: string) =>
    (await t.outbox()).filter((m) => [m.to].flat().some((to) => to?.value.some((a) => a.address === address)));

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    harbourDcId = (await query<{ id: string }>(`select id from sites where org_id = $1`, [harbourId]))[0]!.id;
    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('adding and editing', () => {
    it('adds a bay with its dimensions and features, audited and announced live', async () => {
      const siteId = await newSite();
      const heard: RealtimeEvent[] = [];
      const stop = t.ctx.realtime!.subscribe!({ orgId: acmeId, siteId: null }, (e) => heard.push(e));
      const res = await create(siteId, { name: '  C-1 ', heightClearanceM: 4.25, lengthM: 18.5, features: ['escort', 'refrigerated', 'escort'], capacity: 2 });
      expect(res.status).toBe(201);
      expect(res.body.outcomes).toEqual([]);
      expect(res.body.bay).toMatchObject({
        siteId,
        name: 'C-1',
        heightClearanceM: 4.25,
        lengthM: 18.5,
        features: ['refrigerated', 'escort'],
        capacity: 2,
        active: true,
        upcomingBookings: 0,
        hasBookings: false,
      });
      const id = res.body.bay.id as string;
      expect(await audit(id)).toEqual([
        expect.objectContaining({ action: 'bay.created', actor_email: 'admin@acme.test', details: expect.objectContaining({ name: 'C-1', height_clearance_m: 4.25 }) }),
      ]);
      // Optional fields left out: no length limit, no features, capacity 1.
      const plain = await createBay(siteId, { name: 'C-2' });
      expect(plain).toMatchObject({ lengthM: null, features: [], capacity: 1 });
      // Delivered after commit (through NOTIFY on PostgreSQL).
      await vi.waitFor(() => expect(heard).toEqual(expect.arrayContaining([expect.objectContaining({ entity: 'bay', action: 'created', id, orgId: acmeId, siteId })])));
      stop();
    });

    it('refuses a duplicate name at the site (in any case) and a negative clearance with field errors; nothing changes', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'Dock A' });
      for (const name of ['Dock A', 'dock a', ' DOCK A ']) {
        const dup = await create(siteId, { name });
        expect(dup.status).toBe(400);
        expect(dup.body.error.details).toEqual([{ path: 'name', message: 'A bay with this name already exists at this site' }]);
      }
      const negative = await create(siteId, { name: 'Dock B', heightClearanceM: -1 });
      expect(negative.status).toBe(400);
      expect(negative.body.error.details).toEqual([{ path: 'heightClearanceM', message: 'Height clearance must be greater than 0 m' }]);
      const zeroLength = await create(siteId, { name: 'Dock B', lengthM: 0, capacity: 0 });
      expect(zeroLength.status).toBe(400);
      expect(zeroLength.body.error.details).toEqual(
        expect.arrayContaining([
          { path: 'lengthM', message: 'Length must be greater than 0 m (or left empty)' },
          { path: 'capacity', message: 'Capacity must be at least 1' },
        ]),
      );
      const badFeature = await create(siteId, { name: 'Dock B', features: ['teleporter'] });
      expect(badFeature.status).toBe(400);
      expect(await countBays(siteId)).toBe(1);

      // The same name at another site is another bay.
      const other = await newSite();
      expect((await create(other, { name: 'dock a' })).status).toBe(201);
      // A site of another organization is not one of ours.
      const foreign = await create(harbourDcId, { name: 'Dock Z' });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.details).toEqual([{ path: 'siteId', message: 'Choose a site of this organization' }]);

      // Renaming onto a taken name, or lowering below zero, changes nothing either.
      const second = await createBay(siteId, { name: 'Dock B' });
      const rename = await call('PATCH', url(`/bays/${second.id}`), admin, { name: 'DOCK a' });
      expect(rename.status).toBe(400);
      expect(rename.body.error.details).toEqual([{ path: 'name', message: 'A bay with this name already exists at this site' }]);
      const lower = await call('PATCH', url(`/bays/${second.id}`), admin, { heightClearanceM: -0.5 });
      expect(lower.status).toBe(400);
      expect(lower.body.error.details).toEqual([{ path: 'heightClearanceM', message: 'Height clearance must be greater than 0 m' }]);
      expect(await bayRow(second.id)).toMatchObject({ name: 'Dock B', active: true });
      expect(Number((await bayRow(second.id))!.height_clearance_m)).toBe(4.5);
      expect((await audit(second.id)).map((a) => a.action)).toEqual(['bay.created']);
      expect((await audit(bay.id)).map((a) => a.action)).toEqual(['bay.created']);
    });

    it('edits a bay, recording what changed; an unchanged edit writes nothing', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'E-1', features: ['hazardous'] });
      const res = await call('PATCH', url(`/bays/${bay.id}`), admin, { name: 'E-01', heightClearanceM: 5.1, lengthM: 20, features: ['hazardous', 'oversize'], capacity: 3 });
      expect(res.status).toBe(200);
      expect(res.body.bay).toMatchObject({ name: 'E-01', heightClearanceM: 5.1, lengthM: 20, features: ['oversize', 'hazardous'], capacity: 3 });
      expect(res.body.outcomes).toEqual([]);
      const updated = (await audit(bay.id)).find((a) => a.action === 'bay.updated')!;
      expect(updated.details.changes).toMatchObject({ name: { from: 'E-1', to: 'E-01' }, heightClearanceM: { from: 4.5, to: 5.1 }, capacity: { from: 1, to: 3 } });
      const same = await call('PATCH', url(`/bays/${bay.id}`), admin, { name: 'E-01', capacity: 3 });
      expect(same.status).toBe(200);
      expect((await audit(bay.id)).filter((a) => a.action === 'bay.updated')).toHaveLength(1);
      // Clearing the length: no limit.
      const cleared = await call('PATCH', url(`/bays/${bay.id}`), admin, { lengthM: null });
      expect(cleared.body.bay.lengthM).toBeNull();
      // Moving to another site is for bays without bookings.
      const other = await newSite();
      const moved = await call('PATCH', url(`/bays/${bay.id}`), admin, { siteId: other });
      expect(moved.status).toBe(200);
      expect(moved.body.bay.siteId).toBe(other);
      await booking(other, bay.id, { status: 'completed', hoursFromNow: -30 });
      const back = await call('PATCH', url(`/bays/${bay.id}`), admin, { siteId });
      expect(back.status).toBe(400);
      expect(back.body.error.details[0].path).toBe('siteId');
      expect((await call('PATCH', url('/bays/00000000-0000-4000-8000-000000000000'), admin, { name: 'X' })).status).toBe(404);
      expect((await call('PATCH', url('/bays/not-a-uuid'), admin, { name: 'X' })).status).toBe(404);
    });
  });

  describe('listing', () => {
    it('lists a site’s bays in natural order (B-2 before B-10) with their upcoming bookings, a page at a time', async () => {
      const siteId = await newSite();
      const made: Record<string, Bay> = {};
      for (const name of ['B-10', 'B-2', 'b-1', 'A-3', 'B-11', 'B-20', 'B-3', 'B-4', 'B-5', 'B-6', 'B-7', 'B-8']) made[name] = await createBay(siteId, { name });
      await booking(siteId, made['B-2']!.id, { hoursFromNow: 5 });
      await booking(siteId, made['B-2']!.id, { hoursFromNow: 7, status: 'pending' });
      await booking(siteId, made['B-2']!.id, { hoursFromNow: 9, status: 'cancelled' });
      await booking(siteId, made['B-2']!.id, { hoursFromNow: -9, status: 'completed' });
      await call('POST', url(`/bays/${made['B-8']!.id}/deactivate`), admin);

      const all = await call('GET', url(`/bays?siteId=${siteId}&pageSize=100`), dock);
      expect(all.status).toBe(200);
      expect(all.body.items.map((b: Bay) => b.name)).toEqual(['A-3', 'b-1', 'B-2', 'B-3', 'B-4', 'B-5', 'B-6', 'B-7', 'B-8', 'B-10', 'B-11', 'B-20']);
      expect(all.body.total).toBe(12);
      expect(all.body.items.find((b: Bay) => b.name === 'B-2')).toMatchObject({ upcomingBookings: 2, hasBookings: true });
      expect(all.body.items.find((b: Bay) => b.name === 'B-3')).toMatchObject({ upcomingBookings: 0, hasBookings: false });

      const page2 = await call('GET', url(`/bays?siteId=${siteId}&pageSize=10&page=2`), admin);
      expect(page2.body).toMatchObject({ total: 12, page: 2, pageSize: 10 });
      expect(page2.body.items.map((b: Bay) => b.name)).toEqual(['B-11', 'B-20']);
      const beyond = await call('GET', url(`/bays?siteId=${siteId}&pageSize=10&page=9`), admin);
      expect(beyond.body).toMatchObject({ items: [], total: 12 });

      const inactive = await call('GET', url(`/bays?siteId=${siteId}&active=false`), admin);
      expect(inactive.body.items.map((b: Bay) => b.name)).toEqual(['B-8']);
      const active = await call('GET', url(`/bays?siteId=${siteId}&active=true`), admin);
      expect(active.body.total).toBe(11);

      // Every site of the organization when none is named; never another organization's.
      const everything = await call('GET', url('/bays?pageSize=100'), admin);
      expect(everything.body.total).toBeGreaterThan(20);
      expect(everything.body.items.some((b: { siteName: string }) => b.siteName === 'North Terminal')).toBe(true);
      expect(JSON.stringify(everything.body)).not.toContain('H-01');
      expect((await call('GET', url(`/bays?siteId=${harbourDcId}`), admin)).body).toMatchObject({ items: [], total: 0 });
      expect((await call('GET', url('/bays?pageSize=7'), admin)).status).toBe(400);
      expect((await call('GET', url('/bays?siteId=nope'), admin)).status).toBe(400);
    });
  });

  describe('deactivating, reactivating, deleting', () => {
    it('closes and reopens a bay without bookings, audited', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'R-1' });
      const off = await call('POST', url(`/bays/${bay.id}/deactivate`), admin);
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ bay: expect.objectContaining({ active: false }), outcomes: [] });
      // Again: already closed, nothing to do.
      expect((await call('POST', url(`/bays/${bay.id}/deactivate`), admin, {})).status).toBe(200);
      const on = await call('POST', url(`/bays/${bay.id}/reactivate`), admin);
      expect(on.status).toBe(200);
      expect(on.body.bay.active).toBe(true);
      expect((await audit(bay.id)).map((a) => a.action)).toEqual(['bay.created', 'bay.deactivated', 'bay.reactivated']);
    });

    it('deletes a bay that never had a booking; one with bookings answers 409 bay_has_bookings and stays', async () => {
      const siteId = await newSite();
      const unused = await createBay(siteId, { name: 'D-1' });
      const used = await createBay(siteId, { name: 'D-2' });
      await booking(siteId, used.id, { status: 'completed', hoursFromNow: -48 });

      const gone = await call('DELETE', url(`/bays/${unused.id}`), admin);
      expect(gone.status).toBe(204);
      expect(await bayRow(unused.id)).toBeUndefined();
      expect((await audit(unused.id)).map((a) => a.action)).toEqual(['bay.created', 'bay.deleted']);
      expect((await call('DELETE', url(`/bays/${unused.id}`), admin)).status).toBe(404);

      const kept = await call('DELETE', url(`/bays/${used.id}`), admin);
      expect(kept.status).toBe(409);
      expect(kept.body.error.code).toBe('bay_has_bookings');
      expect(kept.body.error.message).toContain('Deactivate it instead');
      expect(await bayRow(used.id)).toMatchObject({ name: 'D-2', active: true });
      expect((await audit(used.id)).map((a) => a.action)).toEqual(['bay.created']);
    });
  });

  describe('upcoming bookings a change affects', () => {
    it('closing a bay with upcoming bookings answers 409 listing them; reassign moves them to a free compatible bay and tells the haulier', async () => {
      const siteId = await newSite();
      const closing = await createBay(siteId, { name: 'M-1', heightClearanceM: 4.5 });
      const spare = await createBay(siteId, { name: 'M-2', heightClearanceM: 4.8 });
      await createBay(siteId, { name: 'M-0', heightClearanceM: 3.0 }); // too low for the vehicles
      const a = await booking(siteId, closing.id, { hoursFromNow: 30, email: 'move-a@bays.test' });
      const b = await booking(siteId, closing.id, { hoursFromNow: 50, email: 'move-b@bays.test' });
      await booking(siteId, spare.id, { hoursFromNow: 50 }); // M-2 is busy when b is due
      await booking(siteId, closing.id, { hoursFromNow: -30, status: 'completed' }); // the past is not affected

      const asked = await call('POST', url(`/bays/${closing.id}/deactivate`), admin);
      expect(asked.status).toBe(409);
      expect(asked.body.error.code).toBe('affected_bookings');
      expect(asked.body.error.message).toContain('closing bay M-1');
      expect(asked.body.error.details.affected.map((x: { id: string }) => x.id)).toEqual([a, b]);
      expect(asked.body.error.details.affected[0]).toMatchObject({ bayName: 'M-1', vehicleHeightM: 3.5, tenantEmail: 'move-a@bays.test' });
      expect(await bayRow(closing.id)).toMatchObject({ active: true });
      expect((await bookingRow(a)).bay_id).toBe(closing.id);

      const res = await call('POST', url(`/bays/${closing.id}/deactivate`), admin, { resolution: { action: 'reassign' } });
      expect(res.status).toBe(200);
      expect(res.body.bay.active).toBe(false);
      expect(res.body.outcomes).toEqual([
        expect.objectContaining({ id: a, outcome: 'moved', bayName: 'M-2' }),
        expect.objectContaining({ id: b, outcome: 'not_moved', bayName: 'M-1', message: 'No other compatible bay is free at that time' }),
      ]);
      expect(await bookingRow(a)).toMatchObject({ bay_id: spare.id, status: 'approved' });
      expect(await bookingRow(b)).toMatchObject({ bay_id: closing.id, status: 'approved' });
      expect(await audit(a)).toEqual([
        expect.objectContaining({ action: 'booking.reassigned', actor_email: 'admin@acme.test', details: expect.objectContaining({ previous_bay: 'M-1', new_bay: 'M-2' }) }),
      ]);
      expect((await audit(closing.id)).at(-1)).toMatchObject({ action: 'bay.deactivated', details: { name: 'M-1', affected_bookings: 2, resolution: 'reassign' } });
      const moved = await mailTo('move-a@bays.test');
      expect(moved.map((m) => m.subject)).toEqual([expect.stringContaining('Booking rescheduled by the site')]);
      expect(moved[0]!.text).toContain('M-2');
      expect(await mailTo('move-b@bays.test')).toEqual([]);
    });

    it('cancel needs a reason, cancels the bookings and e-mails the reason to the haulier', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'X-1' });
      const id = await booking(siteId, bay.id, { hoursFromNow: 26, status: 'pending', email: 'cancel@bays.test' });
      const noReason = await call('POST', url(`/bays/${bay.id}/deactivate`), admin, { resolution: { action: 'cancel' } });
      expect(noReason.status).toBe(400);
      expect(JSON.stringify(noReason.body)).toContain('Give the reason the hauliers will be sent');
      expect(await bayRow(bay.id)).toMatchObject({ active: true });

      const res = await call('POST', url(`/bays/${bay.id}/deactivate`), admin, { resolution: { action: 'cancel', reason: 'Bay X-1 is closed for resurfacing' } });
      expect(res.status).toBe(200);
      expect(res.body.outcomes).toEqual([expect.objectContaining({ id, outcome: 'cancelled' })]);
      expect(await bookingRow(id)).toMatchObject({ status: 'cancelled', status_reason: 'Bay X-1 is closed for resurfacing' });
      const mail = await mailTo('cancel@bays.test');
      expect(mail.at(-1)?.subject).toContain('cancelled by the site');
      expect(mail.at(-1)?.text).toContain('Bay X-1 is closed for resurfacing');
      expect(res.body.bay).toMatchObject({ active: false, upcomingBookings: 0 });
    });

    it('lowering the clearance below a booked vehicle, shortening it or removing a needed feature lists the bookings it no longer fits', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'L-1', heightClearanceM: 5, lengthM: 20, features: ['refrigerated', 'hazardous'] });
      const tall = await booking(siteId, bay.id, { hoursFromNow: 30, heightM: 4.2 });
      const small = await booking(siteId, bay.id, { hoursFromNow: 32, heightM: 2.5, lengthM: 8 });
      const long = await booking(siteId, bay.id, { hoursFromNow: 34, heightM: 2.5, lengthM: 18 });
      const cold = await booking(siteId, bay.id, { hoursFromNow: 36, heightM: 2.5, needs: ['refrigerated'] });
      const patch = (body: Record<string, unknown>) => call('PATCH', url(`/bays/${bay.id}`), admin, body);
      const listed = (res: { body: { error: { details: { affected: { id: string }[] } } } }) => res.body.error.details.affected.map((x) => x.id);

      const lower = await patch({ heightClearanceM: 4 });
      expect(lower.status).toBe(409);
      expect(lower.body.error.code).toBe('affected_bookings');
      expect(listed(lower)).toEqual([tall]);
      const shorter = await patch({ lengthM: 12 });
      expect(listed(shorter)).toEqual([long]);
      const noCold = await patch({ features: ['hazardous'] });
      expect(listed(noCold)).toEqual([cold]);
      const together = await patch({ heightClearanceM: 4, lengthM: 12, features: [] });
      expect(listed(together)).toEqual([tall, long, cold]);
      expect(Number((await bayRow(bay.id))!.height_clearance_m)).toBe(5);
      expect((await audit(bay.id)).map((a) => a.action)).toEqual(['bay.created']);
      // Raising it, or lowering it above every vehicle, asks nothing.
      expect((await patch({ heightClearanceM: 4.5 })).status).toBe(200);

      // Keep: the change applies, the booking stays where it is.
      const kept = await patch({ heightClearanceM: 4, resolution: { action: 'keep' } });
      expect(kept.status).toBe(200);
      expect(kept.body.bay.heightClearanceM).toBe(4);
      expect(kept.body.outcomes).toEqual([expect.objectContaining({ id: tall, outcome: 'kept' })]);
      expect((await bookingRow(tall)).bay_id).toBe(bay.id);
      expect((await bookingRow(small)).bay_id).toBe(bay.id);
      expect((await audit(bay.id)).at(-1)).toMatchObject({ action: 'bay.updated', details: expect.objectContaining({ affected_bookings: 1, resolution: 'keep' }) });
    });
  });

  describe('the booking portal', () => {
    it('offers a new tall bay at once to a vehicle no bay took before, and stops when it is closed', async () => {
      const date = '2026-11-25';
      const availability = async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId: harbourId, date, durationMin: 60, vehicleHeightM: 5.2 } });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { compatibleBays: number; slots: { available: boolean }[] };
        return { compatibleBays: body.compatibleBays, open: body.slots.filter((s) => s.available).length };
      };
      expect(await availability()).toEqual({ compatibleBays: 0, open: 0 });
      const res = await call('POST', url('/bays', harbourId), harbourAdmin, { siteId: harbourDcId, name: 'H-05', heightClearanceM: 5.5 });
      expect(res.status).toBe(201);
      const now = await availability();
      expect(now.compatibleBays).toBe(1);
      expect(now.open).toBeGreaterThan(0);
      expect((await call('POST', url(`/bays/${res.body.bay.id}/deactivate`, harbourId), harbourAdmin)).status).toBe(200);
      expect(await availability()).toEqual({ compatibleBays: 0, open: 0 });
      expect((await call('POST', url(`/bays/${res.body.bay.id}/reactivate`, harbourId), harbourAdmin)).status).toBe(200);
      expect((await availability()).compatibleBays).toBe(1);
    });
  });

  describe('outsiders', () => {
    it('lets dockmasters read but not write, and shows nothing to other organizations, security staff or anonymous callers', async () => {
      const siteId = await newSite();
      const bay = await createBay(siteId, { name: 'O-1' });
      const routes: Array<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [
        { method: 'GET', path: `/bays?siteId=${siteId}` },
        { method: 'GET', path: `/bays/${bay.id}` },
        { method: 'POST', path: '/bays', body: { siteId, name: 'O-2', heightClearanceM: 4 } },
        { method: 'PATCH', path: `/bays/${bay.id}`, body: { name: 'O-9' } },
        { method: 'POST', path: `/bays/${bay.id}/deactivate` },
        { method: 'POST', path: `/bays/${bay.id}/reactivate` },
        { method: 'DELETE', path: `/bays/${bay.id}` },
      ];
      const writes = routes.filter((r) => r.method !== 'GET');
      for (const route of routes) {
        for (const [who, headers, status] of [
          ["another organization's admin", harbourAdmin, 404],
          ['security staff', security, 404],
          ['anonymous', {}, 401],
        ] as const) {
          const res = await call(route.method, url(route.path), headers, route.body);
          expect({ route: `${route.method} ${route.path}`, who, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, who, status });
          expect(JSON.stringify(res.body)).not.toContain('O-1');
        }
        const byDock = await call(route.method, url(route.path), dock, route.body);
        expect({ route: `${route.method} ${route.path}`, status: byDock.status }).toEqual({ route: `${route.method} ${route.path}`, status: writes.includes(route) ? 403 : 200 });
      }
      // Acme's bay through Harbour's own prefix is not Harbour's.
      expect((await call('GET', url(`/bays/${bay.id}`, harbourId), harbourAdmin)).status).toBe(404);
      expect((await call('PATCH', url(`/bays/${bay.id}`, harbourId), harbourAdmin, { name: 'Stolen' })).status).toBe(404);
      expect((await call('DELETE', url(`/bays/${bay.id}`, harbourId), harbourAdmin)).status).toBe(404);
      // Nothing moved.
      expect(await bayRow(bay.id)).toMatchObject({ name: 'O-1', active: true });
      expect(await countBays(siteId)).toBe(1);
    });
  });
});
