import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../domain/constants';
import { blackouts } from '../../db/schema';
import { createBay, createOrg, createSite } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { bookSlotFast, slotIsFull } from './book-slot-fast';
import { orgRules, type OrgRules, type SiteRules } from './org-rules';
import { bookableWindows } from './slot-windows';

// Monday 2026-11-23 00:00 UTC = 11:00 in Sydney.
const NOW = new Date('2026-11-23T00:00:00Z');

const sydney: SiteRules = {
  id: 'site-syd',
  name: 'Sydney',
  timeZone: 'Australia/Sydney',
  operatingHours: DEFAULT_OPERATING_HOURS,
  slotIntervalMin: 30,
  minAdvanceMin: 120,
  bookingHorizonDays: 60,
};

describe('bookableWindows (one slot, the site rules)', () => {
  it('gives the slot instant in the site time zone with the whole duration', () => {
    expect(bookableWindows([sydney], '2026-11-24', '09:00', 60, NOW)).toEqual([
      { siteId: 'site-syd', start: new Date('2026-11-23T22:00:00Z'), end: new Date('2026-11-23T23:00:00Z') },
    ]);
  });

  it('refuses slots off the grid, outside hours, running past closing, too soon, or beyond the horizon', () => {
    expect(bookableWindows([sydney], '2026-11-24', '09:15', 30, NOW)).toEqual([]); // off the 30-min grid
    expect(bookableWindows([sydney], '2026-11-24', '05:30', 30, NOW)).toEqual([]); // before opening
    expect(bookableWindows([sydney], '2026-11-24', '21:30', 60, NOW)).toEqual([]); // past 22:00 closing
    expect(bookableWindows([sydney], '2026-11-23', '12:30', 30, NOW)).toEqual([]); // 1.5 h ahead < 2 h
    expect(bookableWindows([sydney], '2026-11-23', '13:00', 30, NOW)).toHaveLength(1); // exactly 2 h ahead
    expect(bookableWindows([sydney], '2027-01-22', '09:00', 30, NOW)).toHaveLength(1); // today + 60 days
    expect(bookableWindows([sydney], '2027-01-23', '09:00', 30, NOW)).toEqual([]); // beyond
    expect(bookableWindows([sydney], '2026-11-29', '09:00', 30, NOW)).toEqual([]); // Sunday opens 10:00
  });
});

describe.each(databaseKinds)('bookSlotFast on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  const bayIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const org = await createOrg(t.ctx.database, { name: 'Allocation Org' });
    orgId = org.id;
    const site = await createSite(t.ctx.database, org.id, { name: 'Alloc Site', timeZone: 'Australia/Sydney' });
    siteId = site.id;
    // Best fit: the lowest clearance that fits, then natural name order (B-2 before B-10).
    for (const [name, clearance] of [['B-10', 4.0], ['B-2', 4.0], ['TALL', 5.5], ['LOW', 2.5]] as const) {
      bayIds[name] = (await createBay(t.ctx.database, site, { name, heightClearanceM: clearance })).id;
    }
  });
  afterAll(() => t.close());

  const book = async (slot: string, registration: string, heightM = 3.5) => {
    const rules = (await orgRules(t.ctx.database, orgId))!;
    const id = randomUUID();
    return bookSlotFast(t.ctx.database, {
      rules,
      windows: bookableWindows(rules.sites, '2026-11-24', slot, 60, NOW),
      vehicle: { heightM, lengthM: null, needs: [] },
      record: {
        id,
        org_id: orgId,
        tsr_number: `TSR-${registration}`,
        tenant_name: 'Alloc Freight',
        tenant_email: 'alloc@example.test',
        booking_type: 'delivery',
        vehicle_type: 'rigid',
        vehicle_registration: registration,
        vehicle_height_mm: heightM * 1000,
        vehicle_height_m: heightM,
        expected_duration_min: 60,
        driver_induction_completed: true,
        status: 'pending',
        source: 'portal',
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      },
      audit: { details: { source: 'portal' }, ip: '203.0.113.9', at: NOW },
      mail: [['booking.received', ['alloc@example.test']]],
      mailPayload: { documents: 0 },
    });
  };

  /** The bay booked, or 'full' / null when nothing was. */
  const bayOf = (booked: Awaited<ReturnType<typeof book>>) => (booked && booked !== 'full' ? booked.bayName : booked);

  it("takes the best-fit free bay, then the next, then answers 'full' when none is left", async () => {
    expect(bayOf(await book('09:00', 'AL1'))).toBe('B-2');
    expect(bayOf(await book('09:00', 'AL2'))).toBe('B-10');
    expect(bayOf(await book('09:00', 'AL3'))).toBe('TALL');
    expect(await book('09:00', 'AL4')).toBe('full');
    const audit = await t.ctx.database.query<{ n: number }>("select count(*)::int as n from audit_log where action = 'booking.created' and org_id = $1", [orgId]);
    expect(audit[0]!.n).toBe(3);
    const mail = await t.ctx.database.query<{ n: number }>("select count(*)::int as n from mail_outbox where org_id = $1 and kind = 'booking.received'", [orgId]);
    expect(mail[0]!.n).toBe(3);
  });

  it('never takes a bay that is blacked out or too low', async () => {
    await t.ctx.database.db.insert(blackouts).values({
      orgId,
      siteId,
      bayId: bayIds['B-2']!,
      startTime: new Date('2026-11-24T02:00:00Z'), // 13:00 Sydney
      endTime: new Date('2026-11-24T03:00:00Z'),
    });
    expect(bayOf(await book('13:00', 'AL5'))).toBe('B-10');
    expect(bayOf(await book('14:00', 'AL6', 5.0))).toBe('TALL');
    // The only bay tall enough is taken: full, though lower bays are free.
    expect(await book('14:00', 'AL6B', 5.0)).toBe('full');
  });

  it("answers 'full' only when the full path would say 'No Available Bay'", async () => {
    // No bay is tall enough: the full path says no compatible bay (422), so no answer here.
    expect(await book('16:00', 'AL8', 9)).toBeNull();
    // Every bay tall enough is blacked out: no available bay.
    await t.ctx.database.db.insert(blackouts).values({ orgId, siteId, bayId: bayIds.TALL!, startTime: new Date('2026-11-24T05:00:00Z'), endTime: new Date('2026-11-24T06:00:00Z') });
    expect(await book('16:00', 'AL9', 5.0)).toBe('full');
    // The site under an emergency stop: the full path names the stop.
    await t.ctx.database.query('update sites set emergency_at = $2 where id = $1', [siteId, NOW]);
    try {
      expect(await book('16:00', 'AL10', 5.0)).toBeNull();
    } finally {
      await t.ctx.database.query('update sites set emergency_at = null where id = $1', [siteId]);
    }
  });

  it('answers null with a stale copy of the site rules, and books again with a fresh one', async () => {
    await orgRules(t.ctx.database, orgId); // cached
    await t.ctx.database.query('update sites set min_advance_min = 60 where id = $1', [siteId]);
    expect(await book('15:00', 'AL7')).toBeNull();
    await orgRules(t.ctx.database, orgId, true);
    expect(bayOf(await book('15:00', 'AL7'))).toBe('B-2');
  });

  it("passes over a free bay another claimant is booking instead of queuing on it (PostgreSQL; PGlite's one session holds every lock itself)", async () => {
    // Another claimant holds B-2's (bay, day) lock, the key claimBay and the statement take.
    const key = `hashtextextended('${bayIds['B-2']}'::text, floor(extract(epoch from '2026-11-24T07:00:00Z'::timestamptz) / 86400)::bigint)`;
    const other = t.ctx.database.pool ? await t.ctx.database.pool.connect() : null;
    const hold = (sql: string) => (other ? other.query(sql) : t.ctx.database.query(sql));
    await hold(`select pg_advisory_lock(${key})`);
    try {
      expect(bayOf(await book('18:00', 'PASS1'))).toBe(kind === 'postgres' ? 'B-10' : 'B-2');
    } finally {
      await hold(`select pg_advisory_unlock(${key})`);
      other?.release();
    }
    // Lock free again: best fit as usual.
    expect(bayOf(await book('18:00', 'PASS2'))).toBe(kind === 'postgres' ? 'B-2' : 'B-10');
  });

  it("the read-only check says full exactly where the statement answers 'full'", async () => {
    const ask = async (slot: string, heightM = 3.5, rules?: OrgRules) => {
      const r = rules ?? (await orgRules(t.ctx.database, orgId))!;
      return slotIsFull(t.ctx.database, { rules: r, windows: bookableWindows(r.sites, '2026-11-24', slot, 60, NOW), vehicle: { heightM, lengthM: null, needs: [] } });
    };
    expect(await ask('09:00')).toBe(true); // every bay taken by the first test
    expect(await book('09:00', 'CHK1')).toBe('full');
    expect(await ask('16:00', 5.0)).toBe(true); // the tall bay blacked out
    expect(await ask('16:00', 9)).toBe(false); // no compatible bay: the full path's 422
    expect(await ask('20:00')).toBe(false); // bays free
    expect(await book('20:00', 'CHK2')).not.toBe('full');
    // A stale copy of the rules, or a stopped site: the full path answers.
    const stale = (await orgRules(t.ctx.database, orgId))!;
    await t.ctx.database.query('update organizations set config_version = config_version + 1 where id = $1', [orgId]);
    expect(await ask('09:00', 3.5, stale)).toBe(false);
    await orgRules(t.ctx.database, orgId, true);
    expect(await ask('09:00')).toBe(true);
    await t.ctx.database.query('update sites set emergency_at = $2 where id = $1', [siteId, NOW]);
    try {
      expect(await ask('09:00')).toBe(false);
    } finally {
      await t.ctx.database.query('update sites set emergency_at = null where id = $1', [siteId]);
      await orgRules(t.ctx.database, orgId, true); // the stop and its end moved config_version
    }
    expect(await ask('09:00')).toBe(true);
    // A booking released: free at once.
    await t.ctx.database.query("update bookings set status = 'cancelled' where vehicle_registration = 'AL1'");
    expect(await ask('09:00')).toBe(false);
    expect(bayOf(await book('09:00', 'CHK3'))).toBe('B-2');
    expect(await ask('09:00')).toBe(true);
  });

  it('books each bay once under a race of concurrent statements', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => book('17:00', `RACE${i}`)));
    const taken = results.map(bayOf).filter((r) => r !== 'full');
    expect(taken.sort()).toEqual(['B-10', 'B-2', 'TALL']);
    expect(results.filter((r) => r === 'full')).toHaveLength(9);
  });
});
