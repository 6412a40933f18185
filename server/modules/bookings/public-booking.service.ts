import {
  formatValidationError,
  toBookingRecord,
  validateBookingRequest,
  type BookingRequest,
} from '../../../domain/booking-request';
import { DOCUMENTS_BUCKET } from '../../../domain/constants';
import { readOrgSettings } from '../../../domain/org-settings';
import { linkKeysOf } from '../../../domain/org-tenants';
import { and, eq } from 'drizzle-orm';
import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { Db } from '../../db/client';
import { organizations, sites } from '../../db/schema';
import { AppError, notFound } from '../../plugins/errors';
import { currentImpersonator } from '../../audit/actor-context';
import type { AuditActor } from '../../audit/write-audit';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { enforceDailyLimit, findLinkedTenant, refuseIfBlocked, restrictToAllowedSites, type LinkedTenant } from '../tenants/tenant-link';
import { hashToken } from '../../auth/tokens';
import { publishBookingEvent } from './booking-events';
import { bookingColumnsOf, createBookingInTx, newBookingMail } from './create-booking';
import { manageUrlFor } from './booking-mail-queue';
import * as repo from './bookings.repo';
import type { UploadedDocument } from './documents';
import { manageTokenFor } from './manage-token';
import { bookSlotFast, type FastBookingInput } from './book-slot-fast';
import { candidatesFor } from './booking-candidates';
import { isVehicleOverlap, noAvailableBay, pgCode, vehicleAlreadyBooked } from './booking-errors';
import { orgRules } from './org-rules';
import { bookableWindows, isWithinEveryHorizon } from './slot-windows';

export type SubmittedBooking = {
  id: string;
  reference: string;
  status: string;
  siteName: string;
  bayName: string;
  startTime: string;
  endTime: string;
  timeZone: string;
  manageUrl: string | null;
  documents: number;
};

/**
 * A booking made through another channel than the portal (the SSC API, server/modules/ssc): the
 * tenant is the one the API key acts for (no linking by e-mail), only one site is tried, the audit
 * entry names the channel's actor, and `onBooked` writes the channel's own rows in the same
 * transaction. submitPublicBooking takes the full path for it (precise refusals);
 * submitChannelBookingFast is its one-statement path, tried first by the channel.
 */
export type BookingChannel = {
  source: 'ssc';
  tenant: LinkedTenant;
  siteId: string;
  actor: AuditActor;
  auditDetails: Record<string, unknown>;
  /** First in the booking's transaction: may lock and refuse (the SSC load already booked). */
  beforeBooking?: (tx: Tx) => Promise<void>;
  onBooked?: (tx: Tx, booking: { id: string; orgId: string; siteId: string }) => Promise<void>;
};

/** What the channel's fast path needs besides the channel: the load it books for and its own row (what onBooked writes). */
export type ChannelFastParts = {
  /**
   * Nothing is booked when the tenant already has a live booking with this reference at the site
   * (and stop); the statement first takes the load's lock (load-lock.ts loadLockKey).
   */
  load: { reference: string; stopSequenceNumber: number | null; lockKey: string };
  /** The ssc_appointments row, snake_case, every column but booking_id and org_id. */
  sscAppointment: Record<string, unknown>;
};

export type ChannelBooking = {
  id: string;
  status: string;
  siteId: string;
  bayId: string;
  bayName: string;
  startTime: Date;
  endTime: Date;
};

/** Thrown inside the transaction when a concurrent request with the same idempotency key won. */
class IdempotentReplay extends Error {}

export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different booking request. Use a new key for a new request.';

export function validateOrThrow(data: unknown): BookingRequest {
  const result = validateBookingRequest(data);
  if (!result.ok) {
    throw new AppError(400, 'validation_error', formatValidationError(result.messages), { messages: result.messages });
  }
  return result.data;
}

function toResult(view: repo.BookingView, manageUrl: string | null, documents: number): SubmittedBooking {
  return {
    id: view.booking.id,
    reference: view.booking.tsrNumber,
    status: view.booking.status,
    siteName: view.siteName,
    bayName: view.bayName,
    startTime: view.booking.startTime.toISOString(),
    endTime: view.booking.endTime.toISOString(),
    timeZone: view.timeZone,
    manageUrl,
    documents,
  };
}

/**
 * What identifies a request for idempotency: the validated fields and the documents' names, sizes
 * and contents, so the same key with another body is told apart from a retry.
 */
function requestFingerprint(request: BookingRequest, documents: UploadedDocument[]): string {
  const { idempotencyKey: _key, ...fields } = request;
  const hash = createHash('sha256').update(JSON.stringify(fields));
  for (const doc of documents) hash.update(`\n${doc.fileName}:${documentDigest(doc)}`);
  return hash.digest('hex');
}

function documentDigest(doc: UploadedDocument): string {
  return doc.sha256;
}

/** Why a portal request is approved at once: its tenant's policy, else the organization's default; null: it waits for review. */
async function autoApprovalOf(tx: Tx, orgId: string, tenant: LinkedTenant | null): Promise<'tenant' | 'organization' | null> {
  if (tenant?.autoApprove) return 'tenant';
  const [org] = await tx.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return org && readOrgSettings(org.settings).booking.autoApprove ? 'organization' : null;
}

export const SITE_CHOICE_OFF = 'This organization books the best-fit bay over all its sites: a site cannot be chosen. Send the request without a site.';

/**
 * The site a haulier chose, checked (issue 22 item 5, decision 039): none → null (best fit over all
 * sites); the organization does not let hauliers choose → 400 site_choice_off (refused, not
 * ignored: a client that names a site must not be booked somewhere else); not an active site of
 * this organization → 404.
 */
export async function chosenSiteOf(db: Db | Tx, orgId: string, siteId: string | null | undefined): Promise<string | null> {
  if (!siteId) return null;
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw notFound('Organization');
  if (!readOrgSettings(org.settings).booking.hauliersChooseSite) throw new AppError(400, 'site_choice_off', SITE_CHOICE_OFF);
  const [site] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.orgId, orgId), eq(sites.active, true)));
  if (!site) throw notFound('Site');
  return site.id;
}

/**
 * The public portal's submission, all or nothing: validate, link the request to its tenant and
 * apply the tenant's policy (docs/tenant-linking.md: blocked → 403, daily limit → 409, allowed
 * sites only, auto-approve), pick the best-fit free bay, insert the booking (pending, or approved
 * when the tenant or the organization auto-approves), store its documents, write the audit entry
 * and queue the e-mail in one transaction. A failed upload rolls the booking back and removes the files already stored, so
 * nothing is left half-done; the mail outbox delivers after commit, and a crash cannot lose it.
 *
 * Idempotency: the same key with the same request answers what the first answer said (201, the
 * same booking, a working manage link); the same key with another request answers 422.
 */
export async function submitPublicBooking(
  ctx: AppContext,
  input: { data: unknown; documents: UploadedDocument[]; idempotencyKey?: string; ip: string | null; channel?: BookingChannel },
): Promise<{ replay: boolean; booking: SubmittedBooking }> {
  const channel = input.channel;
  const request = validateOrThrow(input.data);
  const key = input.idempotencyKey ?? request.idempotencyKey ?? null;
  const fingerprint = key ? requestFingerprint(request, input.documents) : null;
  const replay = async () => {
    const existing = key ? await repo.findByIdempotencyKey(ctx.database.db, request.orgId, key) : undefined;
    if (!existing) return null;
    if (existing.fingerprint !== fingerprint) {
      throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_KEY_REUSED);
    }
    const view = (await repo.findBookingView(ctx.database.db, { orgId: request.orgId, id: existing.id }))!;
    const token = manageTokenFor(ctx.authSecret, view.booking.id);
    const manageUrl = view.booking.manageTokenHash === hashToken(token) ? manageUrlFor(ctx, token) : null;
    return { replay: true, booking: toResult(view, manageUrl, await repo.countDocuments(ctx.database.db, { orgId: request.orgId, id: view.booking.id })) };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  // A channel fixes its own site; the portal's haulier may choose one when the organization allows it.
  const chosenSiteId = channel ? null : await chosenSiteOf(ctx.database.db, request.orgId, request.siteId);

  if (input.documents.length === 0 && !channel && !chosenSiteId) {
    try {
      const fast = await submitFast(ctx, request, { key, fingerprint, ip: input.ip });
      if (fast) return { replay: false, booking: fast };
    } catch (error) {
      if (pgCode(error) === '23505' && key) {
        const winner = await replay();
        if (winner) return winner;
      }
      throw error;
    }
  }

  const now = ctx.clock.now();
  const bookingId = randomUUID();
  const manageToken = manageTokenFor(ctx.authSecret, bookingId);
  const stored: string[] = [];
  let siteId: string | null = null;
  try {
    await ctx.database.db.transaction(async (tx) => {
      await channel?.beforeBooking?.(tx);
      const tenant = channel ? channel.tenant : await findLinkedTenant(tx, request.orgId, request.tenantEmail, request.tenantName);
      refuseIfBlocked(tenant);
      if (tenant) await enforceDailyLimit(tx, request.orgId, tenant, request.date);
      const offered = await candidatesFor(tx, now, { ...request, siteId: chosenSiteId });
      const candidates = await restrictToAllowedSites(tx, tenant, channel ? onlySite(offered, channel.siteId) : offered);
      await assertWithinPlanLimit(tx, request.orgId, 'bookings', { now });
      const autoApproved = await autoApprovalOf(tx, request.orgId, tenant);
      const { booking } = await createBookingInTx(tx, now, {
        candidates,
        booking: {
          ...bookingColumnsOf(request),
          id: bookingId,
          idempotencyKey: key,
          idempotencyFingerprint: fingerprint,
          orgId: request.orgId,
          tenantId: tenant?.id ?? null,
          status: autoApproved ? 'approved' : 'pending',
          approvedAt: autoApproved ? now : null,
          source: channel?.source ?? 'portal',
          manageTokenHash: hashToken(manageToken),
          createdAt: now,
          updatedAt: now,
        },
        vehicleRegistration: request.vehicleRegistration,
        onInsertError: (error) => (pgCode(error) === '23505' && key ? new IdempotentReplay() : error),
        afterInsert: async (tx, booking) => {
          siteId = booking.siteId;
          const stamp = now.getTime();
          for (const doc of input.documents) {
            const storageKey = `${booking.orgId}/${booking.id}/${stamp}-${doc.fileName}`;
            try {
              await ctx.storage.put(DOCUMENTS_BUCKET, storageKey, { path: doc.path, size: doc.sizeBytes }, doc.contentType);
            } catch {
              throw new AppError(502, 'upload_failed', `Failed to upload ${doc.fileName}`, { fileName: doc.fileName });
            }
            stored.push(storageKey);
            await repo.insertDocument(tx, {
              orgId: booking.orgId,
              bookingId: booking.id,
              fileName: doc.fileName,
              contentType: doc.contentType,
              sizeBytes: doc.sizeBytes,
              bucket: DOCUMENTS_BUCKET,
              storageKey,
              createdAt: now,
            });
          }
          await channel?.onBooked?.(tx, booking);
        },
        audit: {
          actor: channel?.actor ?? null,
          details: { source: channel?.source ?? 'portal', documents: input.documents.length, auto_approved: autoApproved, ...channel?.auditDetails },
          ip: input.ip,
        },
        // Approved at once: the haulier's confirmation is the approval (with the manage link and the
        // calendar file); there is no request for the admins to review.
        mail: { notifyAdmins: true, documents: input.documents.length },
        webhookTypes: ['booking.created'],
      });
      siteId = booking.siteId;
    });
  } catch (error) {
    await Promise.all(stored.map((k) => ctx.storage.remove(DOCUMENTS_BUCKET, k).catch(() => undefined)));
    if (error instanceof IdempotentReplay) {
      const winner = await replay();
      if (winner) return winner;
    }
    throw error;
  }
  ctx.mailWorker?.kick();
  publishBookingEvent(ctx, 'created', { id: bookingId, orgId: request.orgId, siteId }, now);

  const view = await repo.findBookingView(ctx.database.db, { orgId: request.orgId, id: bookingId });
  if (!view) throw new AppError(500, 'bay_lookup_failed', 'Failed to get bay information');
  return { replay: false, booking: toResult(view, manageUrlFor(ctx, manageToken), input.documents.length) };
}

/** The candidates at one site; none there answers the portal's "no bay available" refusal. */
function onlySite(candidates: Awaited<ReturnType<typeof candidatesFor>>, siteId: string) {
  const kept = candidates.filter((candidate) => candidate.siteId === siteId);
  if (kept.length === 0) throw noAvailableBay();
  return kept;
}

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
    manage_token_hash: hashToken(manageToken),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
}

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

/**
 * The hot path for a request without documents: the slot checked against the organization's
 * cached site rules, then one statement links the tenant, books the best-fit free bay its policy
 * allows (pending or approved) with its audit row and mail (book-slot-fast.ts). Null when this path
 * cannot decide (a blocked tenant or one with a daily limit among them); the full path then answers.
 */
async function submitFast(
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
  const id = randomUUID();
  const manageToken = manageTokenFor(ctx.authSecret, id);
  const record = fastRecord(request, { id, manageToken, now, source: 'portal', ...idempotency });
  let booked;
  try {
    booked = await bookSlotFast(ctx.database, {
      rules,
      windows,
      vehicle: { heightM: request.vehicleHeightM, lengthM: request.vehicleLengthM ?? null, needs: request.specialAccessNeeds ?? [] },
      record,
      audit: { details: { source: 'portal', documents: 0 }, ip: idempotency.ip, at: now },
      mail: fastMailOf(request.tenantEmail),
      mailPayload: {},
      link: linkKeysOf(request.tenantEmail, request.tenantName),
    });
  } catch (error) {
    if (isVehicleOverlap(error)) throw vehicleAlreadyBooked(request.vehicleRegistration);
    throw error;
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
      vehicle: { heightM: request.vehicleHeightM, lengthM: request.vehicleLengthM ?? null, needs: request.specialAccessNeeds ?? [] },
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
  if (!booked) {
    // Nothing free, the rules copy out of date, or a gate closed: refresh the copy, the full path answers.
    await orgRules(ctx.database, request.orgId, true);
    return null;
  }
  ctx.mailWorker?.kick();
  publishBookingEvent(ctx, 'created', { id: booked.id, orgId: request.orgId, siteId: booked.siteId }, now);
  return { id: booked.id, status: booked.status, siteId: booked.siteId, bayId: booked.bayId, bayName: booked.bayName, startTime: booked.startTime, endTime: booked.endTime };
}
