import { randomUUID } from 'node:crypto';
import { toBookingRecord, validateBookingRequest, type BookingRequest } from '../../../domain/booking-request';
import { linkKeysOf } from '../../../domain/org-tenants';
import type { AppContext } from '../../context';
import { currentImpersonator } from '../../audit/actor-context';
import { hashToken } from '../../auth/tokens';
import { bookSlotFast, lateFoundFull, noteFull, slotIsFull, type FastBookingInput, type SlotQuestion } from './book-slot-fast';
import { isVehicleOverlap, noAvailableBay, pgCode, vehicleAlreadyBooked } from './booking-errors';
import { publishBookingEvent } from './booking-events';
import { manageUrlFor } from './booking-mail-queue';
import { arrivalCodeFor } from './arrival-code';
import { requestFingerprint, type BookingChannel, type ChannelBooking, type ChannelFastParts, type SubmittedBooking } from './booking-submission';
import { newBookingMail } from './create-booking';
import { manageTokenFor } from './manage-token';
import { orgRules, type OrgRules } from './org-rules';
import { bookableWindows, isWithinEveryHorizon, type SlotWindow } from './slot-windows';

// The submissions' one-statement paths (book-slot-fast.ts): the portal's request without documents
// and a channel's booking, each answering null whenever it cannot decide, so the full path
// (public-booking.service.ts) answers with the precise refusal.

/**
 * The booking's columns for the one-statement paths, as the full path's insert writes them (every
 * column but site, bay and times; tenant_id, status and approved_at are decided by the statement).
 */
function fastRecord(
  request: BookingRequest,
  input: { id: string; manageToken: string; now: Date; source: string; key: string | null; fingerprint: string | null },
): Record<string, unknown> {
  const { id, manageToken, now } = input;
  const fields = toBookingRecord(request, { start: now, end: now });
  return {
    id,
    org_id: request.orgId,
    tenant_id: null,
    tsr_number: fields.tsrNumber,
    tsr_system_type: fields.tsrSystemType,
    tsr_url: fields.tsrUrl,
    tenant_name: fields.tenantName,
    contact_name: fields.contactName,
    tenant_email: fields.tenantEmail,
    tenant_phone: fields.tenantPhone,
    booking_type: fields.bookingType,
    vehicle_type: fields.vehicleType,
    vehicle_registration: fields.vehicleRegistration,
    vehicle_height_mm: fields.vehicleHeightMm,
    vehicle_length_mm: fields.vehicleLengthMm,
    vehicle_height_m: fields.vehicleHeightM,
    vehicle_length_m: fields.vehicleLengthM,
    special_access_needs: fields.specialAccessNeeds,
    goods_description: fields.goodsDescription,
    expected_duration_min: fields.expectedDurationMin,
    driver_induction_completed: fields.driverInductionCompleted,
    notes: fields.notes,
    status: 'pending',
    source: input.source,
    idempotency_key: input.key,
    idempotency_fingerprint: input.fingerprint,
    // None: the organization's portal default (the statement reads it, book-slot-sql.ts).
    language: request.language ?? null,
    manage_token_hash: hashToken(manageToken),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
}

/** The vehicle the statement fits to a bay. */
const vehicleOf = (request: BookingRequest): FastBookingInput['vehicle'] => ({
  heightM: request.vehicleHeightM,
  lengthM: request.vehicleLengthM ?? null,
  needs: request.specialAccessNeeds ?? [],
});

/**
 * The one statement's mail list: createBookingInTx's (newBookingMail) for each status the statement
 * can decide, each queued only when the booking gets that status.
 */
function fastMailOf(tenantEmail: string, documents = 0): FastBookingInput['mail'] {
  return (['pending', 'approved'] as const).flatMap((status) =>
    newBookingMail(status, { notifyAdmins: true, documents }).map(
      (m) => [m.kind, m.toHaulier ? [tenantEmail] : [], { onlyIf: status, payload: m.payload }] as FastBookingInput['mail'][number],
    ),
  );
}

/** What the booking statement is asked for a portal request: the slot's windows, the vehicle, the tenant-link keys. */
export function portalQuestion(request: BookingRequest, rules: OrgRules, windows: SlotWindow[]): SlotQuestion {
  return { rules, windows, vehicle: vehicleOf(request), link: linkKeysOf(request.tenantEmail, request.tenantName) };
}

/**
 * The booking statement's whole input for a portal request without documents, with the manage
 * token it hashes into the record: what submitFast runs, and what the benchmarks' database ceiling
 * runs (bench/lib/booking-bench.ts), so the ceiling is the very statement the HTTP path sends.
 */
export function portalBookingInput(
  authSecret: Uint8Array,
  request: BookingRequest,
  question: SlotQuestion,
  now: Date,
  idempotency: { key: string | null; fingerprint: string | null; ip: string | null },
): { input: FastBookingInput; manageToken: string } {
  const id = randomUUID();
  const manageToken = manageTokenFor(authSecret, id);
  return {
    manageToken,
    input: {
      ...question,
      record: fastRecord(request, { id, manageToken, now, source: 'portal', ...idempotency }),
      audit: { details: { source: 'portal', documents: 0 }, ip: idempotency.ip, at: now },
      mail: fastMailOf(request.tenantEmail),
      mailPayload: {},
    },
  };
}

/**
 * The hot path for a request without documents: the slot checked against the organization's
 * cached site rules, then one statement links the tenant, books the best-fit free bay its policy
 * allows (pending or approved) with its audit row and mail (book-slot-fast.ts). Null when this path
 * cannot decide (a blocked tenant or one with a daily limit among them); the full path then answers.
 */
export async function submitFast(
  ctx: AppContext,
  request: BookingRequest,
  idempotency: { key: string | null; fingerprint: string | null; ip: string | null },
): Promise<SubmittedBooking | null> {
  const now = ctx.clock.now();
  let rules = await orgRules(ctx.database, request.orgId);
  // A plan with a monthly booking limit: the full path counts this month's bookings under a lock.
  // (The copy is read afresh first: the limit may have been lifted since.)
  if (rules?.bookingLimit != null) rules = await orgRules(ctx.database, request.orgId, true);
  if (!rules || rules.bookingLimit !== null) return null;
  const windows = bookableWindows(rules.sites, request.date, request.slot, request.expectedDurationMin, now);
  if (windows.length === 0) return null;
  const question = portalQuestion(request, rules, windows);
  // A slot lately found full: the read-only check first, and refused at once while it is still
  // full (no record, token or mail built; book-slot-fast.ts slotIsFull). Once a bay is free again
  // the hint goes and the booking statement runs.
  if (lateFoundFull(ctx.database, question)) {
    if (await slotIsFull(ctx.database, question)) throw noAvailableBay();
    noteFull(ctx.database, question, false);
  }
  const { input, manageToken } = portalBookingInput(ctx.authSecret, request, question, now, idempotency);
  let booked;
  try {
    booked = await bookSlotFast(ctx.database, input);
  } catch (error) {
    if (isVehicleOverlap(error)) throw vehicleAlreadyBooked(request.vehicleRegistration);
    throw error;
  }
  // Every compatible bay taken, and the statement is sure of it: refused at once (the full path
  // would answer the same, at several times the cost — a storm on a full slot, issue 25).
  if (booked === 'full') {
    noteFull(ctx.database, question, true);
    throw noAvailableBay();
  }
  if (!booked) {
    // Nothing free, or the rules copy is out of date: refresh it, and let the full path answer.
    await orgRules(ctx.database, request.orgId, true);
    return null;
  }
  ctx.mailWorker?.kick();
  publishBookingEvent(ctx, 'created', { id: booked.id, orgId: request.orgId, siteId: booked.siteId }, now);
  const site = rules.sites.find((s) => s.id === booked.siteId)!;
  return {
    id: booked.id,
    reference: request.tsrNumber,
    status: booked.status,
    siteName: site.name,
    bayName: booked.bayName,
    startTime: booked.startTime.toISOString(),
    endTime: booked.endTime.toISOString(),
    timeZone: site.timeZone,
    manageUrl: manageUrlFor(ctx, manageToken),
    arrivalCode: arrivalCodeFor(ctx.authSecret, booked.id),
    documents: 0,
  };
}

/**
 * A channel's hot path (the SSC API): the portal's one-statement booking with the tenant and the
 * site fixed by the channel (book-slot-fast.ts FastChannel): the slot checked against the cached site
 * rules, then one statement books the best-fit free compatible bay under the tenant's policy
 * (pending or approved) with the channel's row, the audit entry naming the channel's actor, the
 * mail and the webhook rows the full path writes. Null whenever this path cannot book (an invalid
 * request, a blocked or limited tenant, another site, a plan limit, no free bay, stale rules, a
 * used idempotency key, the load already booked, the vehicle already booked): the caller then takes
 * the full path, which answers with the precise refusal, so refusals are the full path's.
 */
export async function submitChannelBookingFast(
  ctx: AppContext,
  input: { data: unknown; idempotencyKey?: string; ip: string | null; channel: BookingChannel; fast: ChannelFastParts },
): Promise<ChannelBooking | null> {
  const { channel, fast } = input;
  const validated = validateBookingRequest(input.data);
  if (!validated.ok || !channel.actor) return null;
  const request = validated.data;
  const tenant = channel.tenant;
  if (tenant.status !== 'active' || tenant.maxBookingsPerDay !== null) return null;
  if (tenant.allowedSiteIds && !tenant.allowedSiteIds.includes(channel.siteId)) return null;
  const now = ctx.clock.now();
  let rules = await orgRules(ctx.database, request.orgId);
  if (rules?.bookingLimit != null) rules = await orgRules(ctx.database, request.orgId, true);
  if (!rules || rules.bookingLimit !== null) return null;
  const site = rules.sites.find((s) => s.id === channel.siteId);
  // The full path refuses a date beyond the horizon of the organization's first site with a
  // compatible bay, whichever site is asked: book here only when no site's horizon refuses it.
  if (!site || !isWithinEveryHorizon(rules.sites, request.date, now)) return null;
  const windows = bookableWindows([site], request.date, request.slot, request.expectedDurationMin, now);
  if (windows.length === 0) return null;
  const key = input.idempotencyKey ?? request.idempotencyKey ?? null;
  const fingerprint = key ? requestFingerprint(request, []) : null;
  const id = randomUUID();
  const record = fastRecord(request, { id, manageToken: manageTokenFor(ctx.authSecret, id), now, source: channel.source, key, fingerprint });
  const impersonator = currentImpersonator();
  let booked;
  try {
    booked = await bookSlotFast(ctx.database, {
      rules,
      windows,
      vehicle: vehicleOf(request),
      record,
      // writeAudit's details: the impersonator first, the channel's details last.
      audit: { details: { ...(impersonator ? { impersonatedBy: impersonator.email } : {}), source: channel.source, documents: 0, ...channel.auditDetails }, ip: input.ip, at: now },
      // The full path's rows exactly (createBookingInTx's newBookingMail).
      mail: fastMailOf(request.tenantEmail),
      mailPayload: {},
      channel: {
        tenantId: tenant.id,
        actor: {
          id: channel.actor.id,
          email: channel.actor.email ?? null,
          role: channel.actor.role ?? null,
          impersonatorId: impersonator?.id ?? null,
          impersonatorEmail: impersonator?.email ?? null,
        },
        idempotencyKey: key,
        load: fast.load,
        sscAppointment: fast.sscAppointment,
      },
    });
  } catch (error) {
    // The key taken by a concurrent request (23505), or the vehicle booked at that time: the full
    // path replays or refuses precisely.
    if (pgCode(error) === '23505' || isVehicleOverlap(error)) return null;
    throw error;
  }
  if (!booked || booked === 'full') {
    // Nothing free, the rules copy out of date, or a gate closed: refresh the copy, the full path answers.
    await orgRules(ctx.database, request.orgId, true);
    return null;
  }
  ctx.mailWorker?.kick();
  publishBookingEvent(ctx, 'created', { id: booked.id, orgId: request.orgId, siteId: booked.siteId }, now);
  return { id: booked.id, status: booked.status, siteId: booked.siteId, bayId: booked.bayId, bayName: booked.bayName, startTime: booked.startTime, endTime: booked.endTime };
}
