import type { LifecycleActor } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import type { GateMoveResponse } from '../../../domain/gate';
import type { AppContext } from '../../context';
import { conflict } from '../../plugins/errors';
import { afterCommit, applyTransitionInTx, refuseWhileSiteStopped, siteEmergencyHold, staleVersion, type TransitionActor } from '../bookings/lifecycle.service';
import { moveBookingInTx } from '../bookings/move-booking';
import type { GateActor } from './gate-actions';
import { checkInWindow, lockSiteBooking, outsideWindow, refuseVehicleOnSite, requireStaff } from './gate-rules';
import { gateBookingById } from './gate-view';
import * as repo from './gate.repo';

// The gate's moves of a booking (docs/decisions/011-gate-rules.md): check in, start at the bay (its
// own or another free one), check out, approve, decline, Extend Time. Every status move goes
// through the lifecycle service (the table decides who may make it), audited with its actor,
// published after commit; a call to another bay is a move like any other (moveBookingInTx).

const MINUTE_MS = 60_000;

/** The lifecycle actor of a gate actor: a site camera checks in as the system. */
const lifecycleActorOf = (role: GateActor['role']): LifecycleActor => (role === 'camera' ? 'system' : role);

function transitionActor(actor: GateActor): TransitionActor {
  return { kind: lifecycleActorOf(actor.role), user: actor.auditActor, ip: actor.ip ?? null };
}

/** approved → checked_in, under the gate's rules; a booking already checked in is answered unchanged. */
export async function checkIn(ctx: AppContext, actor: GateActor, bookingId: string, expectedVersion?: number) {
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const view = await lockSiteBooking(tx, actor, bookingId);
    const b = view.booking;
    if (b.status === 'checked_in') return { view, unchanged: true };
    if (expectedVersion !== undefined && expectedVersion !== b.version) throw staleVersion(b.status as BookingStatus);
    // While the site is stopped for an emergency, no vehicle is let in (the lifecycle refuses it too).
    await refuseWhileSiteStopped(tx, b.siteId, b.status as BookingStatus, 'checked_in');
    if (b.status === 'approved') {
      const { opensAt, closesAt } = checkInWindow(b.startTime);
      if (now < opensAt || now > closesAt) throw outsideWindow(b.startTime, now, view.timeZone);
      await refuseVehicleOnSite(tx, b.orgId, b.vehicleRegistration, b.id);
    }
    const moved = await applyTransitionInTx(
      ctx,
      tx,
      { bookingId: b.id, orgId: actor.orgId, to: 'checked_in', expectedVersion, details: { gate: true, ...actor.details } },
      transitionActor(actor),
    );
    return { view: moved.view, unchanged: false };
  });
  if (!result.unchanged) afterCommit(ctx, result.view, 'checked_in');
  const b = result.view.booking;
  return { bookingId: b.id, status: b.status, version: b.version, unchanged: result.unchanged, dwellMinutes: null as number | null };
}

/** in_progress | overstay → completed (Force Check Out is the same move), recording the dwell time. */
export async function checkOut(ctx: AppContext, actor: GateActor, bookingId: string, expectedVersion?: number) {
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const view = await lockSiteBooking(tx, actor, bookingId);
    const b = view.booking;
    const dwellMinutes = b.checkedInAt ? Math.max(0, Math.round((now.getTime() - b.checkedInAt.getTime()) / MINUTE_MS)) : null;
    const moved = await applyTransitionInTx(
      ctx,
      tx,
      {
        bookingId: b.id,
        orgId: actor.orgId,
        to: 'completed',
        expectedVersion,
        details: { gate: true, dwell_minutes: dwellMinutes, forced: b.status === 'overstay', ...actor.details },
      },
      transitionActor(actor),
    );
    return { view: moved.view, dwellMinutes };
  });
  afterCommit(ctx, result.view, 'completed');
  const b = result.view.booking;
  return { bookingId: b.id, status: b.status, version: b.version, unchanged: false, dwellMinutes: result.dwellMinutes };
}

type MoveResult = Awaited<ReturnType<typeof checkIn>>;

async function respond(ctx: AppContext, actor: GateActor, result: MoveResult): Promise<GateMoveResponse> {
  return { booking: await gateBookingById(ctx, actor, result.bookingId), unchanged: result.unchanged, dwellMinutes: result.dwellMinutes };
}

export const checkInResponse = async (ctx: AppContext, actor: GateActor, id: string, version?: number) =>
  respond(ctx, actor, await checkIn(ctx, actor, id, version));

export const checkOutResponse = async (ctx: AppContext, actor: GateActor, id: string, version?: number) =>
  respond(ctx, actor, await checkOut(ctx, actor, id, version));

/** checked_in → in_progress: the vehicle is called to its bay, or to another free compatible one. */
export async function startAtBay(ctx: AppContext, actor: GateActor, bookingId: string, input: { version?: number; bayId?: string }) {
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const current = await lockSiteBooking(tx, actor, bookingId);
    const b = current.booking;
    const site = (await repo.findSite(tx, actor))!;
    if (site.emergencyAt) throw siteEmergencyHold(site.name, site.emergencyReason);
    if (input.version !== undefined && input.version !== b.version) throw staleVersion(b.status as BookingStatus);
    let moved: { bayId: string; bayName: string } | null = null;
    const isOtherBay = !!input.bayId && input.bayId !== b.bayId;
    if (!isOtherBay && b.status === 'checked_in' && !(await repo.isBayFreeNow(tx, b.bayId, b.id, now))) {
      // Two vehicles cannot stand at one bay: the one there leaves first (checked out), or this one goes elsewhere.
      throw conflict(
        'bay_not_free',
        `Bay ${current.bayName} is not free now: a vehicle is at it or it is blacked out. Choose another free bay, or let the vehicle wait.`,
      );
    }
    if (isOtherBay && b.status === 'checked_in') {
      const free = await repo.freeBaysForBooking(tx, b.id, now);
      const bay = free.find((f) => f.id === input.bayId);
      if (!bay) throw conflict('bay_not_free', 'That bay is not free for this booking now, or cannot take this vehicle. Choose another bay.');
      // Another bay is a move like any other (decision 037): the one move function claims it, bumps
      // the version, audits it (`booking.reassigned`: same time, another bay), tells the haulier and
      // queues the webhooks. Only staff may start a booking at a bay (the lifecycle refuses anyone
      // else below, undoing nothing since nothing was moved).
      const mover = actor.role === 'org_admin' || actor.role === 'dockmaster' ? actor.role : null;
      if (mover) {
        const result = await moveBookingInTx(tx, now, {
          current,
          candidates: [{ bayId: bay.id, bayName: bay.name, siteId: b.siteId, siteName: site.name, start: b.startTime, end: b.endTime }],
          mover,
          audit: { action: 'booking.reassigned', actor: actor.auditActor, details: { gate: true }, ip: actor.ip ?? null },
        });
        moved = { bayId: result.moved.bayId, bayName: result.moved.bayName };
      }
    }
    const result = await applyTransitionInTx(
      ctx,
      tx,
      {
        bookingId: b.id,
        orgId: actor.orgId,
        to: 'in_progress',
        // The caller's version was checked above; the move to another bay has since bumped it.
        expectedVersion: moved ? undefined : input.version,
        details: { gate: true, ...(moved ? { previous_bay: current.bayName, new_bay: moved.bayName } : {}) },
      },
      transitionActor(actor),
    );
    return result.view;
  });
  afterCommit(ctx, view, 'in_progress');
  return respond(ctx, actor, { bookingId: view.booking.id, status: view.booking.status, version: view.booking.version, unchanged: false, dwellMinutes: null });
}

/** Another move of a booking of this site through the lifecycle (approve, decline, Extend Time). */
async function move(
  ctx: AppContext,
  actor: GateActor,
  bookingId: string,
  input: { to: BookingStatus; version: number; reason?: string; newEnd?: Date },
) {
  const view = await ctx.database.db.transaction(async (tx) => {
    await lockSiteBooking(tx, actor, bookingId);
    const result = await applyTransitionInTx(
      ctx,
      tx,
      { bookingId, orgId: actor.orgId, to: input.to, expectedVersion: input.version, reason: input.reason ?? null, newEnd: input.newEnd, details: { gate: true } },
      transitionActor(actor),
    );
    return result.view;
  });
  afterCommit(ctx, view, input.to);
  return respond(ctx, actor, { bookingId, status: view.booking.status, version: view.booking.version, unchanged: false, dwellMinutes: null });
}

export function approve(ctx: AppContext, actor: GateActor, bookingId: string, version: number) {
  requireStaff(actor, 'approve bookings');
  return move(ctx, actor, bookingId, { to: 'approved', version });
}

export function decline(ctx: AppContext, actor: GateActor, bookingId: string, version: number, reason: string) {
  requireStaff(actor, 'decline bookings');
  return move(ctx, actor, bookingId, { to: 'declined', version, reason });
}

/** Extend Time (overstay → in progress with a later end), as the organization's workspace does it. */
export function extend(ctx: AppContext, actor: GateActor, bookingId: string, version: number, endTime: string) {
  return move(ctx, actor, bookingId, { to: 'in_progress', version, newEnd: new Date(endTime) });
}
