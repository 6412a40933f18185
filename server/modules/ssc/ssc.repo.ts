import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { bays, bookings, sites, sscAppointments, sscWebhookSubscriptions, tenants } from '../../db/schema';
import { statusIn } from '../../db/sql-status';
import type { LinkedTenant } from '../tenants/tenant-link';

// SQL of the SSC API: every query is scoped by the key's organization and tenant.

type Conn = Db | Tx;

/** The key's tenant with its booking policy and contact, for the booking path. */
export async function findKeyTenant(db: Conn, orgId: string, tenantId: string) {
  const [row] = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      status: tenants.status,
      autoApprove: tenants.autoApprove,
      allowedSiteIds: tenants.allowedSiteIds,
      maxBookingsPerDay: tenants.maxBookingsPerDay,
      contactName: tenants.contactName,
      contactEmails: tenants.contactEmails,
      email: tenants.email,
      phone: tenants.phone,
    })
    .from(tenants)
    .where(and(eq(tenants.orgId, orgId), eq(tenants.id, tenantId)));
  if (!row) return undefined;
  const linked: LinkedTenant = {
    id: row.id,
    name: row.name,
    status: row.status,
    autoApprove: row.autoApprove,
    allowedSiteIds: row.allowedSiteIds,
    maxBookingsPerDay: row.maxBookingsPerDay,
    // Not linked by a rule: the API key names its tenant (recorded as the contact e-mail rule's kin).
    matchedBy: 'contact_email',
  };
  return { ...row, linked };
}
export type KeyTenant = NonNullable<Awaited<ReturnType<typeof findKeyTenant>>>;

/** An active site of the organization (the standard's location). */
export function findSite(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ id: sites.id, orgId: sites.orgId, name: sites.name, address: sites.address, timeZone: sites.timeZone })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId), eq(sites.active, true)))
    .then((rows) => rows[0]);
}
export type SscSite = NonNullable<Awaited<ReturnType<typeof findSite>>>;

/** The site's active bays with what compatibility looks at. */
export function listSiteBays(db: Conn, site: { orgId: string; id: string }) {
  return db
    .select({ id: bays.id, heightClearanceM: bays.heightClearanceM, lengthM: bays.lengthM, features: bays.features })
    .from(bays)
    .where(and(eq(bays.orgId, site.orgId), eq(bays.siteId, site.id), eq(bays.active, true)));
}

const appointmentRow = {
  bookingId: bookings.id,
  status: bookings.status,
  siteId: bookings.siteId,
  bayId: bookings.bayId,
  bayName: bays.name,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  tsrNumber: bookings.tsrNumber,
  expectedDurationMin: bookings.expectedDurationMin,
  statusReason: bookings.statusReason,
  loadingType: sscAppointments.loadingType,
  equipmentType: sscAppointments.equipmentType,
  stopSequenceNumber: sscAppointments.stopSequenceNumber,
  poNumber: sscAppointments.poNumber,
  bolNumber: sscAppointments.bolNumber,
  lastReasonCode: sscAppointments.lastReasonCode,
  lastComment: sscAppointments.lastComment,
  requestedStartTime: sscAppointments.requestedStartTime,
};

export type AppointmentLookup =
  | { appointmentId: string }
  | { primaryReferenceNumber?: string; poNumber?: string; bolNumber?: string; stopSequenceNumber?: number; locationId?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tenant's bookings the identifiers name (at most 5, live ones first): by appointment id, or by
 * the load's references and the stop. Another tenant's or organization's bookings never match.
 */
export async function findAppointments(db: Conn, scope: { orgId: string; tenantId: string }, lookup: AppointmentLookup) {
  const where = [eq(bookings.orgId, scope.orgId), eq(bookings.tenantId, scope.tenantId)];
  if ('appointmentId' in lookup) {
    if (!UUID.test(lookup.appointmentId)) return [];
    where.push(eq(bookings.id, lookup.appointmentId));
  } else {
    if (lookup.primaryReferenceNumber !== undefined) where.push(eq(bookings.tsrNumber, lookup.primaryReferenceNumber));
    if (lookup.poNumber !== undefined) where.push(eq(sscAppointments.poNumber, lookup.poNumber));
    if (lookup.bolNumber !== undefined) where.push(eq(sscAppointments.bolNumber, lookup.bolNumber));
    if (lookup.stopSequenceNumber !== undefined) where.push(eq(sscAppointments.stopSequenceNumber, lookup.stopSequenceNumber));
    if (lookup.locationId !== undefined) {
      if (!UUID.test(lookup.locationId)) return [];
      where.push(eq(bookings.siteId, lookup.locationId));
    }
  }
  return db
    .select(appointmentRow)
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .leftJoin(sscAppointments, eq(sscAppointments.bookingId, bookings.id))
    .where(and(...where))
    .orderBy(statusIn(bookings.status, RELEASED_BOOKING_STATUSES), desc(bookings.startTime))
    .limit(5);
}
export type AppointmentRow = Awaited<ReturnType<typeof findAppointments>>[number];

export function insertSscAppointment(db: Conn, values: typeof sscAppointments.$inferInsert) {
  return db.insert(sscAppointments).values(values);
}

/**
 * The same row as insertSscAppointment writes, as the one-statement booking path takes it
 * (book-slot-fast.ts FastChannel: snake_case columns; booking_id and org_id come from the booking).
 */
export function sscAppointmentColumns(values: Omit<typeof sscAppointments.$inferInsert, 'bookingId' | 'orgId'>): Record<string, unknown> {
  const now = new Date();
  return {
    tenant_id: values.tenantId,
    api_key_id: values.apiKeyId ?? null,
    primary_reference_number: values.primaryReferenceNumber,
    po_number: values.poNumber ?? null,
    bol_number: values.bolNumber ?? null,
    stop_sequence_number: values.stopSequenceNumber ?? null,
    loading_type: values.loadingType,
    equipment_type: values.equipmentType,
    last_reason_code: values.lastReasonCode ?? null,
    last_comment: values.lastComment ?? null,
    created_at: (values.createdAt ?? now).toISOString(),
    updated_at: (values.updatedAt ?? now).toISOString(),
  };
}

/** Records the carrier's last reason and comment (and a new loading type); creates the row for a portal booking. */
export function upsertSscAppointment(db: Conn, values: typeof sscAppointments.$inferInsert) {
  return db
    .insert(sscAppointments)
    .values(values)
    .onConflictDoUpdate({
      target: sscAppointments.bookingId,
      // A move or a cancellation settles any reschedule awaiting the site (the values carry none);
      // a new request replaces the one before.
      set: {
        loadingType: values.loadingType,
        lastReasonCode: values.lastReasonCode ?? null,
        lastComment: values.lastComment ?? null,
        requestedStartTime: values.requestedStartTime ?? null,
        requestedDurationMin: values.requestedDurationMin ?? null,
        requestedLoadingType: values.requestedLoadingType ?? null,
        requestedAt: values.requestedAt ?? null,
        updatedAt: values.updatedAt,
      },
    });
}

// ---- Reschedule requests awaiting the site -------------------------------------------------------

/** The reschedule awaiting the site for one of the organization's bookings, if any. */
export async function findRescheduleRequest(db: Conn, scope: { orgId: string }, bookingId: string) {
  const [row] = await db
    .select({
      startTime: sscAppointments.requestedStartTime,
      durationMin: sscAppointments.requestedDurationMin,
      loadingType: sscAppointments.requestedLoadingType,
      requestedAt: sscAppointments.requestedAt,
      reasonCode: sscAppointments.lastReasonCode,
      comment: sscAppointments.lastComment,
    })
    .from(sscAppointments)
    .where(and(eq(sscAppointments.orgId, scope.orgId), eq(sscAppointments.bookingId, bookingId), isNotNull(sscAppointments.requestedStartTime)));
  if (!row?.startTime || row.durationMin === null || !row.requestedAt) return null;
  return { ...row, startTime: row.startTime, durationMin: row.durationMin, requestedAt: row.requestedAt, loadingType: row.loadingType ?? 'LIVE' };
}
export type RescheduleRequest = NonNullable<Awaited<ReturnType<typeof findRescheduleRequest>>>;

/** Settles the booking's reschedule request (accepted: the appointment takes the requested loading type). */
export function clearRescheduleRequest(db: Conn, scope: { orgId: string }, bookingId: string, now: Date, loadingType?: string) {
  return db
    .update(sscAppointments)
    .set({ requestedStartTime: null, requestedDurationMin: null, requestedLoadingType: null, requestedAt: null, updatedAt: now, ...(loadingType ? { loadingType } : {}) })
    .where(and(eq(sscAppointments.orgId, scope.orgId), eq(sscAppointments.bookingId, bookingId)));
}

// ---- Webhook subscriptions -----------------------------------------------------------------------

const subscriptionRow = {
  id: sscWebhookSubscriptions.id,
  eventTypes: sscWebhookSubscriptions.eventTypes,
  callbackUrl: sscWebhookSubscriptions.callbackUrl,
};

export function listSubscriptions(db: Conn, scope: { orgId: string; tenantId: string }) {
  return db
    .select(subscriptionRow)
    .from(sscWebhookSubscriptions)
    .where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.tenantId, scope.tenantId)))
    .orderBy(asc(sscWebhookSubscriptions.createdAt), asc(sscWebhookSubscriptions.id));
}

export function countSubscriptions(db: Conn, scope: { orgId: string; tenantId: string }) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(sscWebhookSubscriptions)
    .where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.tenantId, scope.tenantId)))
    .then((rows) => Number(rows[0]?.n ?? 0));
}

export function findSubscription(db: Conn, scope: { orgId: string; tenantId: string }, id: string) {
  if (!UUID.test(id)) return Promise.resolve(undefined);
  return db
    .select(subscriptionRow)
    .from(sscWebhookSubscriptions)
    .where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.tenantId, scope.tenantId), eq(sscWebhookSubscriptions.id, id)))
    .then((rows) => rows[0]);
}

export function insertSubscription(db: Conn, values: typeof sscWebhookSubscriptions.$inferInsert) {
  return db.insert(sscWebhookSubscriptions).values(values).returning(subscriptionRow).then((rows) => rows[0]!);
}

export function updateSubscription(db: Conn, scope: { orgId: string; tenantId: string }, id: string, values: Partial<typeof sscWebhookSubscriptions.$inferInsert>) {
  if (!UUID.test(id)) return Promise.resolve(undefined);
  return db
    .update(sscWebhookSubscriptions)
    .set(values)
    .where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.tenantId, scope.tenantId), eq(sscWebhookSubscriptions.id, id)))
    .returning(subscriptionRow)
    .then((rows) => rows[0]);
}

export function deleteSubscription(db: Conn, scope: { orgId: string; tenantId: string }, id: string) {
  if (!UUID.test(id)) return Promise.resolve(undefined);
  return db
    .delete(sscWebhookSubscriptions)
    .where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.tenantId, scope.tenantId), eq(sscWebhookSubscriptions.id, id)))
    .returning(subscriptionRow)
    .then((rows) => rows[0]);
}
