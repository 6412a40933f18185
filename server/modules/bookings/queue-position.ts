import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { bookings } from '../../db/schema';

// The gate's waiting queue: a site's checked-in vehicles, first come first (then by booked start,
// then by id so the order is total). The dock screen's queue (gate/gate-overview.ts) lists them in
// this order and the driver's page (manage-booking.service.ts) counts its place in it: one order
// for both, so "position 2" on the phone is the second line on the dock screen.

/** ORDER BY of the waiting queue. */
export const WAITING_QUEUE_ORDER = [asc(bookings.checkedInAt), asc(bookings.startTime), asc(bookings.id)] as const;

/**
 * The booking's place (1 = next) among its site's vehicles waiting to be called, or null when it
 * is not waiting (not checked in, or not at that site).
 */
export async function queuePosition(db: Db | Tx, site: { orgId: string; siteId: string }, bookingId: string): Promise<number | null> {
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.orgId, site.orgId), eq(bookings.siteId, site.siteId), eq(bookings.status, 'checked_in')))
    .orderBy(...WAITING_QUEUE_ORDER);
  const index = rows.findIndex((r) => r.id === bookingId);
  return index < 0 ? null : index + 1;
}
