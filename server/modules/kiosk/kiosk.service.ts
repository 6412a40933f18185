import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { LOGO_BUCKET } from '../../../domain/constants';
import { normalizeArrivalCode } from '../../../domain/arrival-code';
import { BOOKING_STATUS_LABELS } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import type { GateMoveResponse, walkInSchema } from '../../../domain/gate';
import {
  KIOSK_LOOKUP_DAYS_AFTER,
  KIOSK_LOOKUP_DAYS_BEFORE,
  MAX_ACTIVE_KIOSKS_PER_SITE,
  isBookingType,
  type CreatedKioskDevice,
  type KioskBookingStatus,
  type KioskCheckInResult,
  type KioskDevice as KioskDeviceView,
  type KioskMe,
  type KioskRefusal,
  type WalkInRequest,
  type declineWalkInRequestSchema,
  type kioskCheckInSchema,
  type kioskDeviceCreateSchema,
  type kioskWalkInRequestSchema,
} from '../../../domain/kiosk';
import { canonicalPlate } from '../../../domain/plate-match';
import { localDateOf, localTimeOf, todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { writeAudit } from '../../audit/write-audit';
import { AppError, badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { arrivalCodeFor } from '../bookings/arrival-code';
import type { GateActor } from '../gate/gate-actions';
import { checkIn } from '../gate/gate-moves';
import { requireStaff } from '../gate/gate-rules';
import { walkIn } from '../gate/gate-walk-in';
import { newKioskSecret, type KioskDevice } from './kiosk-devices';
import * as repo from './kiosk.repo';

// The gate kiosk (issue 26, decision 041). Admins register devices (audited, like camera tokens).
// A device checks in the bookings of its own site only, through the gate's own check-in (same
// window, same one-visit-per-vehicle and stopped-site rules, published and audited the same way,
// as the lifecycle's `system` actor with the device in the audit details); unknown trucks leave a
// walk-in request that dock staff accept (the gate's walk-in, which picks the bay) or decline.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
/** Pending requests older than this are no longer shown (the truck has long gone or been handled at the gate house). */
const REQUEST_SHOWN_MS = 12 * 3_600_000;
/** A second request for the same plate within this time is the same request (a double tap, a retry). */
const REQUEST_DEDUP_MS = 30 * 60_000;
const ON_SITE: readonly BookingStatus[] = ['checked_in', 'in_progress', 'overstay'];
const AT_BAY: readonly BookingStatus[] = ['in_progress', 'overstay'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function publishRequest(ctx: AppContext, site: { orgId: string; siteId: string }, id: string, action: string) {
  ctx.realtime?.publish({ entity: 'walk_in_request', action, id, orgId: site.orgId, siteId: site.siteId, at: ctx.clock.now().toISOString() });
}

// ---- Devices (org settings) ----------------------------------------------------------------------

type DeviceRow = NonNullable<Awaited<ReturnType<typeof repo.findDeviceById>>>;
const toDevice = (d: DeviceRow): KioskDeviceView => ({
  id: d.id,
  name: d.name,
  siteId: d.siteId,
  siteName: d.siteName,
  hint: d.hint,
  createdAt: d.createdAt.toISOString(),
  createdByEmail: d.createdByEmail,
  lastUsedAt: iso(d.lastUsedAt),
  revokedAt: iso(d.revokedAt),
});

export async function listDevices(ctx: AppContext, scope: OrgScope): Promise<KioskDeviceView[]> {
  requireOrgAdmin(scope);
  return (await repo.listDevices(ctx.database.db, scope.orgId)).map(toDevice);
}

const SITE_REQUIRED = 'Choose one of this organization’s sites';

export async function createDevice(ctx: AppContext, scope: OrgScope, input: z.output<typeof kioskDeviceCreateSchema>, ip: string | null): Promise<CreatedKioskDevice> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const { secret, hash, hint } = newKioskSecret();
  const created = await ctx.database.db.transaction(async (tx) => {
    const site = UUID.test(input.siteId) ? await repo.findSite(tx, scope.orgId, input.siteId) : undefined;
    if (!site) throw badRequest(SITE_REQUIRED, [{ path: 'siteId', message: SITE_REQUIRED }]);
    if (!site.active) throw badRequest('This site is archived', [{ path: 'siteId', message: 'This site is archived' }]);
    if ((await repo.countActiveDevices(tx, scope.orgId, site.id)) >= MAX_ACTIVE_KIOSKS_PER_SITE) {
      throw conflict('too_many_kiosks', `A site can have at most ${MAX_ACTIVE_KIOSKS_PER_SITE} active kiosks. Revoke one first.`);
    }
    const { id } = await repo.insertDevice(tx, { orgId: scope.orgId, siteId: site.id, name: input.name, tokenHash: hash, tokenHint: hint, createdBy: scope.userId, createdAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'kiosk_device.created',
      resourceType: 'kiosk_device',
      resourceId: id,
      orgId: scope.orgId,
      siteId: site.id,
      // Never the secret: only what tells the device apart.
      details: { before: null, after: { name: input.name, site: site.name, hint } },
      ip,
    });
    return (await repo.findDeviceById(tx, scope.orgId, id))!;
  });
  ctx.realtime?.publish({ entity: 'organization', action: 'kiosk_device_created', id: scope.orgId, orgId: scope.orgId, siteId: created.siteId, at: now.toISOString() });
  return { ...toDevice(created), secret };
}

/** Revokes at once: the device's next call is refused. Revoking a revoked device changes nothing. */
export async function revokeDevice(ctx: AppContext, scope: OrgScope, deviceId: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  if (!UUID.test(deviceId)) throw notFound('Kiosk');
  const now = ctx.clock.now();
  const revoked = await ctx.database.db.transaction(async (tx) => {
    const device = await repo.revokeDevice(tx, scope.orgId, deviceId, now);
    if (!device) {
      if (!(await repo.findDeviceById(tx, scope.orgId, deviceId))) throw notFound('Kiosk');
      return null;
    }
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'kiosk_device.revoked',
      resourceType: 'kiosk_device',
      resourceId: device.id,
      orgId: scope.orgId,
      siteId: device.siteId,
      details: { before: { name: device.name, hint: device.hint, revokedAt: null }, after: { name: device.name, hint: device.hint, revokedAt: now.toISOString() } },
      ip,
    });
    return device;
  });
  if (revoked) ctx.realtime?.publish({ entity: 'organization', action: 'kiosk_device_revoked', id: scope.orgId, orgId: scope.orgId, siteId: revoked.siteId, at: now.toISOString() });
}

// ---- The kiosk itself ----------------------------------------------------------------------------

export function kioskMe(device: KioskDevice): KioskMe {
  return { deviceName: device.name, siteName: device.siteName, timeZone: device.timeZone, orgName: device.orgName, defaultLanguage: device.defaultLanguage, hasLogo: !!device.logoKey && !!device.logoContentType };
}

export async function kioskLogo(ctx: AppContext, device: KioskDevice) {
  if (!device.logoKey || !device.logoContentType) throw notFound('Logo');
  const body = await ctx.storage.get(LOGO_BUCKET, device.logoKey);
  if (!body) throw notFound('Logo');
  return { body, contentType: device.logoContentType };
}

/** The gate actor of a kiosk: it checks in as the lifecycle's `system` (as a site camera does), the device named in the audit. */
function kioskActor(device: KioskDevice, ip: string | null): GateActor {
  return { orgId: device.orgId, siteId: device.siteId, role: 'camera', auditActor: null, ip, details: { kiosk_device_id: device.id, kiosk: device.name } };
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The site's bookings a kiosk may find: from a few days before its today to a month ahead. */
function lookupRange(device: KioskDevice, now: Date) {
  const today = todayIn(device.timeZone, now);
  return {
    today,
    from: zonedTimeToUtc(addDays(today, -KIOSK_LOOKUP_DAYS_BEFORE), 0, device.timeZone),
    to: zonedTimeToUtc(addDays(today, KIOSK_LOOKUP_DAYS_AFTER + 1), 0, device.timeZone),
  };
}

const NOT_FOUND_CODE = 'We could not find a booking at this site with that code. Check the code, or type your vehicle registration.';
const NOT_FOUND_PLATE = 'We could not find a booking at this site for that vehicle today. Check the registration, or register as a walk-in.';

/** Which of several bookings of one plate today the driver means: the one on site, else the nearest in time that is still to come. */
function bestOfPlate(rows: repo.KioskBookingRow[], now: Date): repo.KioskBookingRow | undefined {
  const rank = (r: repo.KioskBookingRow) => {
    const status = r.status as BookingStatus;
    if (ON_SITE.includes(status)) return 0;
    if (status === 'approved' || status === 'pending') return 1;
    return 2;
  };
  return [...rows].sort((a, b) => rank(a) - rank(b) || Math.abs(a.startTime.getTime() - now.getTime()) - Math.abs(b.startTime.getTime() - now.getTime()))[0];
}

async function findForCheckIn(ctx: AppContext, device: KioskDevice, input: z.output<typeof kioskCheckInSchema>) {
  const now = ctx.clock.now();
  const { today, from, to } = lookupRange(device, now);
  const rows = await repo.listSiteBookings(ctx.database.db, device, from, to);
  if (input.code) {
    const code = normalizeArrivalCode(input.code);
    if (!code) {
      const message = 'That is not an arrival code: it has 8 letters and digits, like K7M2-9QXD.';
      throw badRequest(message, [{ path: 'code', message }]);
    }
    const row = rows.find((r) => arrivalCodeFor(ctx.authSecret, r.id) === code);
    if (!row) throw new AppError(404, 'kiosk_booking_not_found', NOT_FOUND_CODE);
    return row;
  }
  const plate = canonicalPlate(input.plate ?? '');
  if (plate.length < 2) {
    const message = 'Type your vehicle registration';
    throw badRequest(message, [{ path: 'plate', message }]);
  }
  const row = bestOfPlate(
    rows.filter((r) => localDateOf(r.startTime, device.timeZone) === today && canonicalPlate(r.vehicleRegistration) === plate),
    now,
  );
  if (!row) throw new AppError(404, 'kiosk_booking_not_found', NOT_FOUND_PLATE);
  return row;
}

const dayFormat = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone });

/** The refusal of a check-in outside its window, for the driver: when it opens or closed, and what to do. */
function windowRefusal(device: KioskDevice, row: repo.KioskBookingRow, now: Date, details: { opensAt?: string | null; closesAt?: string | null }) {
  const tz = device.timeZone;
  const opensAt = details.opensAt ? new Date(details.opensAt) : null;
  const closesAt = details.closesAt ? new Date(details.closesAt) : null;
  if (opensAt && now < opensAt) {
    const isOtherDay = localDateOf(row.startTime, tz) !== localDateOf(now, tz);
    const slot = `${localTimeOf(row.startTime, tz)}`;
    return {
      reason: 'too_early' as const,
      opensAt: opensAt.toISOString(),
      message: isOtherDay
        ? `Your booking is on ${dayFormat(tz).format(row.startTime)} at ${slot}. Check-in opens at ${localTimeOf(opensAt, tz)} that day.`
        : `Too early: check-in opens at ${localTimeOf(opensAt, tz)} (your slot is at ${slot}).`,
      action: isOtherDay ? 'Please come back on the day of your booking, or report to the gate house.' : 'Please wait in the lorry park and check in again then.',
    };
  }
  return {
    reason: 'too_late' as const,
    closesAt: closesAt ? closesAt.toISOString() : null,
    message: `Too late: check-in for your ${localTimeOf(row.startTime, tz)} slot closed${closesAt ? ` at ${localTimeOf(closesAt, tz)}` : ''}.`,
    action: 'Please report to the gate house.',
  };
}

async function answerFor(ctx: AppContext, device: KioskDevice, row: repo.KioskBookingRow): Promise<KioskCheckInResult> {
  const facts = { bookingId: row.id, vehicleRegistration: row.vehicleRegistration, tsrNumber: row.tsrNumber, startTime: row.startTime.toISOString() };
  const status = row.status as BookingStatus;
  if (AT_BAY.includes(status)) return { outcome: 'go_to_bay', ...facts, bayName: row.bayName };
  if (status === 'checked_in') {
    const position = await repo.queuePosition(ctx.database.db, device, { id: row.id, checkedInAt: row.checkedInAt ?? ctx.clock.now(), startTime: row.startTime });
    return { outcome: 'wait', ...facts, bayName: row.bayName, position };
  }
  return { outcome: 'refused', ...facts, ...refusalOfStatus(status) };
}

function refusalOfStatus(status: BookingStatus): { reason: KioskRefusal; message: string; action: string; status: BookingStatus } {
  if (status === 'pending') {
    return { reason: 'not_approved', status, message: 'Your booking has not been approved yet.', action: 'Please report to the gate house.' };
  }
  return { reason: 'not_active', status, message: `This booking is ${BOOKING_STATUS_LABELS[status].toLowerCase()}: it cannot be checked in.`, action: 'Please report to the gate house.' };
}

/**
 * A driver checks in at the kiosk by arrival code or plate: an approved booking goes through the
 * gate's check-in (its rules, audit and live events); the answer is where to go or why not.
 */
export async function kioskCheckIn(ctx: AppContext, device: KioskDevice, input: z.output<typeof kioskCheckInSchema>, ip: string | null): Promise<KioskCheckInResult> {
  const row = await findForCheckIn(ctx, device, input);
  const facts = { bookingId: row.id, vehicleRegistration: row.vehicleRegistration, tsrNumber: row.tsrNumber, startTime: row.startTime.toISOString() };
  if (row.status === 'approved') {
    try {
      await checkIn(ctx, kioskActor(device, ip), row.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const now = ctx.clock.now();
      if (error.code === 'outside_check_in_window') {
        return { outcome: 'refused', ...facts, ...windowRefusal(device, row, now, (error.details ?? {}) as { opensAt?: string; closesAt?: string }) };
      }
      if (error.code === 'vehicle_on_site') {
        return { outcome: 'refused', ...facts, reason: 'vehicle_on_site', message: `Vehicle ${row.vehicleRegistration} is already checked in on another booking.`, action: 'Please report to the gate house.' };
      }
      if (error.code === 'site_emergency') {
        return { outcome: 'refused', ...facts, reason: 'site_stopped', siteName: device.siteName, message: `Operations at ${device.siteName} are stopped for an emergency.`, action: 'Please wait in the lorry park and follow the staff’s instructions.' };
      }
      if (error.code !== 'stale_version' && error.statusCode !== 409) throw error;
      // Moved meanwhile (checked in at the gate house a moment ago): answer what it is now.
    }
  }
  const current = await repo.findSiteBooking(ctx.database.db, device, row.id);
  if (!current) throw new AppError(404, 'kiosk_booking_not_found', NOT_FOUND_CODE);
  return answerFor(ctx, device, current);
}

/** The status of a booking of the kiosk's site (its place in the queue while it waits). */
export async function kioskBookingStatus(ctx: AppContext, device: KioskDevice, bookingId: string): Promise<KioskBookingStatus> {
  const row = UUID.test(bookingId) ? await repo.findSiteBooking(ctx.database.db, device, bookingId) : undefined;
  if (!row) throw notFound('Booking');
  const status = row.status as BookingStatus;
  const position =
    status === 'checked_in' ? await repo.queuePosition(ctx.database.db, device, { id: row.id, checkedInAt: row.checkedInAt ?? ctx.clock.now(), startTime: row.startTime }) : null;
  return { bookingId: row.id, status, position, bayName: row.bayName };
}

// ---- Walk-in requests ------------------------------------------------------------------------------

/** An unknown truck registers at the kiosk: a pending request on the dock screens (the same plate again soon is the same request). */
export async function createWalkInRequest(ctx: AppContext, device: KioskDevice, input: z.output<typeof kioskWalkInRequestSchema>, ip: string | null) {
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const pending = await repo.listPendingRequests(tx, device, new Date(now.getTime() - REQUEST_DEDUP_MS));
    const same = pending.find((r) => canonicalPlate(r.vehicleRegistration) === canonicalPlate(input.plate));
    if (same) return { requestId: same.id, status: 'pending' as const, isNew: false };
    const id = randomUUID();
    await repo.insertRequest(tx, {
      id,
      orgId: device.orgId,
      siteId: device.siteId,
      deviceId: device.id,
      vehicleRegistration: input.plate,
      companyName: input.company,
      driverName: input.driverName ?? null,
      driverPhone: input.phone ?? null,
      bookingType: input.bookingType,
      createdAt: now,
    });
    await writeAudit(tx, {
      actor: null,
      anonymousRole: 'public',
      action: 'walk_in_request.created',
      resourceType: 'walk_in_request',
      resourceId: id,
      orgId: device.orgId,
      siteId: device.siteId,
      details: { vehicle_registration: input.plate, company: input.company, kiosk_device_id: device.id, kiosk: device.name },
      ip,
    });
    return { requestId: id, status: 'pending' as const, isNew: true };
  });
  if (result.isNew) publishRequest(ctx, device, result.requestId, 'created');
  return { requestId: result.requestId, status: result.status };
}

const toRequest = (r: repo.WalkInRequestRow): WalkInRequest => ({
  id: r.id,
  status: r.status as WalkInRequest['status'],
  vehicleRegistration: r.vehicleRegistration,
  companyName: r.companyName,
  driverName: r.driverName,
  driverPhone: r.driverPhone,
  bookingType: isBookingType(r.bookingType) ? r.bookingType : 'delivery',
  deviceName: r.deviceName,
  createdAt: r.createdAt.toISOString(),
  bookingId: r.bookingId,
  decisionReason: r.decisionReason,
});

/** The site's pending requests, oldest first (the dock screens). */
export async function listWalkInRequests(ctx: AppContext, actor: GateActor): Promise<WalkInRequest[]> {
  const now = ctx.clock.now();
  return (await repo.listPendingRequests(ctx.database.db, actor, new Date(now.getTime() - REQUEST_SHOWN_MS))).map(toRequest);
}

const alreadyDecided = () => conflict('walk_in_request_decided', 'This walk-in request has already been accepted or declined. Refresh the list.');

async function requirePendingRequest(ctx: AppContext, actor: GateActor, requestId: string) {
  const request = UUID.test(requestId) ? await repo.findRequest(ctx.database.db, actor, requestId) : undefined;
  if (!request) throw notFound('Walk-in request');
  if (request.status !== 'pending') throw alreadyDecided();
  return request;
}

/** Accepts a request: the gate's walk-in (it picks the bay and checks the truck in), and the request marked accepted with it, in one transaction. */
export async function acceptWalkInRequest(ctx: AppContext, actor: GateActor, requestId: string, input: z.output<typeof walkInSchema>): Promise<GateMoveResponse> {
  requireStaff(actor, 'accept walk-in requests');
  await requirePendingRequest(ctx, actor, requestId);
  const now = ctx.clock.now();
  const result = await walkIn(ctx, actor, input, async (tx, bookingId) => {
    const decided = await repo.decideRequest(tx, actor, requestId, { status: 'accepted', bookingId, by: actor.auditActor?.id ?? null, at: now });
    if (!decided) throw alreadyDecided();
    await writeAudit(tx, {
      actor: actor.auditActor,
      action: 'walk_in_request.accepted',
      resourceType: 'walk_in_request',
      resourceId: requestId,
      orgId: actor.orgId,
      siteId: actor.siteId,
      details: { before: { status: 'pending' }, after: { status: 'accepted', booking_id: bookingId }, vehicle_registration: decided.vehicleRegistration },
      ip: actor.ip ?? null,
    });
  });
  publishRequest(ctx, actor, requestId, 'accepted');
  return result;
}

/** Declines a request (a reason is optional). */
export async function declineWalkInRequest(ctx: AppContext, actor: GateActor, requestId: string, input: z.output<typeof declineWalkInRequestSchema>): Promise<WalkInRequest> {
  requireStaff(actor, 'decline walk-in requests');
  await requirePendingRequest(ctx, actor, requestId);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const decided = await repo.decideRequest(tx, actor, requestId, { status: 'declined', by: actor.auditActor?.id ?? null, at: now, reason: input.reason ?? null });
    if (!decided) throw alreadyDecided();
    await writeAudit(tx, {
      actor: actor.auditActor,
      action: 'walk_in_request.declined',
      resourceType: 'walk_in_request',
      resourceId: requestId,
      orgId: actor.orgId,
      siteId: actor.siteId,
      details: { before: { status: 'pending' }, after: { status: 'declined', reason: input.reason ?? null }, vehicle_registration: decided.vehicleRegistration },
      ip: actor.ip ?? null,
    });
  });
  publishRequest(ctx, actor, requestId, 'declined');
  return toRequest((await repo.findRequest(ctx.database.db, actor, requestId))!);
}
