import {
  formatValidationError,
  toBookingRecord,
  validateBookingRequest,
  type BookingRequest,
} from '../../../domain/booking-request';
import { DOCUMENTS_BUCKET } from '../../../domain/constants';
import { OUTSIDE_OPERATING_HOURS_MESSAGE, slotUnavailableMessage } from '../../../domain/slot-grid';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, conflict } from '../../plugins/errors';
import { writeAudit } from '../audit/audit.service';
import { getDayAvailability, type Candidate } from '../availability/availability.service';
import { hashToken, randomToken } from '../auth/tokens';
import { sendBookingConfirmation, sendNewRequestToAdmins, type BookingMailFacts } from './booking-mail';
import * as repo from './bookings.repo';
import type { UploadedDocument } from './documents';

export const NO_AVAILABLE_BAY =
  'No compatible bay is available at the selected time. Please choose a different time slot.';
export const noAvailableBay = () => conflict('no_available_bay', NO_AVAILABLE_BAY);

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

/** Thrown inside the transaction when a concurrent request with the same idempotency key won. */
class IdempotentReplay extends Error {}

function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

export function validateOrThrow(data: unknown): BookingRequest {
  const result = validateBookingRequest(data);
  if (!result.ok) {
    throw new AppError(400, 'validation_error', formatValidationError(result.messages), { messages: result.messages });
  }
  return result.data;
}

/** The slot's free bays, best fit first, or the reason the slot cannot be booked. */
export async function candidatesFor(
  tx: Tx,
  now: Date,
  request: Pick<BookingRequest, 'orgId' | 'date' | 'slot' | 'expectedDurationMin' | 'vehicleHeightM' | 'vehicleLengthM' | 'specialAccessNeeds'>,
  excludeBookingId?: string,
): Promise<Candidate[]> {
  const day = await getDayAvailability(
    tx,
    {
      orgId: request.orgId,
      date: request.date,
      durationMin: request.expectedDurationMin,
      vehicleHeightM: request.vehicleHeightM,
      vehicleLengthM: request.vehicleLengthM ?? null,
      specialAccessNeeds: request.specialAccessNeeds ?? [],
    },
    now,
    { excludeBookingId },
  );
  const slot = day.slots.find((s) => s.time === request.slot);
  if (!slot) {
    if (day.compatibleBays === 0) throw noAvailableBay();
    throw new AppError(400, 'invalid_slot', OUTSIDE_OPERATING_HOURS_MESSAGE);
  }
  if (!slot.bookable) throw new AppError(400, 'slot_unavailable', slotUnavailableMessage(slot.reason as never));
  if (slot.candidates.length === 0) throw noAvailableBay();
  return slot.candidates;
}

/**
 * Takes the first candidate bay the database accepts. The exclusion constraint is the final
 * guard: when a concurrent booking took a bay between our read and our insert (23P01), the
 * savepoint is rolled back and the next bay is tried.
 *
 * Two transactions inserting conflicting rows at the same instant can each see the other's
 * uncommitted row and deadlock inside the constraint check (40P01 after a one-second wait). A
 * transaction-scoped advisory lock on the bay, taken inside the savepoint, queues claimants of one
 * bay instead: the second waits for the first to commit and then fails fast with 23P01. Each
 * transaction holds at most one bay lock while waiting for another, so the locks cannot cycle.
 */
export async function claimBay<T>(tx: Tx, candidates: Candidate[], write: (sp: Tx, candidate: Candidate) => Promise<T>): Promise<T> {
  for (const candidate of candidates) {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await tx.transaction(async (sp) => {
          await sp.execute(sql`select pg_advisory_xact_lock(hashtextextended(${candidate.bayId}::text, 0))`);
          return write(sp, candidate);
        });
      } catch (error) {
        const code = pgCode(error);
        if (code === '23P01') break; // taken: next bay
        if (code === '40P01' && attempt === 0) continue; // deadlock victim: the other may have rolled back, retry once
        if (code === '40P01') break;
        throw error;
      }
    }
  }
  throw noAvailableBay();
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

export function mailFacts(view: repo.BookingView, documents: number): BookingMailFacts {
  const b = view.booking;
  return {
    id: b.id,
    reference: b.tsrNumber,
    status: b.status,
    orgName: view.orgName,
    siteName: view.siteName,
    siteAddress: view.siteAddress,
    bayName: view.bayName,
    timeZone: view.timeZone,
    startTime: b.startTime,
    endTime: b.endTime,
    tenantName: b.tenantName,
    contactName: b.contactName,
    tenantEmail: b.tenantEmail,
    bookingType: b.bookingType,
    vehicleType: b.vehicleType,
    vehicleRegistration: b.vehicleRegistration,
    documents,
  };
}

export const manageUrlFor = (ctx: AppContext, token: string) => `${ctx.config.publicUrl}/book/manage/${token}`;

/**
 * The public portal's submission, all or nothing: validate, pick the best-fit free bay, insert the
 * pending booking, store its documents and write the audit entry in one transaction. A failed
 * upload rolls the booking back and removes the files already stored, so nothing is left half-done.
 * Mail goes out after commit; a mail failure is logged and does not undo the booking.
 */
export async function submitPublicBooking(
  ctx: AppContext,
  input: { data: unknown; documents: UploadedDocument[]; idempotencyKey?: string; ip: string | null },
): Promise<{ replay: boolean; booking: SubmittedBooking }> {
  const request = validateOrThrow(input.data);
  const key = input.idempotencyKey ?? request.idempotencyKey ?? null;
  const replay = async () => {
    const existing = key ? await repo.findByIdempotencyKey(ctx.database.db, request.orgId, key) : undefined;
    if (!existing) return null;
    const view = (await repo.findBookingView(ctx.database.db, { id: existing.id }))!;
    return { replay: true, booking: toResult(view, null, await repo.countDocuments(ctx.database.db, view.booking.id)) };
  };
  const earlier = await replay();
  if (earlier) return earlier;

  const now = ctx.clock.now();
  const manageToken = randomToken();
  const stored: string[] = [];
  let bookingId: string;
  try {
    bookingId = await ctx.database.db.transaction(async (tx) => {
      const candidates = await candidatesFor(tx, now, request);
      const booking = await claimBay(tx, candidates, async (sp, candidate) => {
        try {
          return await repo.insertBooking(sp, {
            ...toBookingRecord(request, { start: candidate.start, end: candidate.end }),
            idempotencyKey: key,
            orgId: request.orgId,
            siteId: candidate.siteId,
            bayId: candidate.bayId,
            status: 'pending',
            source: 'portal',
            manageTokenHash: hashToken(manageToken),
            createdAt: now,
            updatedAt: now,
          });
        } catch (error) {
          if (pgCode(error) === '23505' && key) throw new IdempotentReplay();
          throw error;
        }
      });
      const stamp = now.getTime();
      for (const doc of input.documents) {
        const storageKey = `${booking.orgId}/${booking.id}/${stamp}-${doc.fileName}`;
        try {
          await ctx.storage.put(DOCUMENTS_BUCKET, storageKey, doc.data, doc.contentType);
        } catch {
          throw new AppError(502, 'upload_failed', `Failed to upload ${doc.fileName}`, { fileName: doc.fileName });
        }
        stored.push(storageKey);
        await repo.insertDocument(tx, {
          orgId: booking.orgId,
          bookingId: booking.id,
          fileName: doc.fileName,
          contentType: doc.contentType,
          sizeBytes: doc.data.length,
          bucket: DOCUMENTS_BUCKET,
          storageKey,
          createdAt: now,
        });
      }
      await writeAudit(tx, {
        actor: null,
        action: 'booking.created',
        resourceType: 'booking',
        resourceId: booking.id,
        orgId: booking.orgId,
        siteId: booking.siteId,
        details: {
          tsr_number: booking.tsrNumber,
          tenant_name: booking.tenantName,
          vehicle_type: booking.vehicleType,
          status: booking.status,
          source: 'portal',
          documents: input.documents.length,
        },
        ip: input.ip,
      });
      return booking.id;
    });
  } catch (error) {
    await Promise.all(stored.map((k) => ctx.storage.remove(DOCUMENTS_BUCKET, k).catch(() => undefined)));
    if (error instanceof IdempotentReplay) {
      const winner = await replay();
      if (winner) return winner;
    }
    throw error;
  }

  const view = await repo.findBookingView(ctx.database.db, { id: bookingId });
  if (!view) throw new AppError(500, 'bay_lookup_failed', 'Failed to get bay information');
  const manageUrl = manageUrlFor(ctx, manageToken);
  const facts = mailFacts(view, input.documents.length);
  await Promise.all([
    sendBookingConfirmation(ctx, facts, manageUrl),
    repo.listOrgAdminEmails(ctx.database.db, view.booking.orgId).then((emails) => sendNewRequestToAdmins(ctx, facts, emails)),
  ]).catch((error: unknown) => ctx.log.error({ err: error, bookingId }, 'booking mail failed'));
  return { replay: false, booking: toResult(view, manageUrl, input.documents.length) };
}
