import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { z } from 'zod';
import { manageViewSchema } from '../../../domain/public-booking';
import { AT_BAY_STATUSES, HAULIER_CHANGEABLE_STATUSES, ON_SITE_STATUSES } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import { todayIn } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../plugins/errors';
import { getDayAvailability } from '../availability/availability.service';
import { hashToken } from '../../auth/tokens';
import { readOrgSettingsOf } from '../org-settings/org-settings.service';
import { publishBookingEvent } from './booking-events';
import { queueBookingChangedMail } from './booking-mail-queue';
import { afterCommit, applyTransitionInTx } from './lifecycle.service';
import * as repo from './bookings.repo';
import { candidatesToMove } from './booking-candidates';
import { moveBookingInTx } from './move-booking';
import { arrivalCodeFor } from './arrival-code';
import { queuePosition } from './queue-position';

// The haulier's private manage link: /book/manage/{token}. The token is stored only as a hash.

/** Statuses a haulier may still cancel or move, before the booking starts. */
const CHANGEABLE: readonly string[] = HAULIER_CHANGEABLE_STATUSES;

export type ManageView = z.infer<typeof manageViewSchema>;

/** The organization's cancellation cutoff: no haulier change through the link later than this before the start. */
const cutoffHoursOf = async (db: Parameters<typeof readOrgSettingsOf>[0], orgId: string) =>
  (await readOrgSettingsOf(db, orgId)).booking.cancellationCutoffHours;

/** True once the booking is within the cutoff (or has started). */
const isPastCutoff = (startTime: Date, now: Date, cutoffHours: number) => startTime.getTime() - cutoffHours * 3_600_000 <= now.getTime();

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/**
 * Refuses a cancel or move the link may no longer make: a status the haulier cannot change, or a
 * booking within the organization's cutoff before its start (409 naming the cutoff).
 */
function requireChangeable(view: repo.BookingView, now: Date, cutoffHours: number, verb: 'cancelled' | 'changed') {
  const b = view.booking;
  if (!CHANGEABLE.includes(b.status) || b.startTime <= now) {
    throw new AppError(409, 'not_changeable', `This booking can no longer be ${verb === 'changed' ? 'moved' : 'cancelled'} (status: ${b.status})`);
  }
  if (isPastCutoff(b.startTime, now, cutoffHours)) {
    throw new AppError(
      409,
      'cancellation_cutoff',
      `Bookings cannot be cancelled or changed online less than ${hoursText(cutoffHours)} before their start. Please contact ${view.siteName} directly.`,
      { cutoffHours, startTime: b.startTime.toISOString() },
    );
  }
}

/**
 * The driver's live state (issue 26): on the booking's site-local day, or whenever the vehicle is
 * on site. Its place in the site's waiting queue while checked in (the dock screen's order,
 * queue-position.ts); the bay once called to it.
 */
async function liveStateOf(ctx: AppContext, view: repo.BookingView, now: Date): Promise<ManageView['live']> {
  const b = view.booking;
  const status = b.status as BookingStatus;
  const isOnSite = ON_SITE_STATUSES.includes(status);
  if (!isOnSite && todayIn(view.timeZone, b.startTime) !== todayIn(view.timeZone, now)) return null;
  const isAtBay = AT_BAY_STATUSES.includes(status);
  return {
    position: status === 'checked_in' ? await queuePosition(ctx.database.db, { orgId: b.orgId, siteId: b.siteId }, b.id) : null,
    calledToBay: isAtBay ? view.bayName : null,
    calledAt: isAtBay || status === 'completed' ? (b.startedAt?.toISOString() ?? null) : null,
    checkedInAt: b.checkedInAt?.toISOString() ?? null,
  };
}

async function manageViewOf(ctx: AppContext, view: repo.BookingView, now: Date, cutoffHours: number): Promise<ManageView> {
  return { ...toManageView(ctx, view, now, cutoffHours), live: await liveStateOf(ctx, view, now) };
}

function toManageView(ctx: AppContext, view: repo.BookingView, now: Date, cutoffHours: number): Omit<ManageView, 'live'> {
  const b = view.booking;
  const local = new TZDate(b.startTime, view.timeZone);
  const changeable = CHANGEABLE.includes(b.status) && b.startTime > now && !isPastCutoff(b.startTime, now, cutoffHours);
  return {
    reference: b.tsrNumber,
    status: b.status,
    orgId: b.orgId,
    orgName: view.orgName,
    tenantName: b.tenantName,
    contactName: b.contactName,
    tenantEmail: b.tenantEmail,
    siteName: view.siteName,
    siteAddress: view.siteAddress,
    bayName: view.bayName,
    startTime: b.startTime.toISOString(),
    endTime: b.endTime.toISOString(),
    timeZone: view.timeZone,
    date: format(local, 'yyyy-MM-dd'),
    slot: format(local, 'HH:mm'),
    durationMin: b.expectedDurationMin,
    bookingType: b.bookingType,
    vehicleType: b.vehicleType,
    vehicleRegistration: b.vehicleRegistration,
    vehicleHeightM: b.vehicleHeightM,
    canCancel: changeable,
    canReschedule: changeable,
    arrivalCode: arrivalCodeFor(ctx.authSecret, b.id),
    lateEta: b.lateEta?.toISOString() ?? null,
  };
}

const LINK_INVALID = 'This booking link is invalid or has expired';

async function load(ctx: AppContext, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound('Booking');
  const view = await repo.findBookingViewByManageTokenAnyOrg(ctx.database.db, hashToken(token));
  if (!view) throw new AppError(404, 'not_found', LINK_INVALID);
  return view;
}

export async function getManagedBooking(ctx: AppContext, token: string): Promise<ManageView> {
  const view = await load(ctx, token);
  return manageViewOf(ctx, view, ctx.clock.now(), await cutoffHoursOf(ctx.database.db, view.booking.orgId));
}

export async function cancelManagedBooking(ctx: AppContext, token: string, reason: string | undefined, ip: string | null) {
  const now = ctx.clock.now();
  const tokenHash = hashToken(token);
  await load(ctx, token);
  await ctx.database.db.transaction(async (tx) => {
    const view = (await repo.findBookingViewByManageTokenAnyOrg(tx, tokenHash, true))!;
    requireChangeable(view, now, await cutoffHoursOf(tx, view.booking.orgId), 'cancelled');
    // The lifecycle's own move (checks, timestamp, version, audit); the haulier's confirmation below.
    await applyTransitionInTx(
      ctx,
      tx,
      { bookingId: view.booking.id, orgId: view.booking.orgId, to: 'cancelled', reason: reason || 'Cancelled by the haulier' },
      { kind: 'haulier', user: null, ip },
    );
    await queueBookingChangedMail(tx, now, view.booking, 'cancelled');
  });
  const cancelled = await load(ctx, token);
  afterCommit(ctx, cancelled, 'cancelled');
  return manageViewOf(ctx, cancelled, now, await cutoffHoursOf(ctx.database.db, cancelled.booking.orgId));
}

/** The day's grid for moving this booking: its own vehicle and duration, its own time not counted as busy. */
export async function availabilityForManagedBooking(ctx: AppContext, token: string, date: string) {
  const view = await load(ctx, token);
  const b = view.booking;
  return getDayAvailability(
    ctx.database.db,
    {
      orgId: b.orgId,
      date,
      durationMin: b.expectedDurationMin,
      vehicleHeightM: b.vehicleHeightM,
      vehicleLengthM: b.vehicleLengthM,
      specialAccessNeeds: b.specialAccessNeeds ?? [],
    },
    ctx.clock.now(),
    { excludeBookingId: b.id },
  );
}

/** Moves the booking to another free slot under the same rules and guarantees as a new booking. */
export async function rescheduleManagedBooking(ctx: AppContext, token: string, target: { date: string; slot: string }, ip: string | null) {
  const now = ctx.clock.now();
  const tokenHash = hashToken(token);
  await load(ctx, token);
  const moved = await ctx.database.db.transaction(async (tx) => {
    const view = (await repo.findBookingViewByManageTokenAnyOrg(tx, tokenHash, true))!;
    const b = view.booking;
    requireChangeable(view, now, await cutoffHoursOf(tx, b.orgId), 'changed');
    const candidates = await candidatesToMove(tx, now, b, target);
    // The lifecycle's move: a haulier's own move is reviewed again (domain statusAfterMove).
    const { moved: c } = await moveBookingInTx(tx, now, {
      current: view,
      candidates,
      mover: 'haulier',
      audit: { actor: null, details: { from: b.startTime.toISOString(), to_date: target.date, to_slot: target.slot, source: 'manage_link' }, ip },
    });
    const toSiteId = c.siteId;
    return { id: b.id, orgId: b.orgId, fromSiteId: b.siteId, toSiteId };
  });
  const view = await load(ctx, token);
  afterCommit(ctx, view, 'rescheduled');
  // A move to another site leaves one schedule and joins another: both sites' screens hear of it.
  if (moved.fromSiteId !== moved.toSiteId) publishBookingEvent(ctx, 'rescheduled', { ...moved, siteId: moved.fromSiteId }, now);
  return manageViewOf(ctx, view, now, await cutoffHoursOf(ctx.database.db, view.booking.orgId));
}
