import { createHash, randomUUID } from 'node:crypto';
import { LIVE_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { SSC_LOADING_DURATION_MIN, appointmentStatusOf, confirmationNumberOf, sscScheduleRequestSchema, type SscLoadingType } from '../../../domain/ssc';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { loadLockKey, lockLoad } from '../bookings/load-lock';
import { orgRules } from '../bookings/org-rules';
import * as bookingRecords from '../bookings/booking-records';
import type { BookingChannel } from '../bookings/booking-submission';
import { submitChannelBookingFast } from '../bookings/public-booking-fast';
import { submitPublicBooking } from '../bookings/public-booking.service';
import {
  appointmentOf,
  equipmentOf,
  keyDetails,
  keyTenant,
  locationOf,
  parse,
  requireCompatibleBay,
  requirePlainTexts,
  siteFor,
  slotAt,
  stopTypeOf,
  targetOf,
  type Parsed,
  type Target,
  type Vehicle,
} from './ssc-common';
import { appointmentError, invalidArgument } from './ssc-errors';
import * as repo from './ssc.repo';

// schedule-appointment: through the portal's booking path (bay allocation, every availability
// rule, the no-overlap constraints, the tenant's policy), source 'ssc', the key as the audited
// actor; one live appointment per load, stop and location (docs/ssc-mapping.md).

/**
 * The registration of a truck the carrier does not name yet: unique to the request (so the vehicle
 * no-overlap rule never joins two of them), the same for a retry with the same Idempotency-Key.
 */
function placeholderRegistration(principal: ApiKeyPrincipal, idempotencyKey: string | undefined): string {
  const seed = idempotencyKey ? createHash('sha256').update(`${principal.tenantId}|${idempotencyKey}`).digest('hex') : randomUUID().replaceAll('-', '');
  return `SSC-${seed.slice(0, 12).toUpperCase()}`;
}

type ScheduleRequest = Parsed<typeof sscScheduleRequestSchema>;

/** What the booking path is given for an appointment: the booking request, the channel, its row and the response's facts. */
function appointmentBooking(
  principal: ApiKeyPrincipal,
  tenant: repo.KeyTenant,
  request: ScheduleRequest,
  site: { id: string },
  booking: { vehicle: Vehicle & { registration?: string }; bookingType: 'delivery' | 'pickup'; loadingType: SscLoadingType; durationMin: number; date: string; slot: string; contactEmail: string },
  idempotencyKey: string | undefined,
  now: Date,
) {
  const identifiers = request.identifiers;
  const { vehicle, loadingType } = booking;
  const reference = identifiers.primaryReferenceNumber!.trim();
  const references = [identifiers.poNumber && `PO ${identifiers.poNumber}`, identifiers.bolNumber && `BOL ${identifiers.bolNumber}`].filter(Boolean);
  const notes = [`Scheduled through the SSC API (key “${principal.keyName}”), ${loadingType === 'LIVE' ? 'live' : 'drop'} ${vehicle.equipmentType.toLowerCase().replace('_', ' ')}`, ...references, request.comment?.trim()].filter(Boolean).join(' · ');
  const appointment = {
    tenantId: tenant.id,
    apiKeyId: principal.keyId,
    primaryReferenceNumber: reference,
    poNumber: identifiers.poNumber ?? null,
    bolNumber: identifiers.bolNumber ?? null,
    stopSequenceNumber: identifiers.stopSequenceNumber ?? null,
    loadingType,
    equipmentType: vehicle.equipmentType,
    lastReasonCode: request.reasonCode ?? null,
    lastComment: request.comment ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const data = {
    orgId: principal.orgId,
    tsrNumber: reference,
    tenantName: tenant.name,
    contactName: tenant.contactName?.trim() || tenant.name,
    tenantEmail: booking.contactEmail,
    tenantPhone: tenant.phone,
    bookingType: booking.bookingType,
    date: booking.date,
    slot: booking.slot,
    expectedDurationMin: booking.durationMin,
    vehicleType: vehicle.vehicleType,
    // The carrier may not know the truck yet: a placeholder unique to the request, replaced at the gate.
    vehicleRegistration: vehicle.registration ?? placeholderRegistration(principal, idempotencyKey),
    vehicleHeightM: vehicle.heightM,
    vehicleLengthM: vehicle.lengthM ?? undefined,
    specialAccessNeeds: vehicle.needs,
    // The key's tenant answers for its drivers' induction and the site's terms (docs/ssc-mapping.md).
    driverInductionCompleted: true,
    termsAccepted: true,
    notes: notes.slice(0, 2000),
  };
  const channel: BookingChannel = {
    source: 'ssc',
    tenant: tenant.linked,
    siteId: site.id,
    actor: principal.auditActor,
    auditDetails: { ...keyDetails(principal), loading_type: loadingType, equipment_type: vehicle.equipmentType },
    onBooked: async (tx, booked) => {
      await repo.insertSscAppointment(tx, { ...appointment, bookingId: booked.id, orgId: booked.orgId });
    },
  };
  const lockKey = loadLockKey({ orgId: principal.orgId, tenantId: tenant.id, siteId: site.id, reference });
  return { reference, data, channel, appointment, lockKey };
}

/** The load's live appointment at the site and stop, if any: one per load and stop, a second is a reschedule. */
async function liveAppointmentOf(db: Tx | AppContext['database']['db'], principal: ApiKeyPrincipal, load: { reference: string; stopSequenceNumber: number | undefined; siteId: string }) {
  const existing = await repo.findAppointments(
    db,
    { orgId: principal.orgId, tenantId: principal.tenantId },
    { primaryReferenceNumber: load.reference, stopSequenceNumber: load.stopSequenceNumber, locationId: load.siteId },
  );
  return existing.find((row) => (LIVE_BOOKING_STATUSES as readonly string[]).includes(row.status));
}

const loadAlreadyBooked = (reference: string, siteName: string, bookingId: string) =>
  appointmentError(`Load ${reference} already has an appointment at ${siteName} (${bookingId}): reschedule or cancel it instead`);

/**
 * The one-statement path (submitChannelBookingFast): the location from the organization's cached
 * site rules, no day grid, no reads before the statement but the key's tenant. Null whenever it
 * cannot book, before or in the statement; scheduleAppointment then takes the full path, whose
 * checks answer with the standard's precise errors (the same as without this path).
 */
async function scheduleFast(
  ctx: AppContext,
  principal: ApiKeyPrincipal,
  tenant: repo.KeyTenant,
  request: ScheduleRequest,
  target: Target,
  locationId: string | undefined,
  idempotencyKey: string | undefined,
  ip: string | null,
) {
  const rules = locationId ? await orgRules(ctx.database, principal.orgId) : null;
  const site = rules?.sites.find((s) => s.id === locationId);
  const contactEmail = tenant.contactEmails[0] ?? tenant.email;
  if (!site || !contactEmail || (tenant.allowedSiteIds && !tenant.allowedSiteIds.includes(site.id))) return null;
  let booking;
  try {
    const loadingType = target.loadingType ?? 'LIVE';
    booking = {
      vehicle: equipmentOf(request.equipment),
      bookingType: stopTypeOf(request.stopType),
      loadingType,
      durationMin: target.durationMin ?? SSC_LOADING_DURATION_MIN[loadingType],
      ...slotAt(target, site),
      contactEmail,
    };
  } catch {
    return null; // refused by the full path, in its own order
  }
  const now = ctx.clock.now();
  const { reference, data, channel, appointment, lockKey } = appointmentBooking(principal, tenant, request, site, booking, idempotencyKey, now);
  const booked = await submitChannelBookingFast(ctx, {
    data,
    idempotencyKey,
    ip,
    channel,
    fast: { load: { reference, stopSequenceNumber: appointment.stopSequenceNumber, lockKey }, sscAppointment: repo.sscAppointmentColumns(appointment) },
  });
  if (!booked) return null;
  const location = { id: site.id, name: site.name, address: site.address ?? null, timeZone: site.timeZone };
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf({ bookingId: booked.id, startTime: booked.startTime, expectedDurationMin: booking.durationMin, bayId: booked.bayId, bayName: booked.bayName, loadingType: booking.loadingType }, site.timeZone),
    appointmentStatus: appointmentStatusOf(booked.status),
    appointmentConfirmationNumber: confirmationNumberOf(booked.id),
    ...locationOf(location),
  };
}

export async function scheduleAppointment(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, idempotencyKey: string | undefined, ip: string | null) {
  requireScope(principal, 'appointments:schedule');
  const request = parse(sscScheduleRequestSchema, body);
  const identifiers = request.identifiers;
  requirePlainTexts({
    'identifiers.primaryReferenceNumber': identifiers.primaryReferenceNumber,
    'identifiers.poNumber': identifiers.poNumber,
    'identifiers.bolNumber': identifiers.bolNumber,
    'identifiers.locationId': identifiers.locationId,
    reasonCode: request.reasonCode,
    comment: request.comment,
  });
  if (!identifiers.primaryReferenceNumber?.trim()) {
    throw invalidArgument('The load’s primary reference number is required', [
      { key: 'identifiers.primaryReferenceNumber', detail: 'primaryReferenceNumber is required: it is the booking’s TSR number' },
    ]);
  }
  const tenant = await keyTenant(ctx, principal);
  const target = targetOf(request.preferredAppointment);
  if (target.siteId && identifiers.locationId && target.siteId !== identifiers.locationId) {
    throw invalidArgument('The appointment is at another location', [{ key: 'preferredAppointment.id', detail: 'The available appointment is not at identifiers.locationId' }]);
  }
  const locationId = identifiers.locationId ?? target.siteId ?? undefined;
  const fast = await scheduleFast(ctx, principal, tenant, request, target, locationId, idempotencyKey, ip);
  if (fast) return fast;
  // The full path: every check in the standard's order, then the portal's full booking path.
  const site = await siteFor(ctx, principal, tenant, locationId);
  const vehicle = equipmentOf(request.equipment);
  const bookingType = stopTypeOf(request.stopType);
  const loadingType = target.loadingType ?? 'LIVE';
  const durationMin = target.durationMin ?? SSC_LOADING_DURATION_MIN[loadingType];
  const { date, slot } = slotAt(target, site);
  await requireCompatibleBay(ctx, site, vehicle);
  const reference = identifiers.primaryReferenceNumber.trim();
  const load = { reference, stopSequenceNumber: identifiers.stopSequenceNumber, siteId: site.id };
  /** The live appointment is this request's own, booked by an earlier try or a concurrent one with the same key (replayed). */
  const isOwn = async (db: Tx | AppContext['database']['db'], live: { bookingId: string }) =>
    !!idempotencyKey && (await bookingRecords.findByIdempotencyKey(db, principal.orgId, idempotencyKey))?.id === live.bookingId;
  const live = await liveAppointmentOf(ctx.database.db, principal, load);
  if (live && !(await isOwn(ctx.database.db, live))) throw loadAlreadyBooked(reference, site.name, live.bookingId);
  const contactEmail = tenant.contactEmails[0] ?? tenant.email;
  if (!contactEmail) throw appointmentError(`${tenant.name} has no contact e-mail at this organization: ask the site to add one`);
  const now = ctx.clock.now();
  const { data, channel, lockKey } = appointmentBooking(principal, tenant, request, site, { vehicle, bookingType, loadingType, durationMin, date, slot, contactEmail }, idempotencyKey, now);
  // Again under the load's lock, in the booking's transaction: a concurrent request for the load may have booked it since.
  const beforeBooking = async (tx: Tx) => {
    await lockLoad(tx, lockKey);
    const winner = await liveAppointmentOf(tx, principal, load);
    if (winner && !(await isOwn(tx, winner))) throw loadAlreadyBooked(reference, site.name, winner.bookingId);
  };
  const result = await submitPublicBooking(ctx, { data, documents: [], idempotencyKey, ip, channel: { ...channel, beforeBooking } });
  const booked = (await repo.findAppointments(ctx.database.db, { orgId: principal.orgId, tenantId: principal.tenantId }, { appointmentId: result.booking.id }))[0]!;
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(booked, site.timeZone),
    appointmentStatus: appointmentStatusOf(booked.status),
    appointmentConfirmationNumber: confirmationNumberOf(booked.bookingId),
    ...locationOf(site),
  };
}
