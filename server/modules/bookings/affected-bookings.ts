import { sql } from 'drizzle-orm';
import type { AffectedBooking, AffectedOutcome, AffectedResolution } from '../../../domain/affected-bookings';
import { AFFECTED_BOOKINGS_CODE } from '../../../domain/affected-bookings';
import { LIVE_BOOKING_STATUSES, RELEASED_BOOKING_STATUSES, isTransition } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { statusList } from '../../db/sql-status';
import { AppError, conflict } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import type { Candidate } from '../availability/availability.service';
import { candidatesToMove } from './booking-candidates';
import { moveBookingInTx } from './move-booking';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { queueBookingChangedMail } from './booking-mail-queue';
import * as repo from './bookings.repo';
import { afterCommit, applyTransitionInTx } from './lifecycle.service';

// Bookings a setup change leaves without a bay (domain/affected-bookings.ts): found with the
// caller's own condition, then kept, moved to another free compatible bay at the same time, or
// cancelled with the reason e-mailed to the haulier — inside the caller's transaction, after the
// change itself, so the moved bookings see the change (the closed bay, the new blackout).

const RELEASED = statusList(RELEASED_BOOKING_STATUSES);
/** Statuses that still need their bay: the booking has not ended or been released. */
const LIVE = statusList(LIVE_BOOKING_STATUSES);

type AffectedRow = {
  id: string;
  version: number;
  status: string;
  tsr_number: string;
  tenant_name: string;
  tenant_email: string;
  vehicle_registration: string;
  vehicle_height_m: number | string;
  site_id: string;
  bay_id: string;
  bay_name: string;
  start_time: Date | string;
  end_time: Date | string;
};

/**
 * Live bookings of the organization matching `condition` (an SQL fragment over `k`, the bookings
 * row, and `b`, its bay), ending after `now`, in start order; locked when `forUpdate`.
 */
export async function findAffectedBookings(
  tx: Tx,
  orgId: string,
  now: Date,
  condition: ReturnType<typeof sql>,
  options: { forUpdate?: boolean; limit?: number } = {},
): Promise<AffectedBooking[]> {
  const rows = (await tx.execute(sql`
    select k.id, k.version, k.status, k.tsr_number, k.tenant_name, k.tenant_email, k.vehicle_registration,
           k.vehicle_height_m, k.site_id, k.bay_id, b.name as bay_name, k.start_time, k.end_time
      from bookings k join bays b on b.id = k.bay_id
     where k.org_id = ${orgId} and k.status in (${LIVE}) and k.end_time > ${now.toISOString()}::timestamptz
       and (${condition})
     order by k.start_time, k.id
     limit ${options.limit ?? 1000}
     ${options.forUpdate ? sql`for update of k` : sql``}`)) as unknown as { rows?: AffectedRow[] } | AffectedRow[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  return list.map((r) => ({
    id: r.id,
    version: Number(r.version),
    status: r.status,
    tsrNumber: r.tsr_number,
    tenantName: r.tenant_name,
    tenantEmail: r.tenant_email,
    vehicleRegistration: r.vehicle_registration,
    vehicleHeightM: Number(r.vehicle_height_m),
    siteId: r.site_id,
    bayId: r.bay_id,
    bayName: r.bay_name,
    startTime: new Date(r.start_time).toISOString(),
    endTime: new Date(r.end_time).toISOString(),
  }));
}

/** 409 affected_bookings: the write needs the admin's choice first; the bookings go in details. */
export function affectedBookingsConflict(affected: AffectedBooking[], what: string) {
  return conflict(
    AFFECTED_BOOKINGS_CODE,
    `${affected.length} upcoming booking${affected.length === 1 ? '' : 's'} ${affected.length === 1 ? 'is' : 'are'} affected by ${what}. Choose whether to keep, move or cancel ${affected.length === 1 ? 'it' : 'them'}.`,
    { affected },
  );
}

type CandidateRow = { bay_id: string; bay_name: string; site_id: string; site_name: string };

/** Free compatible active bays at the booking's site for its own time, best fit first (its current bay left out). */
async function freeBaysFor(tx: Tx, bookingId: string): Promise<Candidate[]> {
  const result = (await tx.execute(sql`
    select b.id as bay_id, b.name as bay_name, s.id as site_id, s.name as site_name, k.start_time, k.end_time
      from bookings k
      join sites s on s.id = k.site_id and s.active
      join bays b on b.site_id = k.site_id and b.active and b.id <> k.bay_id
     where k.id = ${bookingId}
       and b.height_clearance_m >= k.vehicle_height_m
       and (k.vehicle_length_m is null or b.length_m is null or b.length_m >= k.vehicle_length_m)
       and b.features @> coalesce(k.special_access_needs, '{}'::text[])
       and not exists (
         select 1 from bookings o
          where o.bay_id = b.id and o.id <> k.id and o.status not in (${RELEASED})
            and tstzrange(o.start_time, o.end_time, '[)') && tstzrange(k.start_time, k.end_time, '[)'))
       and not exists (
         select 1 from blackouts x
          where x.site_id = k.site_id and (x.bay_id is null or x.bay_id = b.id)
            and x.start_time < k.end_time and x.end_time > k.start_time)
     order by b.height_clearance_m, b.sort_key, b.id`)) as unknown as
    | { rows?: (CandidateRow & { start_time: Date | string; end_time: Date | string })[] }
    | (CandidateRow & { start_time: Date | string; end_time: Date | string })[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return rows.map((r) => ({
    bayId: r.bay_id,
    bayName: r.bay_name,
    siteId: r.site_id,
    siteName: r.site_name,
    start: new Date(r.start_time),
    end: new Date(r.end_time),
  }));
}

/** A booking left inside a whole-site closure: listed, and its haulier e-mailed. */
export const SITE_CLOSED_NOT_MOVED = 'No compatible bay is free at another site at that time: the haulier is e-mailed';

/** Whether the booking's whole site is closed at its time: the site deactivated, or a whole-site blackout over it. */
async function siteClosedFor(tx: Tx, bookingId: string): Promise<boolean> {
  const result = (await tx.execute(sql`
    select (not s.active) or exists (
             select 1 from blackouts x
              where x.site_id = k.site_id and x.bay_id is null
                and x.start_time < k.end_time and x.end_time > k.start_time) as closed
      from bookings k join sites s on s.id = k.site_id
     where k.id = ${bookingId}`)) as unknown as { rows?: { closed: boolean }[] } | { closed: boolean }[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return rows[0]?.closed === true;
}

/**
 * Free compatible bays at the organization's other sites for the booking's own time, under the
 * portal's rules there (hours, blackouts, clearance), best fit first.
 */
async function otherSiteCandidates(tx: Tx, now: Date, current: repo.BookingView): Promise<Candidate[]> {
  const b = current.booking;
  const local = new TZDate(b.startTime, current.timeZone);
  try {
    const candidates = await candidatesToMove(tx, now, b, { date: format(local, 'yyyy-MM-dd'), slot: format(local, 'HH:mm') });
    return candidates.filter((c) => c.siteId !== b.siteId && c.start.getTime() === b.startTime.getTime() && c.end.getTime() === b.endTime.getTime());
  } catch (error) {
    // A time the other sites' grid does not offer (no such slot, outside the horizon): nothing to move to.
    if (error instanceof AppError && error.statusCode < 500) return [];
    throw error;
  }
}

export type ResolvedChange = { views: repo.BookingView[]; actions: string[] };

/**
 * Applies the admin's choice to the affected bookings, in the caller's transaction. `keep` changes
 * nothing; `reassign` moves each to the best free compatible bay at its own time (a booking with
 * no such bay stays where it is and is reported `not_moved`); `cancel` cancels each through the
 * lifecycle with the reason, which the haulier's e-mail carries. Returns one outcome per booking
 * and what to publish once the transaction has committed (see publishResolved).
 */
export async function resolveAffectedInTx(
  ctx: AppContext,
  tx: Tx,
  scope: Pick<OrgScope, 'orgId' | 'actor' | 'auditActor'>,
  affected: AffectedBooking[],
  resolution: AffectedResolution,
  ip: string | null,
  cause: string,
): Promise<{ outcomes: AffectedOutcome[]; publish: ResolvedChange }> {
  const outcomes: AffectedOutcome[] = [];
  const publish: ResolvedChange = { views: [], actions: [] };
  const now = ctx.clock.now();
  for (const booking of affected) {
    if (resolution.action === 'keep') {
      outcomes.push({ id: booking.id, tsrNumber: booking.tsrNumber, outcome: 'kept', bayName: booking.bayName, message: null });
      continue;
    }
    const current = await repo.findBookingView(tx, { orgId: scope.orgId, id: booking.id }, true);
    if (!current || current.booking.orgId !== scope.orgId) {
      outcomes.push({ id: booking.id, tsrNumber: booking.tsrNumber, outcome: 'skipped', bayName: null, message: 'Booking not found' });
      continue;
    }
    const b = current.booking;
    const status = b.status as BookingStatus;
    if (!LIVE_BOOKING_STATUSES.includes(status)) {
      outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'skipped', bayName: current.bayName, message: `Already ${status.replace('_', ' ')}` });
      continue;
    }
    if (resolution.action === 'cancel') {
      if (!isTransition(status, 'cancelled')) {
        outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'skipped', bayName: current.bayName, message: 'The vehicle is on site: check it out instead' });
        continue;
      }
      const { view } = await applyTransitionInTx(
        ctx,
        tx,
        { bookingId: b.id, orgId: scope.orgId, to: 'cancelled', reason: resolution.reason ?? cause },
        { kind: scope.actor, user: scope.auditActor, ip },
      );
      publish.views.push(view);
      publish.actions.push('cancelled');
      outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'cancelled', bayName: current.bayName, message: null });
      continue;
    }
    // reassign: same time, another bay of the site; when the whole site is closed then (a
    // whole-site blackout, a deactivated site), a compatible free bay at another site.
    const siteClosed = await siteClosedFor(tx, b.id);
    let candidates = await freeBaysFor(tx, b.id);
    if (candidates.length === 0 && siteClosed) candidates = await otherSiteCandidates(tx, now, current);
    let moved: Awaited<ReturnType<typeof moveBookingInTx>> | null = null;
    if (candidates.length > 0) {
      try {
        moved = await moveBookingInTx(tx, now, {
          current,
          candidates,
          mover: scope.actor,
          audit: { action: 'booking.reassigned', actor: scope.auditActor, details: { cause }, ip },
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode !== 409) throw error;
      }
    }
    if (moved) {
      publish.views.push(moved.view);
      publish.actions.push('reassigned');
      // A move to another site leaves one schedule and joins another: both sites' screens hear of it.
      if (moved.view.booking.siteId !== b.siteId) {
        publish.views.push({ ...current, booking: { ...b, version: b.version + 1 } });
        publish.actions.push('reassigned');
      }
      outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'moved', bayName: moved.moved.bayName, message: moved.view.booking.siteId !== b.siteId ? `Moved to ${moved.moved.siteName}` : null });
      continue;
    }
    if (siteClosed) {
      // Nothing free anywhere: the booking stays inside the closure, and its haulier is told.
      await queueBookingChangedMail(tx, now, b, 'site_closed', cause);
      outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'not_moved', bayName: current.bayName, message: SITE_CLOSED_NOT_MOVED });
      continue;
    }
    outcomes.push({ id: b.id, tsrNumber: b.tsrNumber, outcome: 'not_moved', bayName: current.bayName, message: 'No other compatible bay is free at that time' });
  }
  return { outcomes, publish };
}

/** Once committed: tells the live screens about every booking moved or cancelled. */
export function publishResolved(ctx: AppContext, change: ResolvedChange): void {
  change.views.forEach((view, i) => afterCommit(ctx, view, change.actions[i]!));
}
