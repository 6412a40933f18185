import { getTableConfig, PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_BOOKING_STATUSES, RELEASED_BOOKING_STATUSES, TERMINAL_BOOKING_STATUSES } from '../../domain/booking-lifecycle';
import { BOOKING_STATUSES, type BookingStatus } from '../../domain/enums';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { bookings } from './schema';
import { statusIn, statusListText, statusNotIn } from './sql-status';

// Status sets reach SQL only through sql-status.ts; the schema's own lists (a CHECK constraint, the
// overlap constraints' and the report index's `where`) are SQL written in migrations, so this test
// holds them to the domain's sets on the database itself.

const dialect = new PgDialect();
/** The status literals of a piece of SQL text ('a'::text or 'a'), in order. */
const literalsOf = (text: string) => [...text.matchAll(/'([a-z_]+)'(?:::text)?/g)].map((m) => m[1]);
const sorted = (list: readonly string[]) => [...list].sort();

describe('sql-status', () => {
  it('writes a known status list as literals, and refuses anything else', () => {
    expect(statusListText(['declined', 'cancelled'])).toBe("'declined', 'cancelled'");
    expect(() => statusListText([])).toThrow(/empty/);
    expect(() => statusListText(["x') or true --" as BookingStatus])).toThrow(/unknown booking status/);
    expect(dialect.sqlToQuery(statusIn(bookings.status, LIVE_BOOKING_STATUSES)).sql).toBe(
      `"bookings"."status" in ('pending', 'approved', 'checked_in', 'in_progress', 'overstay')`,
    );
    expect(dialect.sqlToQuery(statusNotIn(bookings.status, RELEASED_BOOKING_STATUSES)).sql).toBe(`"bookings"."status" not in ('declined', 'cancelled', 'no_show')`);
  });

  it('the schema’s CHECK lists exactly BOOKING_STATUSES', () => {
    const check = getTableConfig(bookings).checks.find((c) => c.name === 'bookings_status_known');
    expect(check).toBeDefined();
    expect(sorted(literalsOf(dialect.sqlToQuery(check!.value).sql))).toEqual(sorted(BOOKING_STATUSES));
  });
});

describe.each(databaseKinds)('the database’s status lists on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const constraint = async (name: string) =>
    (await t.ctx.database.query<{ def: string }>(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1`, [name]))[0]!.def;
  /** The statuses named after WHERE (a partial constraint's or index's predicate). */
  const predicateOf = (def: string) => literalsOf(def.slice(def.toUpperCase().lastIndexOf('WHERE')));

  it('the CHECK constraint lists exactly BOOKING_STATUSES', async () => {
    expect(sorted(literalsOf(await constraint('bookings_status_known')))).toEqual(sorted(BOOKING_STATUSES));
  });

  it('the bay overlap constraint and the report index ignore exactly the released statuses', async () => {
    expect(sorted(predicateOf(await constraint('bookings_no_overlap')))).toEqual(sorted(RELEASED_BOOKING_STATUSES));
    const [index] = await t.ctx.database.query<{ def: string }>(`select indexdef as def from pg_indexes where indexname = 'bookings_report_span_idx'`);
    expect(sorted(predicateOf(index!.def))).toEqual(sorted(RELEASED_BOOKING_STATUSES));
  });

  it('the vehicle overlap constraint ignores exactly the terminal statuses', async () => {
    expect(sorted(predicateOf(await constraint('bookings_vehicle_no_overlap')))).toEqual(sorted(TERMINAL_BOOKING_STATUSES));
  });
});
