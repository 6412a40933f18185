import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { BOOKING_STATUSES, type BookingStatus } from '../../domain/enums';

// Booking-status sets in SQL, from the domain's named sets (domain/booking-lifecycle.ts), never
// written out again. They go in as literals, not parameters: a literal list lets the planner match
// the partial indexes and the overlap constraint's `where status not in (…)`, and the raw-text
// queries (reports, the one-statement booking) keep their positional parameters. Each value is
// checked against BOOKING_STATUSES, so nothing but a known status is ever spliced in.

/** `'a', 'b'`: the statuses as SQL literals, for raw query text. */
export function statusListText(statuses: readonly BookingStatus[]): string {
  if (statuses.length === 0) throw new Error('sql-status: an empty status list');
  for (const status of statuses) {
    if (!(BOOKING_STATUSES as readonly string[]).includes(status)) throw new Error(`sql-status: unknown booking status ${JSON.stringify(status)}`);
  }
  return statuses.map((status) => `'${status}'`).join(', ');
}

/** The statuses as a literal list inside a drizzle `sql` template: sql`k.status in (${statusList(LIVE)})`. */
export const statusList = (statuses: readonly BookingStatus[]): SQL => sql.raw(statusListText(statuses));

/** `column in ('a', 'b')`. */
export const statusIn = (column: AnyColumn | SQL, statuses: readonly BookingStatus[]): SQL => sql`${column} in (${statusList(statuses)})`;

/** `column not in ('a', 'b')`. */
export const statusNotIn = (column: AnyColumn | SQL, statuses: readonly BookingStatus[]): SQL => sql`${column} not in (${statusList(statuses)})`;
