import { formatValidationError, validateBookingRequest, type BookingRequest } from '../../../domain/booking-request';
import { DOCUMENTS_BUCKET } from '../../../domain/constants';
import { readOrgSettings } from '../../../domain/org-settings';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { Db } from '../../db/client';
import { organizations, sites } from '../../db/schema';
import { AppError, notFound } from '../../plugins/errors';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { enforceDailyLimit, findLinkedTenant, refuseIfBlocked, restrictToAllowedSites, type LinkedTenant } from '../tenants/tenant-link';
import { hashToken } from '../../auth/tokens';
import { publishBookingEvent } from './booking-events';
import { bookingColumnsOf, createBookingInTx } from './create-booking';
import { manageUrlFor } from './booking-mail-queue';
import { arrivalCodeFor } from './arrival-code';
import * as repo from './bookings.repo';
import type { UploadedDocument } from './documents';
import { manageTokenFor } from './manage-token';
import { candidatesFor } from './booking-candidates';
import { noAvailableBay, pgCode } from './booking-errors';
import { requestFingerprint, type BookingChannel, type SubmittedBooking } from './booking-submission';
import { submitFast } from './public-booking-fast';

// The full path of a booking submission (the portal's, and a channel's when its one statement
// cannot decide): precise refusals, documents, idempotent replays. The one-statement paths are in
// public-booking-fast.ts.

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

function toResult(ctx: AppContext, view: repo.BookingView, manageUrl: string | null, documents: number): SubmittedBooking {
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
    arrivalCode: arrivalCodeFor(ctx.authSecret, view.booking.id),
    documents,
  };
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
    return { replay: true, booking: toResult(ctx, view, manageUrl, await repo.countDocuments(ctx.database.db, { orgId: request.orgId, id: view.booking.id })) };
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
  return { replay: false, booking: toResult(ctx, view, manageUrlFor(ctx, manageToken), input.documents.length) };
}

/** The candidates at one site; none there answers the portal's "no bay available" refusal. */
function onlySite(candidates: Awaited<ReturnType<typeof candidatesFor>>, siteId: string) {
  const kept = candidates.filter((candidate) => candidate.siteId === siteId);
  if (kept.length === 0) throw noAvailableBay();
  return kept;
}
