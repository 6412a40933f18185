import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  allowedTransitions,
  allowedTransitionsAt,
  AT_BAY_STATUSES,
  CONFIRMED_BOOKING_STATUSES,
  LIVE_BOOKING_STATUSES,
  moveWindow,
  ON_SITE_STATUSES,
  type BookingTimes,
  type LifecycleActor,
} from '../../../domain/booking-lifecycle';
import type { BookingRequest } from '../../../domain/booking-request';
import type { BookingStatus } from '../../../domain/enums';
import {
  UPCOMING_HOURS,
  type EmergencyState,
  type GateAction,
  type GateBooking,
  type GateMoveResponse,
  type GateOverview,
  type GateQueue,
  type walkInSchema,
  isLateArrival,
} from '../../../domain/gate';
import { localDateOf, localTimeOf, todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import { listOrgAdminEmails } from '../../mail/recipients';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors';
import type { SiteScope } from '../../plugins/site-scope';
import { writeAudit } from '../../audit/write-audit';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { hashToken } from '../../auth/tokens';
import { claimBay } from '../bookings/claim-bay';
import * as bookingRecords from '../bookings/booking-records';
import { bookingColumnsOf, createBookingInTx } from '../bookings/create-booking';
import { afterCommit, applyTransitionInTx, outsideWindowError, refuseWhileSiteStopped, siteEmergencyHold, staleVersion, type TransitionActor } from '../bookings/lifecycle.service';
import { manageTokenFor } from '../bookings/manage-token';
import { findLinkedTenant } from '../tenants/tenant-link';
import type { GateActor } from './gate-actions';
import { GATE_EMERGENCY_MAIL_KIND, GATE_HAULIER_HOLD_MAIL_KIND } from './gate-mail';
import * as repo from './gate.repo';

// The gate's rules (docs/decisions/011-gate-rules.md): the check-in window, one visit of a vehicle
// at a time, only the site's own bookings, the emergency stop. Every status move goes through the
// lifecycle service (the table decides who may make it), audited with its actor, published after
// commit.

const MINUTE_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A signed-in person at the gate as a GateActor. */
export function gateActorOf(scope: SiteScope, ip: string | null): GateActor {
  return { orgId: scope.orgId, siteId: scope.siteId, role: scope.role, auditActor: scope.auditActor, ip };
}

/** The lifecycle actor of a gate actor: a site camera checks in as the system. */
const lifecycleActorOf = (role: GateActor['role']): LifecycleActor => (role === 'camera' ? 'system' : role);

function transitionActor(actor: GateActor): TransitionActor {
  return { kind: lifecycleActorOf(actor.role), user: actor.auditActor, ip: actor.ip ?? null };
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
function toGateBooking(row: repo.GateBookingRow, role: GateActor['role'], now: Date, isSiteStopped = false): GateBooking {
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
    actions: isSiteStopped ? actions.filter((action) => action !== 'start' && action !== 'check_in') : actions,
  };
}

async function gateBookingById(ctx: AppContext, actor: GateActor, bookingId: string): Promise<GateBooking> {
  const [row] = await repo.listGateBookings(ctx.database.db, actor, sqlIdIs(bookingId));
  if (!row) throw notFound('Booking');
  return toGateBooking(row, actor.role, ctx.clock.now());
}

const sqlIdIs = (id: string) => eq(bookings.id, id);

/** The booking, locked, if it belongs to the actor's site (another site's or organization's: 404). */
async function lockSiteBooking(tx: Tx, actor: GateActor, bookingId: string) {
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

function outsideWindow(start: Date, now: Date, timeZone: string): AppError {
  return outsideWindowError('approved', 'checked_in', { startTime: start, endTime: start }, now, timeZone)!;
}

async function refuseVehicleOnSite(tx: Tx, orgId: string, registration: string, exceptBookingId: string | null): Promise<void> {
  const other = await repo.findVehicleOnSite(tx, orgId, registration, exceptBookingId);
  if (other) {
    throw conflict(
      'vehicle_on_site',
      `Vehicle ${registration} is already on site (booking ${other.tsr_number} at ${other.site_name}). Check that visit out first.`,
      { bookingId: other.id },
    );
  }
}

const siteStopped = (siteName: string) =>
  conflict('site_emergency', `Operations at ${siteName} are stopped (emergency). Resume the site before calling vehicles to bays or taking walk-ins.`);

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
      moved = await claimBay(
        tx,
        [{ bayId: bay.id, bayName: bay.name, siteId: b.siteId, siteName: site.name, start: b.startTime, end: b.endTime }],
        async (sp, c) => {
          await bookingRecords.updateBooking(sp, { orgId: actor.orgId, id: b.id }, { bayId: c.bayId, updatedAt: now });
          return { bayId: c.bayId, bayName: c.bayName };
        },
        b.vehicleRegistration,
      );
    }
    const result = await applyTransitionInTx(
      ctx,
      tx,
      {
        bookingId: b.id,
        orgId: actor.orgId,
        to: 'in_progress',
        expectedVersion: input.version,
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

function requireStaff(actor: GateActor, what: string): void {
  if (actor.role !== 'org_admin' && actor.role !== 'dockmaster') throw forbidden(`Only organization admins and dockmasters can ${what}`);
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

function emergencyStateOf(site: repo.GateSite): EmergencyState {
  return { isStopped: site.emergencyAt !== null, since: iso(site.emergencyAt), reason: site.emergencyReason, byEmail: site.emergencyByEmail };
}

function siteDay(timeZone: string, now: Date) {
  const date = todayIn(timeZone, now);
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { date, start: zonedTimeToUtc(date, 0, timeZone), end: zonedTimeToUtc(next, 0, timeZone) };
}

/** The gate's screen: today's counters, the live list, upcoming arrivals, the bays, the emergency state. */
export async function overview(ctx: AppContext, actor: GateActor): Promise<GateOverview> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const site = await repo.findSite(db, actor);
  if (!site) throw notFound('Site');
  const day = siteDay(site.timeZone, now);
  const [liveRows, upcomingRows, bays, blackedOut] = await Promise.all([
    repo.listGateBookings(db, actor, repo.liveCondition(day.start, day.end)),
    repo.listGateBookings(db, actor, repo.upcomingCondition(now, new Date(now.getTime() + UPCOMING_HOURS * 3_600_000))),
    repo.listActiveBays(db, actor),
    repo.blackedOutBayIds(db, site.id, now),
  ]);
  const isStopped = site.emergencyAt !== null;
  const live = liveRows.map((r) => toGateBooking(r, actor.role, now, isStopped));
  const upcoming = upcomingRows.map((r) => toGateBooking(r, actor.role, now, isStopped));
  const isToday = (b: GateBooking) => b.startTime >= day.start.toISOString() && b.startTime < day.end.toISOString();
  const count = (list: GateBooking[], test: (b: GateBooking) => boolean) => list.filter(test).length;
  const atBay = new Map(live.filter((b) => AT_BAY_STATUSES.includes(b.status)).map((b) => [b.bayId, b]));
  return {
    siteId: site.id,
    siteName: site.name,
    timeZone: site.timeZone,
    date: day.date,
    counters: {
      expectedToday: count(live, (b) => isToday(b) && CONFIRMED_BOOKING_STATUSES.includes(b.status)),
      onSite: count(live, (b) => ON_SITE_STATUSES.includes(b.status)),
      waiting: count(live, (b) => b.status === 'checked_in'),
      atBay: count(live, (b) => b.status === 'in_progress'),
      late: count(upcoming, (b) => b.isLate),
      overstay: count(live, (b) => b.status === 'overstay'),
    },
    // The list is what staff still act on: today's finished visits count above, not here.
    live: live.filter((b) => LIVE_BOOKING_STATUSES.includes(b.status)),
    upcoming,
    bays: bays.map((bay) => {
      const booking = atBay.get(bay.id) ?? null;
      const state = site.emergencyAt
        ? 'stopped'
        : booking?.status === 'overstay'
          ? 'overstay'
          : booking
            ? 'occupied'
            : blackedOut.has('*') || blackedOut.has(bay.id)
              ? 'blacked_out'
              : 'available';
      return { id: bay.id, name: bay.name, state, booking };
    }),
    emergency: emergencyStateOf(site),
  };
}

/** Vehicles that arrived (checked in), first come first, with their bay's state and the free compatible bays. */
export async function queue(ctx: AppContext, actor: GateActor): Promise<GateQueue> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const site = await repo.findSite(db, actor);
  if (!site) throw notFound('Site');
  const rows = await repo.listGateBookings(db, actor, eq(bookings.status, 'checked_in'), 'arrival');
  const items = await Promise.all(
    rows.map(async (row) => {
      const stopped = site.emergencyAt !== null;
      const [isFree, free] = stopped
        ? [false, []]
        : await Promise.all([repo.isBayFreeNow(db, row.bayId, row.id, now), repo.freeBaysForBooking(db, row.id, now)]);
      return {
        ...toGateBooking(row, actor.role, now, stopped),
        waitingMinutes: row.checkedInAt ? Math.max(0, Math.floor((now.getTime() - row.checkedInAt.getTime()) / MINUTE_MS)) : 0,
        isExpectedBayFree: isFree,
        freeBays: free,
      };
    }),
  );
  return { siteName: site.name, timeZone: site.timeZone, emergency: emergencyStateOf(site), items };
}

/**
 * A vehicle at the gate without a booking: booked now (to the minute) for its expected duration on
 * a compatible bay free now, checked in at once, source 'gate'.
 */
export async function walkIn(ctx: AppContext, actor: GateActor, input: z.output<typeof walkInSchema>): Promise<GateMoveResponse> {
  const now = ctx.clock.now();
  const start = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const end = new Date(start.getTime() + input.expectedDurationMin * MINUTE_MS);
  const id = randomUUID();
  const view = await ctx.database.db.transaction(async (tx) => {
    const site = (await repo.findSite(tx, actor))!;
    if (site.emergencyAt) throw siteStopped(site.name);
    await refuseVehicleOnSite(tx, actor.orgId, input.vehicleRegistration, null);
    let free = await repo.freeBaysForWalkIn(tx, site.id, { heightM: input.vehicleHeightM, lengthM: input.vehicleLengthM ?? null, needs: input.specialAccessNeeds ?? [] }, start, end);
    if (input.bayId) free = free.filter((b) => b.id === input.bayId);
    if (free.length === 0) {
      throw conflict(
        'no_free_bay',
        input.bayId
          ? 'That bay is not free now for this vehicle. Choose another bay, or let the vehicle wait.'
          : `No bay at ${site.name} that can take this vehicle is free for ${input.expectedDurationMin} minutes from now. Let the vehicle wait or book it later.`,
      );
    }
    await assertWithinPlanLimit(tx, actor.orgId, 'bookings', { now });
    const tenant = await findLinkedTenant(tx, actor.orgId, input.tenantEmail, input.tenantName);
    const request = { ...input, orgId: actor.orgId, date: localDateOf(start, site.timeZone), slot: localTimeOf(start, site.timeZone), idempotencyKey: undefined } as BookingRequest;
    const { view: created } = await createBookingInTx(tx, now, {
      candidates: free.map((b) => ({ bayId: b.id, bayName: b.name, siteId: site.id, siteName: site.name, start, end })),
      booking: {
        ...bookingColumnsOf(request),
        id,
        orgId: actor.orgId,
        tenantId: tenant?.id ?? null,
        status: 'checked_in',
        approvedAt: now,
        checkedInAt: now,
        source: 'gate',
        manageTokenHash: hashToken(manageTokenFor(ctx.authSecret, id)),
        createdAt: now,
        updatedAt: now,
      },
      vehicleRegistration: input.vehicleRegistration,
      audit: {
        actor: actor.auditActor,
        details: { vehicle_registration: input.vehicleRegistration, source: 'gate', walk_in: true, bay_chosen: !!input.bayId, actor: actor.role },
        ip: actor.ip ?? null,
      },
      // The driver is at the gate: no mail. A walk-in is created checked in: both events.
      mail: { notifyAdmins: false, documents: 0 },
      webhookTypes: ['booking.created', 'gate.check_in'],
    });
    return created;
  });
  afterCommit(ctx, view, 'created');
  return { booking: await gateBookingById(ctx, actor, id), unchanged: false, dwellMinutes: null };
}

export async function getEmergency(ctx: AppContext, actor: GateActor): Promise<EmergencyState> {
  const site = await repo.findSite(ctx.database.db, actor);
  if (!site) throw notFound('Site');
  return emergencyStateOf(site);
}

/**
 * Stops (reason given) or resumes (reason null) the site: the portal offers no slot there while
 * stopped, and check-in and calls to bays are refused. Org admins are e-mailed, and the hauliers due
 * today; audited; published as a 'site' change.
 */
export async function setEmergency(ctx: AppContext, actor: GateActor, reason: string | null) {
  requireStaff(actor, reason === null ? 'resume the site' : 'stop the site');
  const now = ctx.clock.now();
  const isStop = reason !== null;
  const unchanged = await ctx.database.db.transaction(async (tx) => {
    const site = (await repo.findSite(tx, actor, true))!;
    if ((site.emergencyAt !== null) === isStop) return true;
    await repo.setEmergency(tx, actor, isStop ? { at: now, reason, by: actor.auditActor?.id ?? null } : { at: null, reason: null, by: null });
    await writeAudit(tx, {
      actor: actor.auditActor,
      action: isStop ? 'site.emergency_stopped' : 'site.emergency_resumed',
      resourceType: 'site',
      resourceId: site.id,
      orgId: site.orgId,
      siteId: site.id,
      details: isStop
        ? { site_name: site.name, reason }
        : { site_name: site.name, stopped_at: iso(site.emergencyAt), stop_reason: site.emergencyReason },
      ip: actor.ip ?? null,
    });
    const admins = await listOrgAdminEmails(tx, site.orgId);
    if (admins.length > 0) {
      await enqueueMail(tx, now, [
        {
          kind: GATE_EMERGENCY_MAIL_KIND,
          orgId: site.orgId,
          recipients: admins,
          payload: {
            siteName: site.name,
            timeZone: site.timeZone,
            state: isStop ? 'stopped' : 'resumed',
            reason: isStop ? reason : site.emergencyReason,
            byEmail: actor.auditActor?.email ?? null,
            at: now.toISOString(),
          },
        },
      ]);
    }
    // The hauliers due here today and not arrived: one e-mail each at the stop, one at the resume
    // (those told of this stop), in this transaction — a repeated stop or resume changes nothing.
    const stoppedAt = isStop ? now.toISOString() : iso(site.emergencyAt)!;
    const day = siteDay(site.timeZone, now);
    const hauliers = isStop
      ? await repo.listDueHauliers(tx, actor, day.start, day.end)
      : await repo.listHauliersToldOfStop(tx, actor, GATE_HAULIER_HOLD_MAIL_KIND, stoppedAt);
    if (hauliers.length > 0) {
      await enqueueMail(
        tx,
        now,
        hauliers.map((h) => ({
          kind: GATE_HAULIER_HOLD_MAIL_KIND,
          orgId: site.orgId,
          recipients: [h.email],
          payload: { siteId: site.id, siteName: site.name, timeZone: site.timeZone, state: isStop ? 'stopped' : 'resumed', stoppedAt, bookings: h.bookings },
        })),
      );
    }
    return false;
  });
  if (!unchanged) {
    ctx.realtime?.publish({
      entity: 'site',
      action: isStop ? 'emergency_stopped' : 'emergency_resumed',
      id: actor.siteId,
      orgId: actor.orgId,
      siteId: actor.siteId,
      at: now.toISOString(),
    });
    ctx.mailWorker?.kick();
  }
  return { ...(await getEmergency(ctx, actor)), unchanged };
}
