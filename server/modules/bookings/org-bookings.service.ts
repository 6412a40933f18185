import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { allowedTransitionsAt, BOOKING_STATUS_LABELS, RESCHEDULABLE_STATUSES, upcomingTransitions } from '../../../domain/booking-lifecycle';
import { letsVehicleIn, siteEmergencyHoldMessage } from '../../../domain/site-emergency';
import type { BookingStatus } from '../../../domain/enums';
import type {
  AdminBookingPreview,
  AdminBookingSites,
  AdminBookingSitesTarget,
  AdminBookingTarget,
  adminBookingSchema,
  BookingDetail,
  BookingExtendInput,
  BookingList,
  BookingRescheduleInput,
  bookingListQuerySchema,
  BookingTransitionInput,
} from '../../../domain/org-bookings';
import type { AppContext } from '../../context';
import { AppError, conflict, notFound } from '../../plugins/errors';
import type { Tx } from '../../db/client';
import type { Candidate } from '../availability/availability.service';
import { addDays, beyondHorizonMessage } from '../../../domain/day-notice';
import { todayIn } from '../../../domain/slot-grid';
import { and, eq, sql } from 'drizzle-orm';
import { sites } from '../../db/schema';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import type { ResolveAffectedInput } from '../../../domain/affected-bookings';
import { findAffectedBookings, publishResolved, resolveAffectedInTx } from './affected-bookings';
import { findLinkedTenant } from '../tenants/tenant-link';
import { readOrgSettingsOf } from '../org-settings/org-settings.service';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { hashToken } from '../../auth/tokens';
import { manageTokenFor } from './manage-token';
import { candidatesFor, candidatesToMove } from './booking-candidates';
import { noAvailableBay } from './booking-errors';
import * as bookingsRepo from './bookings.repo';
import { afterCommit, applyTransition, staleVersion } from './lifecycle.service';
import * as repo from './org-bookings.repo';
import { moveBookingInTx } from './move-booking';
import { bookingColumnsOf, createBookingInTx } from './create-booking';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid is a booking that does not exist (404, not a database error). */
function requireUuid(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

export async function listBookings(ctx: AppContext, scope: OrgScope, query: z.output<typeof bookingListQuerySchema>): Promise<BookingList> {
  const { rows, total } = await repo.listBookings(ctx.database.db, scope, query);
  return {
    items: rows.map((r) => ({
      ...r,
      status: r.status as BookingStatus,
      startTime: r.startTime.toISOString(),
      endTime: r.endTime.toISOString(),
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getBooking(ctx: AppContext, scope: OrgScope, bookingId: string): Promise<BookingDetail> {
  requireUuid(bookingId, 'Booking');
  const db = ctx.database.db;
  const row = await repo.findBooking(db, scope, bookingId);
  if (!row) throw notFound('Booking');
  const [documents, history, request] = await Promise.all([repo.listDocuments(db, scope, bookingId), repo.listHistory(db, scope, bookingId), repo.findRescheduleRequest(db, scope, bookingId)]);
  const b = row.booking;
  const status = b.status as BookingStatus;
  const now = ctx.clock.now();
  // While the site is stopped the moves that let a vehicle in are held (the lifecycle refuses them):
  // not offered, and each is listed with the refusal's words so the screen says why.
  const open = allowedTransitionsAt(status, scope.actor, b, now);
  const held = row.emergencyAt ? open.filter((to) => letsVehicleIn(status, to)) : [];
  const holdMessage = siteEmergencyHoldMessage(row.siteName, row.emergencyReason);
  return {
    id: b.id,
    version: b.version,
    status,
    tsrNumber: b.tsrNumber,
    tsrSystemType: b.tsrSystemType,
    tsrUrl: b.tsrUrl,
    tenantName: b.tenantName,
    contactName: b.contactName,
    tenantEmail: b.tenantEmail,
    tenantPhone: b.tenantPhone,
    siteId: b.siteId,
    siteName: row.siteName,
    bayId: b.bayId,
    bayName: row.bayName,
    timeZone: row.timeZone,
    startTime: b.startTime.toISOString(),
    endTime: b.endTime.toISOString(),
    bookingType: b.bookingType,
    vehicleType: b.vehicleType,
    vehicleRegistration: b.vehicleRegistration,
    vehicleHeightM: b.vehicleHeightM,
    vehicleLengthM: b.vehicleLengthM,
    specialAccessNeeds: b.specialAccessNeeds ?? [],
    goodsDescription: b.goodsDescription,
    expectedDurationMin: b.expectedDurationMin,
    driverInductionCompleted: b.driverInductionCompleted,
    notes: b.notes,
    source: b.source,
    statusReason: b.statusReason,
    approvedAt: iso(b.approvedAt),
    declinedAt: iso(b.declinedAt),
    cancelledAt: iso(b.cancelledAt),
    checkedInAt: iso(b.checkedInAt),
    startedAt: iso(b.startedAt),
    completedAt: iso(b.completedAt),
    noShowAt: iso(b.noShowAt),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
    allowedTransitions: open.filter((to) => !held.includes(to)),
    heldTransitions: held.map((to) => ({ to, message: holdMessage })),
    upcomingTransitions: upcomingTransitions(status, scope.actor, b, now).map((u) => ({ to: u.to, opensAt: u.opensAt.toISOString() })),
    // Only a confirmed booking's request is open: once it is cancelled, checked in… the request is moot.
    rescheduleRequest:
      status === 'approved' && request?.startTime && request.requestedAt
        ? {
            startTime: request.startTime.toISOString(),
            expectedDurationMin: request.durationMin ?? b.expectedDurationMin,
            requestedAt: request.requestedAt.toISOString(),
            reasonCode: request.reasonCode,
            comment: request.comment,
          }
        : null,
    documents: documents.map((d) => ({ id: d.id, fileName: d.fileName, contentType: d.contentType, sizeBytes: d.sizeBytes, createdAt: d.createdAt.toISOString() })),
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      actorEmail: h.actorEmail,
      actorRole: h.actorRole,
      fromStatus: typeof h.details.from_status === 'string' ? h.details.from_status : null,
      toStatus: typeof h.details.status === 'string' ? h.details.status : null,
      reason: typeof h.details.reason === 'string' ? h.details.reason : null,
      createdAt: h.createdAt.toISOString(),
    })),
  };
}

export async function transitionBooking(ctx: AppContext, scope: OrgScope, bookingId: string, input: BookingTransitionInput, ip: string | null) {
  requireUuid(bookingId, 'Booking');
  await applyTransition(
    ctx,
    { bookingId, orgId: scope.orgId, to: input.to, expectedVersion: input.version, reason: input.reason ?? null },
    { kind: scope.actor, user: scope.auditActor, ip },
  );
  return getBooking(ctx, scope, bookingId);
}

/** Extend Time for an overstaying booking: a later end on the same bay, back to in progress. */
export async function extendBooking(ctx: AppContext, scope: OrgScope, bookingId: string, input: BookingExtendInput, ip: string | null) {
  requireUuid(bookingId, 'Booking');
  await applyTransition(
    ctx,
    { bookingId, orgId: scope.orgId, to: 'in_progress', expectedVersion: input.version, newEnd: new Date(input.endTime) },
    { kind: scope.actor, user: scope.auditActor, ip },
  );
  return getBooking(ctx, scope, bookingId);
}

/**
 * Moves a booking that has not arrived to another time and/or bay of its site under the portal's rules (the
 * whole duration free, hours, advance, horizon, blackouts, clearance), atomically: the booking
 * keeps its status, and the haulier is told.
 */
export async function rescheduleBooking(ctx: AppContext, scope: OrgScope, bookingId: string, input: BookingRescheduleInput, ip: string | null) {
  requireUuid(bookingId, 'Booking');
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const current = await bookingsRepo.findBookingView(tx, { orgId: scope.orgId, id: bookingId }, true);
    if (!current || current.booking.orgId !== scope.orgId) throw notFound('Booking');
    const b = current.booking;
    const status = b.status as BookingStatus;
    if (b.version !== input.version) throw staleVersion(status);
    if (!(RESCHEDULABLE_STATUSES as readonly string[]).includes(status)) {
      throw conflict('not_reschedulable', `This booking is ${BOOKING_STATUS_LABELS[status].toLowerCase()}: only pending and approved bookings can be rescheduled.`, { status });
    }
    let candidates = await candidatesToMove(tx, now, b, input);
    // The booking stays at its site (its schedule, its gate); a chosen bay must be free too.
    candidates = candidates.filter((c) => c.siteId === b.siteId && (!input.bayId || c.bayId === input.bayId));
    if (candidates.length === 0) throw input.bayId ? conflict('bay_not_free', BAY_NOT_FREE) : noAvailableBay();
    const { view: after } = await moveBookingInTx(tx, now, {
      current,
      candidates,
      mover: scope.actor,
      audit: { actor: scope.auditActor, ip },
    });
    return after;
  });
  afterCommit(ctx, view, 'rescheduled');
  return getBooking(ctx, scope, bookingId);
}

/** What the admin's choice of site, bay and time allows: the free bays, best fit first, or why none. */
async function adminCandidates(tx: Tx, scope: OrgScope, input: AdminBookingTarget, now: Date): Promise<Candidate[]> {
  if (input.siteId) {
    const [site] = await tx
      .select({ id: sites.id, timeZone: sites.timeZone, bookingHorizonDays: sites.bookingHorizonDays })
      .from(sites)
      .where(and(eq(sites.id, input.siteId), eq(sites.orgId, scope.orgId)));
    if (!site) throw notFound('Site');
    // The chosen site's own horizon, in its own calendar (another site's longer one does not count).
    const lastBookableDate = addDays(todayIn(site.timeZone, now), site.bookingHorizonDays);
    if (input.date > lastBookableDate) throw new AppError(400, 'beyond_horizon', beyondHorizonMessage(site.bookingHorizonDays, lastBookableDate));
  }
  const request = { ...input, orgId: scope.orgId };
  let candidates = await candidatesFor(tx, now, request, undefined, { ignoreMinAdvance: input.overrideMinAdvance });
  if (input.siteId) {
    // The date and slot are that site's: another site's bay at the same local time is not what was asked.
    candidates = candidates.filter((c) => c.siteId === input.siteId);
    if (candidates.length === 0) throw noAvailableBay();
  }
  if (input.bayId) {
    candidates = candidates.filter((c) => c.bayId === input.bayId);
    if (candidates.length === 0) throw conflict('bay_not_free', BAY_NOT_FREE);
  }
  return candidates;
}

/**
 * The bay an admin booking would get now (the allocator's first choice), shown on the form before
 * it is submitted. Nothing is written; a concurrent booking may still take it first.
 */
export async function previewAdminBooking(ctx: AppContext, scope: OrgScope, input: AdminBookingTarget): Promise<AdminBookingPreview> {
  const now = ctx.clock.now();
  const { first, timeZone } = await ctx.database.db.transaction(async (tx) => {
    const [first] = await adminCandidates(tx, scope, input, now);
    const [site] = await tx.select({ timeZone: sites.timeZone }).from(sites).where(and(eq(sites.id, first.siteId), eq(sites.orgId, scope.orgId)));
    return { first: first!, timeZone: site!.timeZone };
  });
  return { siteId: first.siteId, siteName: first.siteName, bayId: first.bayId, bayName: first.bayName, startTime: first.start.toISOString(), endTime: first.end.toISOString(), timeZone };
}

/**
 * The same booking at each active site of the organization (its local date and slot there), when
 * the organization lets hauliers choose the site (decision 039): the admin form then shows where
 * there is room before the admin picks a site. Under best fit over all sites: the policy only.
 */
export async function previewAdminBookingSites(ctx: AppContext, scope: OrgScope, input: AdminBookingSitesTarget): Promise<AdminBookingSites> {
  const now = ctx.clock.now();
  const { hauliersChooseSite } = (await readOrgSettingsOf(ctx.database.db, scope.orgId)).booking;
  if (!hauliersChooseSite) return { hauliersChooseSite, sites: [] };
  return ctx.database.db.transaction(async (tx) => {
    const result: AdminBookingSites['sites'] = [];
    for (const site of await repo.listActiveSites(tx, scope)) {
      const entry = { siteId: site.id, siteName: site.name, timeZone: site.timeZone };
      try {
        const [first] = await adminCandidates(tx, scope, { ...input, siteId: site.id }, now);
        result.push({ ...entry, bayName: first!.bayName, startTime: first!.start.toISOString(), endTime: first!.end.toISOString(), message: null });
      } catch (error) {
        // A full site, a slot outside its hours or horizon: said per site, the others still shown.
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
        result.push({ ...entry, bayName: null, startTime: null, endTime: null, message: error.message });
      }
    }
    return { hauliersChooseSite, sites: result };
  });
}

/**
 * An admin books for a tenant: the portal's validation and allocation (best fit, or the bay they
 * chose), optionally past the minimum advance (recorded in the audit entry), approved at once
 * unless they say otherwise. The haulier gets the usual confirmation with the manage link.
 */
export async function createAdminBooking(ctx: AppContext, scope: OrgScope, input: z.output<typeof adminBookingSchema>, ip: string | null) {
  const now = ctx.clock.now();
  const id = randomUUID();
  const request = { ...input, orgId: scope.orgId, idempotencyKey: undefined };
  const status = input.approve ? 'approved' : 'pending';
  const view = await ctx.database.db.transaction(async (tx) => {
    // Linked to its tenant by the portal's rule (docs/tenant-linking.md); the tenant's portal policy
    // (blocked, daily limit, sites) is for the portal: an admin booking is the site's own decision.
    const tenant = await findLinkedTenant(tx, scope.orgId, input.tenantEmail, input.tenantName);
    const candidates = await adminCandidates(tx, scope, input, now);
    await assertWithinPlanLimit(tx, scope.orgId, 'bookings', { now });
    const { view: created } = await createBookingInTx(tx, now, {
      candidates,
      booking: {
        ...bookingColumnsOf(request),
        id,
        orgId: scope.orgId,
        tenantId: tenant?.id ?? null,
        status,
        approvedAt: input.approve ? now : null,
        source: 'admin',
        manageTokenHash: hashToken(manageTokenFor(ctx.authSecret, id)),
        createdAt: now,
        updatedAt: now,
      },
      vehicleRegistration: request.vehicleRegistration,
      audit: {
        actor: scope.auditActor,
        details: { source: 'admin', bay_chosen: !!input.bayId, min_advance_overridden: input.overrideMinAdvance },
        ip,
      },
      // The admin booked it: no request for the admins to review; the haulier's mail follows the status.
      mail: { notifyAdmins: false, documents: 0 },
      webhookTypes: ['booking.created'],
    });
    return created;
  });
  afterCommit(ctx, view, 'created');
  return getBooking(ctx, scope, id);
}

const BAY_NOT_FREE = 'That bay is not free for the whole booking at that time, or cannot take this vehicle. Choose another bay or time.';

/** A document of the booking, only to its own organization. */
export async function getDocument(ctx: AppContext, scope: OrgScope, bookingId: string, documentId: string) {
  requireUuid(bookingId, 'Document');
  requireUuid(documentId, 'Document');
  const doc = await repo.findDocument(ctx.database.db, scope, bookingId, documentId);
  if (!doc) throw notFound('Document');
  const body = await ctx.storage.get(doc.bucket, doc.storageKey);
  if (!body) throw notFound('Document');
  return { doc, body };
}

/** Acts on bookings a setup change left listed: move each to a free compatible bay at its time, or cancel it with the reason. */
export async function resolveAffected(ctx: AppContext, scope: OrgScope, input: ResolveAffectedInput, ip: string | null) {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { outcomes, publish } = await ctx.database.db.transaction(async (tx) => {
    const affected = await findAffectedBookings(tx, scope.orgId, now, sql`k.id = any(${`{${input.bookingIds.join(',')}}`}::uuid[])`, { forUpdate: true });
    const found = new Set(affected.map((b) => b.id));
    const result = await resolveAffectedInTx(ctx, tx, scope, affected, { action: input.action, reason: input.reason }, ip, 'listed by the admin');
    // Ids of other organizations, or of bookings already over, are reported, never touched.
    for (const id of input.bookingIds) {
      if (!found.has(id)) result.outcomes.push({ id, tsrNumber: '', outcome: 'skipped', bayName: null, message: 'Not an upcoming booking of this organization' });
    }
    return result;
  });
  publishResolved(ctx, publish);
  return { outcomes };
}
