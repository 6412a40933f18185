import { moveWindow } from '../../../domain/booking-lifecycle';
import type { Tx } from '../../db/client';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors';
import * as bookingRecords from '../bookings/booking-records';
import { outsideWindowError } from '../bookings/lifecycle.service';
import type { GateActor } from './gate-actions';
import * as repo from './gate.repo';

// The gate's rules (docs/decisions/011-gate-rules.md) that its moves, walk-ins and emergency stop
// share: only the site's own bookings, the check-in window, one visit of a vehicle at a time, the
// stopped site, and what only staff may do.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The booking, locked, if it belongs to the actor's site (another site's or organization's: 404). */
export async function lockSiteBooking(tx: Tx, actor: GateActor, bookingId: string) {
  if (!UUID.test(bookingId)) throw notFound('Booking');
  const view = await bookingRecords.findBookingView(tx, { orgId: actor.orgId, id: bookingId }, true);
  if (!view || view.booking.orgId !== actor.orgId || view.booking.siteId !== actor.siteId) throw notFound('Booking');
  return view;
}

/** When check-in opens and closes for a booking starting at `start` (the close is the no-show sweep's cut-off, inclusive). */
export function checkInWindow(start: Date): { opensAt: Date; closesAt: Date } {
  const { opensAt, closesAt } = moveWindow('approved', 'checked_in', { startTime: start, endTime: start })!;
  return { opensAt: opensAt!, closesAt: closesAt! };
}

/** The refusal of a check-in outside its window, in the site's time. */
export function outsideWindow(start: Date, now: Date, timeZone: string): AppError {
  return outsideWindowError('approved', 'checked_in', { startTime: start, endTime: start }, now, timeZone)!;
}

/** One visit of a vehicle at a time: refused while the vehicle is on site under another booking. */
export async function refuseVehicleOnSite(tx: Tx, orgId: string, registration: string, exceptBookingId: string | null): Promise<void> {
  const other = await repo.findVehicleOnSite(tx, orgId, registration, exceptBookingId);
  if (other) {
    throw conflict(
      'vehicle_on_site',
      `Vehicle ${registration} is already on site (booking ${other.tsr_number} at ${other.site_name}). Check that visit out first.`,
      { bookingId: other.id },
    );
  }
}

export const siteStopped = (siteName: string) =>
  conflict('site_emergency', `Operations at ${siteName} are stopped (emergency). Resume the site before calling vehicles to bays or taking walk-ins.`);

/** Approving, declining and the emergency stop are staff's (org admins and dockmasters), not security's. */
export function requireStaff(actor: GateActor, what: string): void {
  if (actor.role !== 'org_admin' && actor.role !== 'dockmaster') throw forbidden(`Only organization admins and dockmasters can ${what}`);
}
