import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { z } from 'zod';
import { isBayCompatible } from '../../../domain/availability';
import { HAULIER_CHANGEABLE_STATUSES, LIVE_BOOKING_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../domain/constants';
import { addDays } from '../../../domain/day-notice';
import { readOrgSettings } from '../../../domain/org-settings';
import { localDateOf, localTimeOf, todayIn } from '../../../domain/slot-grid';
import { isMultiLineText, isSingleLineText, multiLineMessage, singleLineMessage } from '../../../domain/text-rules';
import {
  SSC_DEFAULT_RANGE_DAYS,
  SSC_LOADING_DURATION_MIN,
  SSC_MAX_RANGE_DAYS,
  appointmentStatusOf,
  argumentProblems,
  availableAppointmentId,
  confirmationNumberOf,
  durationRangeDetail,
  durationToMinutes,
  minutesToDuration,
  parseAvailableAppointmentId,
  sscCancelRequestSchema,
  sscDetailsRequestSchema,
  sscEquipmentSchema,
  sscFetchAvailableRequestSchema,
  sscRescheduleRequestSchema,
  sscScheduleRequestSchema,
  vehicleOf,
  type SscAppointmentType,
  type SscCommonIdentifiers,
  type SscLoadingType,
  type SscRequestedAppointment,
} from '../../../domain/ssc';
import { SSC_STOP_TYPES } from '../../../domain/ssc';
import { eq } from 'drizzle-orm';
import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { organizations } from '../../db/schema';
import { AppError } from '../../plugins/errors';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { writeAudit } from '../../audit/write-audit';
import { getDayAvailability } from '../availability/availability.service';
import { candidatesToMove, loadLockKey, lockLoad, orgRules } from '../bookings/allocate-bay';
import { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
import { queueBookingChangedMail } from '../bookings/booking-mail-queue';
import * as bookingRecords from '../bookings/booking-records';
import { afterCommit, applyTransitionInTx } from '../bookings/lifecycle.service';
import { submitChannelBookingFast, submitPublicBooking, type BookingChannel } from '../bookings/public-booking.service';
import { moveBookingInTx } from '../bookings/move-booking';
import { appointmentError, capabilityNotSupported, entityNotFound, invalidArgument, schemaViolation } from './ssc-errors';
import * as repo from './ssc.repo';

// The SSC appointment endpoints over our booking model (docs/ssc-mapping.md): the stop's location
// is a site; the equipment and loading type decide the vehicle, its bay features and how long the
// bay is held; the primary reference number is the booking's TSR number. Availability is the
// portal's day grid restricted to the site; a booking goes through the portal's own booking path
// (bay allocation, every availability rule, the no-overlap constraints, the tenant's policy), with
// source 'ssc' and the key as the audited actor.

const MINUTE_MS = 60_000;

type Parsed<S extends z.ZodType> = z.output<S>;

function parse<S extends z.ZodType>(schema: S, body: unknown): Parsed<S> {
  const result = schema.safeParse(body ?? undefined);
  if (!result.success) throw schemaViolation(argumentProblems(result.error, body));
  return result.data;
}

/** Our `equipment` extension: the vehicle our rules see, and its registration when the carrier knows it. */
const TEXT_MAX = 200;
const COMMENT_MAX = 2000;

/**
 * The texts we store or search with: no control characters (NUL is refused by PostgreSQL), no lone
 * surrogates or bidi overrides, bounded length; each problem listed. The standard allows any string,
 * so this is a refusal of a well-formed request (200).
 */
function requirePlainTexts(texts: Record<string, string | undefined>, multiLineKeys: readonly string[] = ['comment']) {
  const problems = Object.entries(texts).flatMap(([key, value]) => {
    if (value === undefined) return [];
    const isMulti = multiLineKeys.includes(key);
    const max = isMulti ? COMMENT_MAX : TEXT_MAX;
    if (!(isMulti ? isMultiLineText(value) : isSingleLineText(value))) return [{ key, detail: (isMulti ? multiLineMessage : singleLineMessage)(key) }];
    if (value.length > max) return [{ key, detail: `${key} must be at most ${max} characters` }];
    return [];
  });
  if (problems.length) throw invalidArgument('Some texts cannot be taken', problems);
}

function requirePlainIdentifiers(identifiers: Identifiers) {
  if ('appointmentId' in identifiers) return requirePlainTexts({ 'identifiers.appointmentId': identifiers.appointmentId });
  requirePlainTexts({
    'identifiers.primaryReferenceNumber': identifiers.primaryReferenceNumber,
    'identifiers.poNumber': identifiers.poNumber,
    'identifiers.bolNumber': identifiers.bolNumber,
    'identifiers.locationId': identifiers.locationId,
  });
}

function equipmentOf(raw: unknown): Vehicle & { registration?: string } {
  if (raw === undefined) return vehicleOf(undefined);
  const result = sscEquipmentSchema.safeParse(raw);
  if (!result.success) {
    throw invalidArgument(
      'The equipment cannot be taken',
      result.error.issues.map((issue) => ({ key: ['equipment', ...issue.path.map(String)].join('.'), detail: issue.message })),
    );
  }
  return { ...vehicleOf(result.data), registration: result.data.registration };
}

function stopTypeOf(raw: unknown): 'delivery' | 'pickup' {
  if (raw === undefined) return 'delivery';
  if (typeof raw !== 'string' || !(SSC_STOP_TYPES as readonly string[]).includes(raw)) {
    throw invalidArgument('The stop type is not known', [{ key: 'stopType', detail: `stopType must be one of: ${SSC_STOP_TYPES.join(', ')}` }]);
  }
  return raw === 'PICKUP' ? 'pickup' : 'delivery';
}

/** An instant written in the site's own offset, as the standard's examples do. */
function zoned(instant: Date, timeZone: string): string {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd'T'HH:mm:ssXXX");
}

function locationOf(site: Pick<repo.SscSite, 'id' | 'address'>) {
  return { locationId: site.id, ...(site.address ? { locationAddress: { streetAddress: site.address } } : {}) };
}

async function audit(ctx: AppContext, principal: ApiKeyPrincipal, action: string, details: Record<string, unknown>, ip: string | null, extra: { resourceType?: string; resourceId?: string; siteId?: string } = {}) {
  await writeAudit(ctx.database.db, {
    actor: principal.auditActor,
    action,
    resourceType: extra.resourceType ?? 'api_key',
    resourceId: extra.resourceId ?? principal.keyId,
    orgId: principal.orgId,
    siteId: extra.siteId ?? null,
    details: { ...keyDetails(principal), ...details },
    ip,
  });
}

const keyDetails = (principal: ApiKeyPrincipal) => ({ source: 'ssc', api_key_id: principal.keyId, api_key_name: principal.keyName });

async function keyTenant(ctx: AppContext, principal: ApiKeyPrincipal): Promise<repo.KeyTenant> {
  const tenant = await repo.findKeyTenant(ctx.database.db, principal.orgId, principal.tenantId);
  // The tenant was deleted after the key was made (the key goes with it: cascade); defensive.
  if (!tenant) throw new AppError(401, 'api_key_invalid', 'This API key is not valid');
  return tenant;
}

/** The location the key's tenant may use, or 404 for a site that is not the organization's (or not active). */
async function siteFor(ctx: AppContext, principal: ApiKeyPrincipal, tenant: repo.KeyTenant, locationId: string | undefined, key = 'identifiers.locationId') {
  if (locationId === undefined) {
    throw invalidArgument('The stop’s location is required', [{ key, detail: 'locationId is required: Baywise identifies the stop by its location (one of the organization’s sites)' }]);
  }
  const site = /^[0-9a-f-]{36}$/i.test(locationId) ? await repo.findSite(ctx.database.db, principal.orgId, locationId) : undefined;
  if (!site) throw entityNotFound(`No location ${locationId} is known`, { locationId });
  if (tenant.allowedSiteIds && !tenant.allowedSiteIds.includes(site.id)) {
    throw appointmentError(`${tenant.name} may not book at ${site.name}. Contact the site.`);
  }
  return site;
}

type Vehicle = ReturnType<typeof vehicleOf>;

/** No active bay of the site can ever take this vehicle (too tall, too long, missing features). */
async function requireCompatibleBay(ctx: AppContext, site: repo.SscSite, vehicle: Vehicle) {
  const siteBays = await repo.listSiteBays(ctx.database.db, site);
  const fits = siteBays.some((bay) =>
    isBayCompatible({ ...bay, active: true, siteActive: true }, { heightM: vehicle.heightM, lengthM: vehicle.lengthM, specialAccessNeeds: vehicle.needs }),
  );
  if (fits) return;
  const highest = Math.max(0, ...siteBays.map((bay) => bay.heightClearanceM));
  const reasons = [
    ...(siteBays.length && highest < vehicle.heightM ? [`the vehicle is ${vehicle.heightM} m tall and the highest clearance is ${highest} m`] : []),
    ...(vehicle.needs.length ? [`it needs ${vehicle.needs.join(', ')}`] : []),
  ];
  throw appointmentError(`No bay at ${site.name} can take this equipment${reasons.length ? `: ${reasons.join('; ')}` : ''}.`);
}

/** The tenant's auto-approve policy, else the organization's default. */
async function isAutoApproved(db: Tx | AppContext['database']['db'], orgId: string, tenant: { autoApprove: boolean }) {
  if (tenant.autoApprove) return true;
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return !!org && readOrgSettings(org.settings).booking.autoApprove;
}

function appointmentTypeOf(autoApproved: boolean): SscAppointmentType {
  return autoApproved ? 'AUTOMATIC' : 'DEFERRED';
}

/** The requested appointment type: we schedule at once or after review, never first-come-first-served or preset. */
function checkAppointmentType(type: SscAppointmentType | undefined) {
  if (type === 'FCFS' || type === 'CARRIER_CONFIRMATION_REQUIRED') {
    throw capabilityNotSupported(`Appointment type ${type} is not offered: appointments are AUTOMATIC or DEFERRED (reviewed by the site)`);
  }
}

// ---- fetch-available-appointments ----------------------------------------------------------------

export async function fetchAvailableAppointments(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'availability:read');
  const request = parse(sscFetchAvailableRequestSchema, body);
  const tenant = await keyTenant(ctx, principal);
  const identifiers = request.identifiers;
  if ('requestIdentifier' in identifiers) {
    throw capabilityNotSupported('Baywise answers synchronously: there are no pending requests to poll');
  }
  let site: repo.SscSite;
  let vehicle: Vehicle;
  let durationMin: number;
  let loadingType: SscLoadingType;
  let excludeBookingId: string | undefined;
  if ('appointmentId' in identifiers) {
    const appointment = await findOne(ctx, principal, identifiers);
    site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? (await siteFor(ctx, principal, tenant, appointment.siteId));
    const view = (await bookingRecords.findBookingView(ctx.database.db, { orgId: principal.orgId, id: appointment.bookingId }))!;
    vehicle = {
      equipmentType: (appointment.equipmentType ?? 'VAN') as Vehicle['equipmentType'],
      vehicleType: view.booking.vehicleType as Vehicle['vehicleType'],
      heightM: view.booking.vehicleHeightM,
      lengthM: view.booking.vehicleLengthM,
      needs: (view.booking.specialAccessNeeds ?? []) as Vehicle['needs'],
    };
    durationMin = appointment.expectedDurationMin;
    loadingType = (appointment.loadingType ?? 'LIVE') as SscLoadingType;
    excludeBookingId = appointment.bookingId;
  } else {
    site = await siteFor(ctx, principal, tenant, identifiers.locationId);
    vehicle = equipmentOf(request.equipment);
    loadingType = 'LIVE';
    durationMin = SSC_LOADING_DURATION_MIN[loadingType];
  }
  const now = ctx.clock.now();
  const today = todayIn(site.timeZone, now);
  const restriction = request.dateRestrictions;
  const [from, to] = !restriction
    ? [today, addDays(today, SSC_DEFAULT_RANGE_DAYS - 1)]
    : 'exactDate' in restriction
      ? [restriction.exactDate, restriction.exactDate]
      : [restriction.startDate, restriction.endDate];
  if (to < from) throw invalidArgument('The date range ends before it starts', [{ key: 'dateRestrictions.endDate', detail: 'endDate must not be before startDate' }]);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > SSC_MAX_RANGE_DAYS) {
    throw invalidArgument('The date range is too long', [{ key: 'dateRestrictions', detail: `Ask for at most ${SSC_MAX_RANGE_DAYS} days at a time` }]);
  }
  await requireCompatibleBay(ctx, site, vehicle);
  const appointmentType = appointmentTypeOf(await isAutoApproved(ctx.database.db, principal.orgId, tenant));
  const appointments = [];
  // Past days offer nothing; the portal's grid decides every other rule (hours, advance, horizon, blackouts, free bays).
  for (let date = from < today ? today : from; date <= to; date = addDays(date, 1)) {
    const day = await getDayAvailability(
      ctx.database.db,
      { orgId: principal.orgId, date, durationMin, vehicleHeightM: vehicle.heightM, vehicleLengthM: vehicle.lengthM, specialAccessNeeds: vehicle.needs },
      now,
      { excludeBookingId },
    );
    for (const slot of day.slots) {
      const here = slot.candidates.find((candidate) => candidate.siteId === site.id);
      if (!slot.bookable || !here) continue;
      appointments.push({
        id: availableAppointmentId({ siteId: site.id, date, slot: slot.time, durationMin }),
        appointmentType,
        arrivalWindow: { startDateTime: zoned(here.start, site.timeZone), duration: minutesToDuration(durationMin) },
        loadingType,
      });
    }
  }
  await audit(ctx, principal, 'ssc.availability_fetched', { location_id: site.id, from, to, offered: appointments.length }, ip, { siteId: site.id });
  return { status: 'SUCCESS' as const, appointments, ...locationOf(site) };
}

// ---- Finding an appointment ----------------------------------------------------------------------

type Identifiers = SscCommonIdentifiers | { appointmentId: string };

/** The one appointment of the key's tenant the identifiers name: 404 when none, a clear refusal when several. */
async function findOne(ctx: AppContext, principal: ApiKeyPrincipal, identifiers: Identifiers): Promise<repo.AppointmentRow> {
  requirePlainIdentifiers(identifiers);
  const scope = { orgId: principal.orgId, tenantId: principal.tenantId };
  let lookup: repo.AppointmentLookup;
  if ('appointmentId' in identifiers) lookup = { appointmentId: identifiers.appointmentId };
  else {
    const { primaryReferenceNumber, poNumber, bolNumber, stopSequenceNumber, locationId } = identifiers;
    if (primaryReferenceNumber === undefined && poNumber === undefined && bolNumber === undefined) {
      throw invalidArgument('Name the appointment', [{ key: 'identifiers', detail: 'Send appointmentId, or the load’s primaryReferenceNumber, poNumber or bolNumber' }]);
    }
    lookup = { primaryReferenceNumber, poNumber, bolNumber, stopSequenceNumber, locationId };
  }
  const rows = await repo.findAppointments(ctx.database.db, scope, lookup);
  if (rows.length === 0) throw entityNotFound('No appointment matches these identifiers', 'appointmentId' in identifiers ? undefined : { ...identifiers });
  const live = rows.filter((row) => !(RELEASED_BOOKING_STATUSES as readonly string[]).includes(row.status));
  if (live.length > 1) {
    throw invalidArgument('Several appointments match these identifiers', [
      { key: 'identifiers', detail: `${live.length} appointments match: send appointmentId (or stopSequenceNumber and locationId)` },
    ]);
  }
  return live[0] ?? rows[0]!;
}

function appointmentOf(row: { bookingId: string; startTime: Date; expectedDurationMin: number; bayId: string; bayName: string; loadingType: string | null }, timeZone: string) {
  return {
    id: row.bookingId,
    arrivalWindow: { startDateTime: zoned(row.startTime, timeZone), duration: minutesToDuration(row.expectedDurationMin) },
    dockDoor: { id: row.bayId, name: row.bayName },
    loadingType: (row.loadingType ?? 'LIVE') as SscLoadingType,
  };
}

// ---- schedule-appointment ------------------------------------------------------------------------

type Target = { siteId: string | null; date?: string; slot?: string; startInstant?: Date; durationMin: number | null; loadingType: SscLoadingType | undefined };

/** The requested appointment: an available appointment's id, or an arrival window. */
function targetOf(preferred: SscRequestedAppointment): Target {
  checkAppointmentType(preferred.appointmentType);
  if ('id' in preferred) {
    const key = parseAvailableAppointmentId(preferred.id);
    if (!key) throw invalidArgument('Unknown available appointment', [{ key: 'preferredAppointment.id', detail: 'Use the id of an appointment from fetch-available-appointments' }]);
    return { siteId: key.siteId, date: key.date, slot: key.slot, durationMin: key.durationMin, loadingType: preferred.loadingType };
  }
  const minutes = durationToMinutes(preferred.arrivalWindow.duration);
  if (minutes === null || minutes < MIN_DURATION_MIN || minutes > MAX_DURATION_MIN) {
    throw invalidArgument(durationRangeDetail, [{ key: 'preferredAppointment.arrivalWindow.duration', detail: durationRangeDetail }]);
  }
  return { siteId: null, startInstant: new Date(preferred.arrivalWindow.startDateTime), durationMin: minutes, loadingType: preferred.loadingType };
}

/** The target's local date and slot at the site; a start between slots is refused. */
function slotAt(target: Target, site: { timeZone: string }): { date: string; slot: string } {
  if (target.date && target.slot) return { date: target.date, slot: target.slot };
  const start = target.startInstant!;
  if (start.getTime() % MINUTE_MS !== 0) throw appointmentError('The arrival window must start on a whole minute of one of the site’s slots');
  return { date: localDateOf(start, site.timeZone), slot: localTimeOf(start, site.timeZone) };
}

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

// ---- reschedule-appointment ----------------------------------------------------------------------

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/** A status the carrier may still change, before the organization's cutoff. */
async function requireChangeable(ctx: AppContext, db: Tx | AppContext['database']['db'], row: { status: string; startTime: Date }, orgId: string, siteName: string, verb: 'moved' | 'cancelled') {
  const now = ctx.clock.now();
  if (!(HAULIER_CHANGEABLE_STATUSES as readonly string[]).includes(row.status) || row.startTime <= now) {
    throw appointmentError(`This appointment can no longer be ${verb} (status: ${row.status})`);
  }
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  const cutoff = readOrgSettings(org?.settings).booking.cancellationCutoffHours;
  if (row.startTime.getTime() - cutoff * 3_600_000 <= now.getTime()) {
    throw appointmentError(`Appointments cannot be cancelled or changed less than ${hoursText(cutoff)} before their start. Please contact ${siteName} directly.`);
  }
}

export async function rescheduleAppointment(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'appointments:reschedule');
  const request = parse(sscRescheduleRequestSchema, body);
  requirePlainTexts({ reasonCode: request.reasonCode, comment: request.comment });
  const tenant = await keyTenant(ctx, principal);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId))!;
  const target = targetOf(request.preferredAppointment);
  if (target.siteId && target.siteId !== site.id) {
    throw invalidArgument('An appointment stays at its location', [{ key: 'preferredAppointment.id', detail: 'The available appointment is at another location: cancel and schedule there instead' }]);
  }
  const loadingType = target.loadingType ?? ((appointment.loadingType ?? 'LIVE') as SscLoadingType);
  const durationMin = target.durationMin ?? appointment.expectedDurationMin;
  const { date, slot } = slotAt(target, site);
  const now = ctx.clock.now();
  const moved = await ctx.database.db.transaction(async (tx) => {
    const view = (await bookingRecords.findBookingView(tx, { orgId: principal.orgId, id: appointment.bookingId }, true))!;
    const b = view.booking;
    await requireChangeable(ctx, tx, b, b.orgId, site.name, 'moved');
    const candidates = (await candidatesToMove(tx, now, { ...b, expectedDurationMin: durationMin }, { date, slot })).filter((c) => c.siteId === site.id);
    if (candidates.length === 0) throw appointmentError(NO_AVAILABLE_BAY);
    const autoApproved = await isAutoApproved(tx, b.orgId, tenant);
    // The lifecycle's move for a carrier: the tenant's policy decides again (approved at once, or reviewed by the site).
    await moveBookingInTx(tx, now, {
      current: view,
      candidates,
      mover: 'carrier',
      policyApproves: autoApproved,
      expectedDurationMin: durationMin,
      afterMove: (tx2) =>
        repo.upsertSscAppointment(tx2, {
          bookingId: b.id,
          orgId: b.orgId,
          tenantId: tenant.id,
          apiKeyId: principal.keyId,
          primaryReferenceNumber: b.tsrNumber,
          loadingType,
          equipmentType: appointment.equipmentType ?? 'VAN',
          lastReasonCode: request.reasonCode ?? null,
          lastComment: request.comment ?? null,
          updatedAt: now,
        }).then(() => undefined),
      audit: {
        actor: principal.auditActor,
        details: {
          ...keyDetails(principal),
          from: b.startTime.toISOString(),
          duration_min: durationMin,
          reason_code: request.reasonCode ?? null,
          comment: request.comment ?? null,
        },
        ip,
      },
      mailReason: request.comment ?? null,
    });
    return b.id;
  });
  const view = (await bookingRecords.findBookingView(ctx.database.db, { orgId: principal.orgId, id: moved }))!;
  afterCommit(ctx, view, 'rescheduled');
  const row = (await repo.findAppointments(ctx.database.db, { orgId: principal.orgId, tenantId: principal.tenantId }, { appointmentId: moved }))[0]!;
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(row, site.timeZone),
    appointmentStatus: appointmentStatusOf(row.status),
    appointmentConfirmationNumber: confirmationNumberOf(row.bookingId),
    ...locationOf(site),
  };
}

// ---- cancel-appointment --------------------------------------------------------------------------

export async function cancelAppointment(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'appointments:cancel');
  const request = parse(sscCancelRequestSchema, body);
  requirePlainTexts({ reasonCode: request.reasonCode, comment: request.comment });
  const tenant = await keyTenant(ctx, principal);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? { name: 'the site' };
  const now = ctx.clock.now();
  const reason = [request.reasonCode, request.comment].filter((part) => part?.trim()).join(': ') || 'Cancelled by the carrier (SSC API)';
  const result = await ctx.database.db.transaction(async (tx) => {
    const view = (await bookingRecords.findBookingView(tx, { orgId: principal.orgId, id: appointment.bookingId }, true))!;
    await requireChangeable(ctx, tx, view.booking, view.booking.orgId, site.name, 'cancelled');
    const moved = await applyTransitionInTx(
      ctx,
      tx,
      { bookingId: view.booking.id, orgId: principal.orgId, to: 'cancelled', reason: reason.slice(0, 500), details: keyDetails(principal) },
      { kind: 'haulier', user: principal.auditActor, ip },
    );
    await repo.upsertSscAppointment(tx, {
      bookingId: view.booking.id,
      orgId: view.booking.orgId,
      tenantId: tenant.id,
      apiKeyId: principal.keyId,
      primaryReferenceNumber: view.booking.tsrNumber,
      loadingType: appointment.loadingType ?? 'LIVE',
      equipmentType: appointment.equipmentType ?? 'VAN',
      lastReasonCode: request.reasonCode ?? null,
      lastComment: request.comment ?? null,
      updatedAt: now,
    });
    await queueBookingChangedMail(tx, now, view.booking, 'cancelled');
    return moved.view;
  });
  afterCommit(ctx, result, 'cancelled');
  return { status: 'SUCCESS' as const };
}

// ---- fetch-appointment-details -------------------------------------------------------------------

export async function fetchAppointmentDetails(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'availability:read');
  const request = parse(sscDetailsRequestSchema, body);
  const appointment = await findOne(ctx, principal, request.identifiers);
  const site = (await repo.findSite(ctx.database.db, principal.orgId, appointment.siteId)) ?? null;
  const timeZone = site?.timeZone ?? 'UTC';
  await audit(ctx, principal, 'ssc.appointment_viewed', { booking_id: appointment.bookingId }, ip, { resourceType: 'booking', resourceId: appointment.bookingId, siteId: appointment.siteId });
  return {
    status: 'SUCCESS' as const,
    appointment: appointmentOf(appointment, timeZone),
    appointmentConfirmationNumber: confirmationNumberOf(appointment.bookingId),
    appointmentStatus: appointmentStatusOf(appointment.status),
    ...(appointment.lastReasonCode ? { mostRecentReasonCode: appointment.lastReasonCode } : {}),
    ...(appointment.lastComment ?? appointment.statusReason ? { mostRecentComment: (appointment.lastComment ?? appointment.statusReason)! } : {}),
    ...(site ? locationOf(site) : { locationId: appointment.siteId }),
  };
}
