import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { isBayCompatible } from '../../../domain/availability';
import { HAULIER_CHANGEABLE_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { MAX_DURATION_MIN, MIN_DURATION_MIN } from '../../../domain/constants';
import { readOrgSettings } from '../../../domain/org-settings';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';
import { isMultiLineText, isSingleLineText, multiLineMessage, singleLineMessage } from '../../../domain/text-rules';
import {
  SSC_STOP_TYPES,
  argumentProblems,
  durationRangeDetail,
  durationToMinutes,
  minutesToDuration,
  parseAvailableAppointmentId,
  sscEquipmentSchema,
  vehicleOf,
  type SscAppointmentType,
  type SscCommonIdentifiers,
  type SscLoadingType,
  type SscRequestedAppointment,
} from '../../../domain/ssc';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { organizations } from '../../db/schema';
import { AppError } from '../../plugins/errors';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { writeAudit } from '../../audit/write-audit';
import { appointmentError, capabilityNotSupported, entityNotFound, invalidArgument, schemaViolation } from './ssc-errors';
import * as repo from './ssc.repo';

// What the SSC operations share (one file per operation: ssc-fetch-available.ts, ssc-schedule.ts,
// ssc-reschedule.ts, ssc-cancel.ts, ssc-details.ts; docs/ssc-mapping.md): the standard's request
// parsing and text rules, the key's tenant and location, the vehicle, the appointment the
// identifiers name, the requested slot, and the answer's appointment.


// The SSC appointment endpoints over our booking model (docs/ssc-mapping.md): the stop's location
// is a site; the equipment and loading type decide the vehicle, its bay features and how long the
// bay is held; the primary reference number is the booking's TSR number. Availability is the
// portal's day grid restricted to the site; a booking goes through the portal's own booking path
// (bay allocation, every availability rule, the no-overlap constraints, the tenant's policy), with
// source 'ssc' and the key as the audited actor.

const MINUTE_MS = 60_000;

export type Parsed<S extends z.ZodType> = z.output<S>;

export function parse<S extends z.ZodType>(schema: S, body: unknown): Parsed<S> {
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
export function requirePlainTexts(texts: Record<string, string | undefined>, multiLineKeys: readonly string[] = ['comment']) {
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

export function requirePlainIdentifiers(identifiers: Identifiers) {
  if ('appointmentId' in identifiers) return requirePlainTexts({ 'identifiers.appointmentId': identifiers.appointmentId });
  requirePlainTexts({
    'identifiers.primaryReferenceNumber': identifiers.primaryReferenceNumber,
    'identifiers.poNumber': identifiers.poNumber,
    'identifiers.bolNumber': identifiers.bolNumber,
    'identifiers.locationId': identifiers.locationId,
  });
}

export function equipmentOf(raw: unknown): Vehicle & { registration?: string } {
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

export function stopTypeOf(raw: unknown): 'delivery' | 'pickup' {
  if (raw === undefined) return 'delivery';
  if (typeof raw !== 'string' || !(SSC_STOP_TYPES as readonly string[]).includes(raw)) {
    throw invalidArgument('The stop type is not known', [{ key: 'stopType', detail: `stopType must be one of: ${SSC_STOP_TYPES.join(', ')}` }]);
  }
  return raw === 'PICKUP' ? 'pickup' : 'delivery';
}

/** An instant written in the site's own offset, as the standard's examples do. */
export function zoned(instant: Date, timeZone: string): string {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd'T'HH:mm:ssXXX");
}

export function locationOf(site: Pick<repo.SscSite, 'id' | 'address'>) {
  return { locationId: site.id, ...(site.address ? { locationAddress: { streetAddress: site.address } } : {}) };
}

export async function audit(ctx: AppContext, principal: ApiKeyPrincipal, action: string, details: Record<string, unknown>, ip: string | null, extra: { resourceType?: string; resourceId?: string; siteId?: string } = {}) {
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

export const keyDetails = (principal: ApiKeyPrincipal) => ({ source: 'ssc', api_key_id: principal.keyId, api_key_name: principal.keyName });

export async function keyTenant(ctx: AppContext, principal: ApiKeyPrincipal): Promise<repo.KeyTenant> {
  const tenant = await repo.findKeyTenant(ctx.database.db, principal.orgId, principal.tenantId);
  // The tenant was deleted after the key was made (the key goes with it: cascade); defensive.
  if (!tenant) throw new AppError(401, 'api_key_invalid', 'This API key is not valid');
  return tenant;
}

/** The location the key's tenant may use, or 404 for a site that is not the organization's (or not active). */
export async function siteFor(ctx: AppContext, principal: ApiKeyPrincipal, tenant: repo.KeyTenant, locationId: string | undefined, key = 'identifiers.locationId') {
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

export type Vehicle = ReturnType<typeof vehicleOf>;

/** No active bay of the site can ever take this vehicle (too tall, too long, missing features). */
export async function requireCompatibleBay(ctx: AppContext, site: repo.SscSite, vehicle: Vehicle) {
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
export async function isAutoApproved(db: Tx | AppContext['database']['db'], orgId: string, tenant: { autoApprove: boolean }) {
  if (tenant.autoApprove) return true;
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return !!org && readOrgSettings(org.settings).booking.autoApprove;
}

export function appointmentTypeOf(autoApproved: boolean): SscAppointmentType {
  return autoApproved ? 'AUTOMATIC' : 'DEFERRED';
}

/** The requested appointment type: we schedule at once or after review, never first-come-first-served or preset. */
export function checkAppointmentType(type: SscAppointmentType | undefined) {
  if (type === 'FCFS' || type === 'CARRIER_CONFIRMATION_REQUIRED') {
    throw capabilityNotSupported(`Appointment type ${type} is not offered: appointments are AUTOMATIC or DEFERRED (reviewed by the site)`);
  }
}

// ---- Finding an appointment ----------------------------------------------------------------------

export type Identifiers = SscCommonIdentifiers | { appointmentId: string };

/** The one appointment of the key's tenant the identifiers name: 404 when none, a clear refusal when several. */
export async function findOne(ctx: AppContext, principal: ApiKeyPrincipal, identifiers: Identifiers): Promise<repo.AppointmentRow> {
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

export function appointmentOf(row: { bookingId: string; startTime: Date; expectedDurationMin: number; bayId: string; bayName: string; loadingType: string | null }, timeZone: string) {
  return {
    id: row.bookingId,
    arrivalWindow: { startDateTime: zoned(row.startTime, timeZone), duration: minutesToDuration(row.expectedDurationMin) },
    dockDoor: { id: row.bayId, name: row.bayName },
    loadingType: (row.loadingType ?? 'LIVE') as SscLoadingType,
  };
}
export type Target = { siteId: string | null; date?: string; slot?: string; startInstant?: Date; durationMin: number | null; loadingType: SscLoadingType | undefined };

/** The requested appointment: an available appointment's id, or an arrival window. */
export function targetOf(preferred: SscRequestedAppointment): Target {
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
export function slotAt(target: Target, site: { timeZone: string }): { date: string; slot: string } {
  if (target.date && target.slot) return { date: target.date, slot: target.slot };
  const start = target.startInstant!;
  if (start.getTime() % MINUTE_MS !== 0) throw appointmentError('The arrival window must start on a whole minute of one of the site’s slots');
  return { date: localDateOf(start, site.timeZone), slot: localTimeOf(start, site.timeZone) };
}

const hoursText = (hours: number) => `${hours} hour${hours === 1 ? '' : 's'}`;

/** A status the carrier may still change, before the organization's cutoff. */
export async function requireChangeable(ctx: AppContext, db: Tx | AppContext['database']['db'], row: { status: string; startTime: Date }, orgId: string, siteName: string, verb: 'moved' | 'cancelled') {
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
