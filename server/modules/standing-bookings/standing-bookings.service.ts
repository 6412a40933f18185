import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { RESCHEDULABLE_STATUSES } from '../../../domain/booking-lifecycle';
import type { BookingRequest } from '../../../domain/booking-request';
import type { BookingStatus } from '../../../domain/enums';
import { addDays } from '../../../domain/day-notice';
import { todayIn } from '../../../domain/slot-grid';
import {
  expansionWindow,
  isoWeekdayOf,
  occurrenceTimes,
  standingOccurrenceDates,
  type ConflictList,
  type ConflictResolution,
  type Occurrence,
  type OccurrenceStatus,
  type StandingBooking,
  type StandingBookingDetail,
  type StandingBookingValues,
  type StandingList,
  type StandingStatus,
  type standingListQuerySchema,
} from '../../../domain/standing-bookings';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { sites, tenants } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import { enqueueMail } from '../../mail/outbox';
import { AppError, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { hashToken } from '../../auth/tokens';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { candidatesFor, candidatesToMove } from '../bookings/booking-candidates';
import { noAvailableBay } from '../bookings/booking-errors';
import * as bookingsRepo from '../bookings/booking-records';
import { bookingColumnsOf, createBookingInTx } from '../bookings/create-booking';
import { afterCommit, applyTransitionInTx } from '../bookings/lifecycle.service';
import { manageTokenFor } from '../bookings/manage-token';
import { moveBookingInTx } from '../bookings/move-booking';
import { STANDING_MAIL, type StandingMailKind } from './standing-mail';
import * as repo from './standing-bookings.repo';

// Standing (recurring) bookings (issue 27 item 2, decision 045). Every occurrence is booked through
// the normal booking path (candidatesFor → createBookingInTx: best-fit bay, hours, blackouts, rules,
// the exclusion constraint); its row in standing_booking_occurrences is inserted FIRST with
// ON CONFLICT DO NOTHING in the same transaction, so a date is placed exactly once whichever
// process gets there first. A refusal of the booking path leaves the row as a conflict with the
// refusal's message, for the admin to resolve. The haulier hears of the series once (standing.*
// mails), not of each occurrence it books, cancels or moves.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NOT_FOUND = 'Standing booking';

function requireUuid(id: string): void {
  if (!UUID.test(id)) throw notFound(NOT_FOUND);
}

type SeriesHead = NonNullable<Awaited<ReturnType<typeof repo.findSeries>>>;
type Actor = { user: AuditActor; ip: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDto(row: SeriesHead): StandingBooking {
  const s = row.series;
  return {
    id: s.id,
    status: s.status as StandingStatus,
    siteId: s.siteId,
    siteName: row.siteName,
    timeZone: row.timeZone,
    tenantId: s.tenantId,
    weekdays: s.weekdays,
    startLocal: s.startLocal,
    durationMin: s.durationMin,
    startsOn: s.startsOn,
    endsOn: s.endsOn,
    weeksAhead: s.weeksAhead,
    expandedThrough: s.expandedThrough,
    bookingType: s.bookingType,
    tsrNumber: s.tsrNumber,
    tenantName: s.tenantName,
    contactName: s.contactName,
    tenantEmail: s.tenantEmail,
    tenantPhone: s.tenantPhone,
    vehicleType: s.vehicleType,
    vehicleRegistration: s.vehicleRegistration,
    vehicleHeightM: s.vehicleHeightM,
    vehicleLengthM: s.vehicleLengthM,
    goodsDescription: s.goodsDescription,
    notes: s.notes,
    language: s.language,
    decisionReason: s.decisionReason,
    requestedByHaulier: s.requestedByAccountId !== null,
    nextOccurrence: row.nextOccurrence,
    openConflicts: row.openConflicts,
    createdAt: s.createdAt.toISOString(),
  };
}

type OccurrenceJoin = Awaited<ReturnType<typeof repo.listOccurrences>>[number];
function occurrenceDto(row: OccurrenceJoin): Occurrence {
  const o = row.occurrence;
  return {
    date: o.occurrenceDate,
    status: o.status as OccurrenceStatus,
    bookingId: o.bookingId,
    bookingStatus: row.bookingStatus,
    bookingVersion: row.bookingVersion,
    startTime: iso(row.startTime),
    bayName: row.bayName,
    conflictCode: o.conflictCode,
    conflictMessage: o.conflictMessage,
    resolvedAt: iso(o.resolvedAt),
  };
}

async function requireSeries(ctx: AppContext, scope: OrgScope, id: string, tx?: Tx): Promise<SeriesHead> {
  requireUuid(id);
  const row = await repo.findSeries(tx ?? ctx.database.db, scope.orgId, id, !!tx, ctx.clock.now());
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

// ── Reads ──

export async function listStanding(ctx: AppContext, scope: OrgScope, query: z.output<typeof standingListQuerySchema>): Promise<StandingList> {
  requireOrgAdmin(scope);
  const { rows, total } = await repo.listSeries(ctx.database.db, scope.orgId, ctx.clock.now(), query);
  return { items: rows.map(toDto), total, page: query.page, pageSize: query.pageSize };
}

export async function getStanding(ctx: AppContext, scope: OrgScope, id: string): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const row = await requireSeries(ctx, scope, id);
  const occurrences = await repo.listOccurrences(ctx.database.db, scope.orgId, id);
  return { ...toDto(row), occurrences: occurrences.map(occurrenceDto) };
}

export async function listConflicts(ctx: AppContext, scope: OrgScope): Promise<ConflictList> {
  requireOrgAdmin(scope);
  const rows = await repo.listOpenConflicts(ctx.database.db, scope.orgId);
  return {
    items: rows.map((r) => ({
      ...occurrenceDto(r),
      standingBookingId: r.occurrence.standingBookingId,
      tsrNumber: r.tsrNumber,
      tenantName: r.tenantName,
      siteName: r.siteName,
      startLocal: r.startLocal,
    })),
  };
}

// ── Placing one occurrence through the booking path ──

/** The series as a booking request for one date and time (the admin booking's fields). */
function requestOf(s: repo.SeriesRow, date: string, slot: string): BookingRequest {
  return {
    orgId: s.orgId,
    siteId: s.siteId,
    tsrNumber: s.tsrNumber,
    tsrSystemType: undefined,
    tsrUrl: undefined,
    tenantName: s.tenantName,
    contactName: s.contactName ?? s.tenantName,
    tenantEmail: s.tenantEmail,
    tenantPhone: s.tenantPhone ?? undefined,
    bookingType: s.bookingType as BookingRequest['bookingType'],
    date,
    slot,
    expectedDurationMin: s.durationMin,
    vehicleType: s.vehicleType as BookingRequest['vehicleType'],
    vehicleRegistration: s.vehicleRegistration,
    vehicleHeightM: s.vehicleHeightM,
    vehicleLengthM: s.vehicleLengthM ?? undefined,
    specialAccessNeeds: [],
    goodsDescription: s.goodsDescription ?? undefined,
    // The site set the series up with the tenant: its induction is the site's own record.
    driverInductionCompleted: true,
    termsAccepted: true,
    notes: s.notes ?? undefined,
    idempotencyKey: undefined,
  };
}

/**
 * Books one date of the series at `slot` (the series' time, or the admin's pick) through the admin
 * booking's path: free bays of the series' site, best fit first, the plan's limit, approved at once.
 * Throws the booking path's refusal (an AppError) when it cannot be placed.
 */
async function placeInTx(
  ctx: AppContext,
  tx: Tx,
  now: Date,
  s: repo.SeriesRow,
  target: { date: string; slot: string },
  options: { actor: Actor; mailHaulier: boolean; occurrenceDate: string },
): Promise<bookingsRepo.BookingView> {
  const request = requestOf(s, target.date, target.slot);
  const candidates = (await candidatesFor(tx, now, request)).filter((c) => c.siteId === s.siteId);
  if (candidates.length === 0) throw noAvailableBay();
  await assertWithinPlanLimit(tx, s.orgId, 'bookings', { now });
  const id = randomUUID();
  const { view } = await createBookingInTx(tx, now, {
    candidates,
    booking: {
      ...bookingColumnsOf(request),
      id,
      orgId: s.orgId,
      tenantId: s.tenantId,
      status: 'approved',
      approvedAt: now,
      source: 'standing',
      standingBookingId: s.id,
      language: s.language,
      manageTokenHash: hashToken(manageTokenFor(ctx.authSecret, id)),
      createdAt: now,
      updatedAt: now,
    },
    vehicleRegistration: request.vehicleRegistration,
    audit: { actor: options.actor.user, details: { source: 'standing', standing_booking_id: s.id, occurrence_date: options.occurrenceDate }, ip: options.actor.ip },
    mail: { notifyAdmins: false, documents: 0, toHaulier: options.mailHaulier },
    webhookTypes: ['booking.created'],
  });
  return view;
}

/** A refusal the booking path gives for a date (full, closed, blackout…), as opposed to a fault of ours. */
const isRefusal = (error: unknown): error is AppError => error instanceof AppError && error.statusCode < 500;

export type ExpansionResult = { booked: number; conflicts: number };

/**
 * Writes every date of an active series from where it stopped (never before today) up to today +
 * weeksAhead weeks (never after its end): each date's row first (ON CONFLICT DO NOTHING), then its
 * booking, in one transaction per date. A date whose start has passed is not written.
 */
export async function expandStandingBooking(ctx: AppContext, key: { orgId: string; id: string }, actor: Actor = { user: null, ip: null }): Promise<ExpansionResult> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const head = await repo.findSeries(db, key.orgId, key.id);
  if (!head || head.series.status !== 'active') return { booked: 0, conflicts: 0 };
  const today = todayIn(head.timeZone, now);
  const window = expansionWindow(head.series, today);
  if (!window) return { booked: 0, conflicts: 0 };
  const result: ExpansionResult = { booked: 0, conflicts: 0 };
  const views: bookingsRepo.BookingView[] = [];
  for (const date of standingOccurrenceDates(head.series, window)) {
    if (occurrenceTimes(date, head.series.startLocal, head.series.durationMin, head.timeZone).start <= now) continue;
    const stop = await db.transaction(async (tx) => {
      // The series as it is now, locked: a cancel or edit running meanwhile goes first or waits.
      const current = await repo.findSeries(tx, key.orgId, key.id, true);
      if (!current || current.series.status !== 'active') return true;
      const claimed = await repo.claimOccurrence(tx, { orgId: key.orgId, standingBookingId: key.id, occurrenceDate: date, createdAt: now });
      if (!claimed) return false; // another run (or process) wrote this date
      const occurrenceKey = { orgId: key.orgId, seriesId: key.id, date };
      try {
        const view = await tx.transaction((sp) =>
          placeInTx(ctx, sp, now, current.series, { date, slot: current.series.startLocal }, { actor, mailHaulier: false, occurrenceDate: date }),
        );
        await repo.updateOccurrence(tx, occurrenceKey, { bookingId: view.booking.id });
        views.push(view);
        result.booked++;
      } catch (error) {
        if (!isRefusal(error)) throw error;
        await repo.updateOccurrence(tx, occurrenceKey, { status: 'conflict', conflictCode: error.code, conflictMessage: error.message });
        result.conflicts++;
      }
      return false;
    });
    if (stop) return result;
  }
  await db.transaction((tx) => repo.advanceExpandedThrough(tx, key, window.to));
  for (const view of views) afterCommit(ctx, view, 'created');
  return result;
}

/** The job: every active series of every organization. */
export async function expandAllStandingBookings(ctx: AppContext): Promise<ExpansionResult> {
  const total: ExpansionResult = { booked: 0, conflicts: 0 };
  for (const row of await repo.listActiveSeriesAnyOrg(ctx.database.db)) {
    const one = await expandStandingBooking(ctx, { orgId: row.series.orgId, id: row.series.id });
    total.booked += one.booked;
    total.conflicts += one.conflicts;
  }
  return total;
}

// ── The admin's writes ──

async function audit(tx: Tx, scope: OrgScope, action: string, s: { id: string; siteId: string }, details: Record<string, unknown>, ip: string | null) {
  await writeAudit(tx, { actor: scope.auditActor, action, resourceType: 'standing_booking', resourceId: s.id, orgId: scope.orgId, siteId: s.siteId, details, ip });
}

function queueSeriesMail(tx: Tx, now: Date, s: repo.SeriesRow, kind: StandingMailKind, extra: Record<string, unknown> = {}) {
  return enqueueMail(tx, now, [{ kind: STANDING_MAIL, orgId: s.orgId, recipients: [s.tenantEmail], payload: { standingBookingId: s.id, change: kind, ...extra } }]);
}

/** The site and tenant named by the form, both of this organization (else 404). */
async function checkReferences(tx: Tx, scope: OrgScope, input: StandingBookingValues) {
  const [site] = await tx.select({ id: sites.id }).from(sites).where(and(eq(sites.id, input.siteId), eq(sites.orgId, scope.orgId)));
  if (!site) throw notFound('Site');
  if (input.tenantId) {
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).where(and(eq(tenants.id, input.tenantId), eq(tenants.orgId, scope.orgId)));
    if (!tenant) throw notFound('Tenant');
  }
}

const seriesValues = (input: StandingBookingValues) => ({
  siteId: input.siteId,
  tenantId: input.tenantId,
  weekdays: input.weekdays,
  startLocal: input.startLocal,
  durationMin: input.durationMin,
  startsOn: input.startsOn,
  endsOn: input.endsOn,
  weeksAhead: input.weeksAhead,
  bookingType: input.bookingType,
  tsrNumber: input.tsrNumber,
  tenantName: input.tenantName,
  contactName: input.contactName,
  tenantEmail: input.tenantEmail,
  tenantPhone: input.tenantPhone ?? null,
  vehicleType: input.vehicleType,
  vehicleRegistration: input.vehicleRegistration,
  vehicleHeightM: input.vehicleHeightM,
  vehicleLengthM: input.vehicleLengthM ?? null,
  goodsDescription: input.goodsDescription ?? null,
  notes: input.notes ?? null,
  language: input.language,
});

/** A new active series, written at once up to its horizon; the haulier gets one mail for it. */
export async function createStanding(ctx: AppContext, scope: OrgScope, input: StandingBookingValues, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const created = await ctx.database.db.transaction(async (tx) => {
    await checkReferences(tx, scope, input);
    const row = await repo.insertSeries(tx, { ...seriesValues(input), orgId: scope.orgId, status: 'active', createdBy: scope.userId, createdAt: now, updatedAt: now });
    await audit(tx, scope, 'standing_booking.created', row, { tsr_number: row.tsrNumber, tenant_name: row.tenantName, weekdays: row.weekdays, start_local: row.startLocal, starts_on: row.startsOn, ends_on: row.endsOn }, ip);
    return row;
  });
  await expandStandingBooking(ctx, { orgId: scope.orgId, id: created.id }, { user: scope.auditActor, ip });
  // Queued after the first expansion, so it lists the dates booked and those in conflict.
  await ctx.database.db.transaction((tx) => queueSeriesMail(tx, now, created, 'created'));
  ctx.mailWorker?.kick();
  return getStanding(ctx, scope, created.id);
}

const LIVE: readonly string[] = ['requested', 'active'];

/** Cancels one occurrence's booking without the haulier's per-booking mail (the series' mail says it). */
async function cancelQuietly(ctx: AppContext, tx: Tx, scope: OrgScope, bookingId: string, reason: string, ip: string | null) {
  const { view } = await applyTransitionInTx(
    ctx,
    tx,
    { bookingId, orgId: scope.orgId, to: 'cancelled', reason, mailHaulier: false },
    { kind: scope.actor, user: scope.auditActor, ip },
  );
  return view;
}

/** The occurrences still ahead: booked ones whose booking has not started and can still change. */
async function upcomingOccurrences(ctx: AppContext, tx: Tx, scope: OrgScope, seriesId: string, today: string) {
  const now = ctx.clock.now();
  const rows = await repo.listOccurrences(tx, scope.orgId, seriesId);
  return rows.filter(
    (r) => r.occurrence.occurrenceDate >= today && (r.occurrence.status === 'conflict' || (r.occurrence.status === 'booked' && r.startTime !== null && r.startTime > now && (RESCHEDULABLE_STATUSES as readonly string[]).includes(r.bookingStatus ?? ''))),
  );
}

/**
 * Edits a series. For an active one whose schedule changed (days, time, duration, site, vehicle),
 * each upcoming booking is moved to the new time of its date through the move path, cancelled when
 * its weekday is no longer in the series, or left as a conflict when the new time cannot be
 * placed; the dates now missing are written as usual. The haulier gets one mail for the change.
 */
export async function updateStanding(ctx: AppContext, scope: OrgScope, id: string, input: StandingBookingValues, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { isActive, scheduleChanged, views, row } = await ctx.database.db.transaction(async (tx) => {
    const head = await requireSeries(ctx, scope, id, tx);
    const before = head.series;
    if (!LIVE.includes(before.status)) throw conflict('standing_not_editable', `This standing booking is ${before.status}: it can no longer be changed.`);
    await checkReferences(tx, scope, input);
    const values = seriesValues(input);
    const scheduleKeys = ['siteId', 'weekdays', 'startLocal', 'durationMin', 'startsOn', 'endsOn', 'vehicleHeightM', 'vehicleLengthM'] as const;
    const changed = Object.entries(values)
      .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((before as Record<string, unknown>)[k]))
      .map(([k]) => k);
    const scheduleChanged = changed.some((k) => (scheduleKeys as readonly string[]).includes(k));
    await repo.updateSeries(tx, { orgId: scope.orgId, id }, { ...values, updatedAt: now });
    await audit(tx, scope, 'standing_booking.updated', before, { tsr_number: before.tsrNumber, changed }, ip);
    const views: bookingsRepo.BookingView[] = [];
    const isActive = before.status === 'active';
    if (isActive && scheduleChanged) {
      const after = { ...before, ...values };
      const today = todayIn(head.timeZone, now);
      for (const r of await upcomingOccurrences(ctx, tx, scope, id, today)) {
        const date = r.occurrence.occurrenceDate;
        const key = { orgId: scope.orgId, seriesId: id, date };
        const stillInSeries = after.weekdays.includes(isoWeekdayOf(date)) && date >= after.startsOn && (!after.endsOn || date <= after.endsOn);
        if (r.occurrence.status === 'conflict') {
          if (!stillInSeries) await repo.updateOccurrence(tx, key, { status: 'cancelled', resolvedAt: now, resolvedBy: scope.userId });
          continue;
        }
        const bookingId = r.occurrence.bookingId!;
        if (!stillInSeries || after.siteId !== before.siteId) {
          views.push(await cancelQuietly(ctx, tx, scope, bookingId, 'The standing booking was changed', ip));
          await repo.updateOccurrence(tx, key, { status: after.siteId !== before.siteId && stillInSeries ? 'skipped' : 'cancelled', resolvedAt: now, resolvedBy: scope.userId });
          continue;
        }
        try {
          const moved = await tx.transaction(async (sp) => {
            const current = (await bookingsRepo.findBookingView(sp, { orgId: scope.orgId, id: bookingId }, true))!;
            const candidates = (
              await candidatesFor(
                sp,
                now,
                { ...requestOf(after, date, after.startLocal), orgId: scope.orgId },
                bookingId,
              )
            ).filter((c) => c.siteId === after.siteId);
            if (candidates.length === 0) throw noAvailableBay();
            return moveBookingInTx(sp, now, {
              current,
              candidates,
              mover: scope.actor,
              expectedDurationMin: after.durationMin,
              audit: { actor: scope.auditActor, details: { standing_booking_id: id }, ip },
              mailHaulier: false,
            });
          });
          views.push(moved.view);
        } catch (error) {
          if (!isRefusal(error)) throw error;
          // The new time cannot be placed: the old one is given up, the date listed for the admin.
          views.push(await cancelQuietly(ctx, tx, scope, bookingId, 'The standing booking was changed', ip));
          await repo.updateOccurrence(tx, key, { status: 'conflict', bookingId: null, conflictCode: error.code, conflictMessage: error.message });
        }
      }
      // Days added to the series within the written window are written by the next expansion.
      await repo.updateSeries(tx, { orgId: scope.orgId, id }, { expandedThrough: addDays(today, -1) });
      await queueSeriesMail(tx, now, { ...before, ...values }, 'moved');
    }
    return { isActive, scheduleChanged, views, row: before };
  });
  for (const view of views) afterCommit(ctx, view, view.booking.status === 'cancelled' ? 'cancelled' : 'rescheduled');
  if (isActive) await expandStandingBooking(ctx, { orgId: scope.orgId, id: row.id }, { user: scope.auditActor, ip });
  if (scheduleChanged) ctx.mailWorker?.kick();
  return getStanding(ctx, scope, id);
}

/**
 * Cancels the whole series: every upcoming booking of it is cancelled (through the lifecycle, its
 * webhooks and live events as usual, but without a mail each), open conflicts are closed, what has
 * passed is left as it was; the haulier gets one mail.
 */
export async function cancelStanding(ctx: AppContext, scope: OrgScope, id: string, reason: string | null, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const views = await ctx.database.db.transaction(async (tx) => {
    const head = await requireSeries(ctx, scope, id, tx);
    const s = head.series;
    if (s.status !== 'active') throw conflict('standing_not_active', s.status === 'requested' ? 'This standing booking is a request: decline it instead.' : `This standing booking is ${s.status}: there is nothing to cancel.`);
    const today = todayIn(head.timeZone, now);
    const views: bookingsRepo.BookingView[] = [];
    for (const r of await upcomingOccurrences(ctx, tx, scope, id, today)) {
      const key = { orgId: scope.orgId, seriesId: id, date: r.occurrence.occurrenceDate };
      if (r.occurrence.status === 'booked') views.push(await cancelQuietly(ctx, tx, scope, r.occurrence.bookingId!, reason ?? 'The standing booking was cancelled', ip));
      await repo.updateOccurrence(tx, key, { status: 'cancelled', resolvedAt: now, resolvedBy: scope.userId });
    }
    await repo.updateSeries(tx, { orgId: scope.orgId, id }, { status: 'cancelled', cancelledAt: now, decisionReason: reason, updatedAt: now });
    await audit(tx, scope, 'standing_booking.cancelled', s, { tsr_number: s.tsrNumber, reason, bookings_cancelled: views.length }, ip);
    await queueSeriesMail(tx, now, s, 'cancelled', { count: views.length, reason });
    return views;
  });
  for (const view of views) afterCommit(ctx, view, 'cancelled');
  ctx.mailWorker?.kick();
  return getStanding(ctx, scope, id);
}

/** A haulier's request approved: active, written at once; the haulier gets one mail. */
export async function approveStanding(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const s = await ctx.database.db.transaction(async (tx) => {
    const { series: s } = await requireSeries(ctx, scope, id, tx);
    if (s.status !== 'requested') throw conflict('standing_not_requested', `This standing booking is ${s.status}: only a request can be approved.`);
    await repo.updateSeries(tx, { orgId: scope.orgId, id }, { status: 'active', decidedBy: scope.userId, decidedAt: now, updatedAt: now });
    await audit(tx, scope, 'standing_booking.approved', s, { tsr_number: s.tsrNumber }, ip);
    return s;
  });
  await expandStandingBooking(ctx, { orgId: scope.orgId, id }, { user: scope.auditActor, ip });
  await ctx.database.db.transaction((tx) => queueSeriesMail(tx, now, s, 'approved'));
  ctx.mailWorker?.kick();
  return getStanding(ctx, scope, id);
}

export async function declineStanding(ctx: AppContext, scope: OrgScope, id: string, reason: string, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const { series: s } = await requireSeries(ctx, scope, id, tx);
    if (s.status !== 'requested') throw conflict('standing_not_requested', `This standing booking is ${s.status}: only a request can be declined.`);
    await repo.updateSeries(tx, { orgId: scope.orgId, id }, { status: 'declined', decidedBy: scope.userId, decidedAt: now, decisionReason: reason, updatedAt: now });
    await audit(tx, scope, 'standing_booking.declined', s, { tsr_number: s.tsrNumber, reason }, ip);
    await queueSeriesMail(tx, now, s, 'declined', { reason });
  });
  ctx.mailWorker?.kick();
  return getStanding(ctx, scope, id);
}

// ── One occurrence ──

async function requireOccurrence(tx: Tx, scope: OrgScope, id: string, date: string) {
  if (!DATE.test(date)) throw notFound('Occurrence');
  const occurrence = await repo.findOccurrence(tx, scope.orgId, id, date);
  if (!occurrence) throw notFound('Occurrence');
  return occurrence;
}

/** Cancels one date: its booking through the lifecycle (the haulier mailed once, as usual), or an open conflict. */
export async function cancelOccurrence(ctx: AppContext, scope: OrgScope, id: string, date: string, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const { series: s } = await requireSeries(ctx, scope, id, tx);
    const o = await requireOccurrence(tx, scope, id, date);
    if (o.status !== 'booked' && o.status !== 'conflict') throw conflict('occurrence_closed', `This date is already ${o.status}.`);
    let view: bookingsRepo.BookingView | null = null;
    if (o.status === 'booked' && o.bookingId) {
      const { view: cancelled } = await applyTransitionInTx(
        ctx,
        tx,
        { bookingId: o.bookingId, orgId: scope.orgId, to: 'cancelled', reason: 'Cancelled by the site' },
        { kind: scope.actor, user: scope.auditActor, ip },
      );
      view = cancelled;
    }
    await repo.updateOccurrence(tx, { orgId: scope.orgId, seriesId: id, date }, { status: 'cancelled', resolvedAt: now, resolvedBy: scope.userId });
    await audit(tx, scope, 'standing_booking.occurrence_cancelled', s, { tsr_number: s.tsrNumber, occurrence_date: date, booking_id: o.bookingId }, ip);
    return view;
  });
  if (view) afterCommit(ctx, view, 'cancelled');
  return getStanding(ctx, scope, id);
}

/** Moves one date's booking to another date and time of its site, through the move path (mailed once, as usual). */
export async function moveOccurrence(ctx: AppContext, scope: OrgScope, id: string, date: string, target: { date: string; slot: string }, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const { series: s } = await requireSeries(ctx, scope, id, tx);
    const o = await requireOccurrence(tx, scope, id, date);
    if (o.status !== 'booked' || !o.bookingId) throw conflict('occurrence_not_booked', 'Only a booked date can be moved: resolve a conflict instead.');
    const current = await bookingsRepo.findBookingView(tx, { orgId: scope.orgId, id: o.bookingId }, true);
    if (!current) throw notFound('Booking');
    const status = current.booking.status as BookingStatus;
    if (!RESCHEDULABLE_STATUSES.includes(status)) throw conflict('not_reschedulable', `This booking is ${status.replace('_', ' ')}: it cannot be moved.`);
    const candidates = (await candidatesToMove(tx, now, current.booking, target)).filter((c) => c.siteId === s.siteId);
    if (candidates.length === 0) throw noAvailableBay();
    const { view } = await moveBookingInTx(tx, now, { current, candidates, mover: scope.actor, audit: { actor: scope.auditActor, details: { standing_booking_id: id }, ip } });
    await audit(tx, scope, 'standing_booking.occurrence_moved', s, { tsr_number: s.tsrNumber, occurrence_date: date, booking_id: o.bookingId, new_date: target.date, new_slot: target.slot }, ip);
    return view;
  });
  afterCommit(ctx, view, 'rescheduled');
  return getStanding(ctx, scope, id);
}

/**
 * An open conflict: placed again at the series' time (retry), at a time the admin picks (pick), or
 * given up (skip). A retry or pick the booking path still refuses answers its refusal; the date
 * stays listed.
 */
export async function resolveConflict(ctx: AppContext, scope: OrgScope, id: string, date: string, resolution: ConflictResolution, ip: string | null): Promise<StandingBookingDetail> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const { series: s } = await requireSeries(ctx, scope, id, tx);
    const o = await requireOccurrence(tx, scope, id, date);
    if (o.status !== 'conflict') throw conflict('not_a_conflict', `This date is ${o.status}, not a conflict.`);
    const key = { orgId: scope.orgId, seriesId: id, date };
    let view: bookingsRepo.BookingView | null = null;
    if (resolution.action === 'skip') {
      await repo.updateOccurrence(tx, key, { status: 'skipped', resolvedAt: now, resolvedBy: scope.userId });
    } else {
      if (s.status !== 'active') throw conflict('standing_not_active', `This standing booking is ${s.status}: skip the date instead.`);
      const target = resolution.action === 'retry' ? { date, slot: s.startLocal } : { date: resolution.date, slot: resolution.slot };
      view = await placeInTx(ctx, tx, now, s, target, { actor: { user: scope.auditActor, ip }, mailHaulier: true, occurrenceDate: date });
      await repo.updateOccurrence(tx, key, { status: 'booked', bookingId: view.booking.id, resolvedAt: now, resolvedBy: scope.userId });
    }
    await audit(tx, scope, 'standing_booking.conflict_resolved', s, { tsr_number: s.tsrNumber, occurrence_date: date, action: resolution.action, booking_id: view?.booking.id ?? null }, ip);
    return view;
  });
  if (view) afterCommit(ctx, view, 'created');
  return getStanding(ctx, scope, id);
}
