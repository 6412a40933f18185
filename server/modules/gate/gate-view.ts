import { eq } from 'drizzle-orm';
import { allowedTransitions, allowedTransitionsAt, AWAITING_ARRIVAL_STATUSES, type BookingTimes } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import { isLateArrival, type EmergencyState, type GateAction, type GateBooking } from '../../../domain/gate';
import { todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import { notFound } from '../../plugins/errors';
import type { SiteScope } from '../../plugins/site-scope';
import type { GateActor } from './gate-actions';
import * as repo from './gate.repo';

// The gate's screens' shapes, shared by the moves, the overview, the walk-in and the emergency stop:
// a booking with the buttons the lifecycle allows now, the site's emergency state, the site's day.

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A signed-in person at the gate as a GateActor. */
export function gateActorOf(scope: SiteScope, ip: string | null): GateActor {
  return { orgId: scope.orgId, siteId: scope.siteId, role: scope.role, auditActor: scope.auditActor, ip };
}

/** The gate's buttons for a booking in `status`, for `role`: what the lifecycle table lets it do (at `now`, when given the booking's times). */
export function gateActionsFor(status: BookingStatus, role: GateActor['role'], at?: { booking: BookingTimes; now: Date }): GateAction[] {
  if (role === 'camera') return [];
  const moves = at ? allowedTransitionsAt(status, role, at.booking, at.now) : allowedTransitions(status, role);
  const actions: GateAction[] = [];
  if (status === 'approved' && moves.includes('checked_in')) actions.push('check_in');
  if (status === 'checked_in' && moves.includes('in_progress')) actions.push('start');
  if (status === 'in_progress' && moves.includes('completed')) actions.push('check_out');
  if (status === 'overstay' && moves.includes('completed')) actions.push('force_check_out');
  if (status === 'overstay' && moves.includes('in_progress')) actions.push('extend');
  if (status === 'pending' && moves.includes('approved')) actions.push('approve');
  if (status === 'pending' && moves.includes('declined')) actions.push('decline');
  return actions;
}

/**
 * A booking as the gate shows it. While the site is stopped for an emergency no vehicle is let in
 * or sent to a bay (Check In and Start are refused), so neither is offered.
 */
export function toGateBooking(row: repo.GateBookingRow, role: GateActor['role'], now: Date, isSiteStopped = false): GateBooking {
  const status = row.status as BookingStatus;
  const actions = gateActionsFor(status, role, { booking: row, now });
  return {
    id: row.id,
    version: row.version,
    status,
    tsrNumber: row.tsrNumber,
    tenantName: row.tenantName,
    vehicleType: row.vehicleType,
    vehicleRegistration: row.vehicleRegistration,
    bayId: row.bayId,
    bayName: row.bayName,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    checkedInAt: iso(row.checkedInAt),
    startedAt: iso(row.startedAt),
    source: row.source,
    isLate: isLateArrival(status, row.startTime, now),
    // A running-late report matters until the truck is in (decision 043).
    lateEta: AWAITING_ARRIVAL_STATUSES.includes(status) ? iso(row.lateEta) : null,
    actions: isSiteStopped ? actions.filter((action) => action !== 'start' && action !== 'check_in') : actions,
  };
}

/** One booking of the actor's site as the gate shows it (after a move). */
export async function gateBookingById(ctx: AppContext, actor: GateActor, bookingId: string): Promise<GateBooking> {
  const [row] = await repo.listGateBookings(ctx.database.db, actor, sqlIdIs(bookingId));
  if (!row) throw notFound('Booking');
  return toGateBooking(row, actor.role, ctx.clock.now());
}

const sqlIdIs = (id: string) => eq(bookings.id, id);

export function emergencyStateOf(site: repo.GateSite): EmergencyState {
  return { isStopped: site.emergencyAt !== null, since: iso(site.emergencyAt), reason: site.emergencyReason, byEmail: site.emergencyByEmail };
}

/** The site's local day: its date and the instants it starts and ends. */
export function siteDay(timeZone: string, now: Date) {
  const date = todayIn(timeZone, now);
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { date, start: zonedTimeToUtc(date, 0, timeZone), end: zonedTimeToUtc(next, 0, timeZone) };
}
