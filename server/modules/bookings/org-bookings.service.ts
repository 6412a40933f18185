import type { z } from 'zod';
import { allowedTransitions } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import type {
  BookingDetail,
  BookingExtendInput,
  BookingList,
  bookingListQuerySchema,
  BookingTransitionInput,
} from '../../../domain/org-bookings';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { applyTransition } from './lifecycle.service';
import * as repo from './org-bookings.repo';

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
  const [documents, history] = await Promise.all([repo.listDocuments(db, scope, bookingId), repo.listHistory(db, scope, bookingId)]);
  const b = row.booking;
  const status = b.status as BookingStatus;
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
    allowedTransitions: allowedTransitions(status, scope.actor),
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
