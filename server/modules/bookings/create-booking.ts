import type { BookingStatus } from '../../../domain/enums';
import { toBookingRecord, type BookingRequest } from '../../../domain/booking-request';
import type { WebhookEventType } from '../../../domain/webhooks';
import type { Tx } from '../../db/client';
import type { bookings } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import { enqueueMail, type QueuedMail } from '../../mail/outbox';
import type { Candidate } from '../availability/availability.service';
import { readOrgSettingsOf } from '../org-settings/org-settings.service';
import { claimBay } from './claim-bay';
import { queueBookingWebhooks } from './booking-webhooks';
import * as repo from './bookings.repo';

// One way to create a booking (issue 20 item 1). Every path that books — the portal's full path,
// the SSC channel's full path, an admin booking, a walk-in at the gate — calls createBookingInTx
// inside its transaction: it claims the first candidate bay the database accepts, inserts the
// booking, writes its audit entry, queues the e-mail that matches the booking's real status and
// the webhook rows. The portal's one-statement SQL path (book-slot-fast.ts bookSlotFast) writes the
// same rows in one round trip; its mail list is built from newBookingMail below and
// create-booking.parity.test.ts proves the rows are the same.

/** Every column of the new booking but its bay, site and times (the claimed candidate's). */
export type NewBookingRow = Omit<typeof bookings.$inferInsert, 'siteId' | 'bayId' | 'startTime' | 'endTime' | 'windowStart' | 'windowEnd'> & {
  id: string;
  orgId: string;
  status: BookingStatus;
};

/** The request's columns of a booking (company, vehicle, load…), without its bay and times. */
export function bookingColumnsOf(request: BookingRequest) {
  const { startTime: _s, endTime: _e, windowStart: _ws, windowEnd: _we, ...columns } = toBookingRecord(request, { start: new Date(0), end: new Date(0) });
  return columns;
}

/** A mail queued with a new booking: to the haulier (the booking's e-mail) or to the admins (resolved at delivery). */
export type NewBookingMail = { kind: 'booking.received' | 'booking.new_request' | 'booking.changed'; toHaulier: boolean; payload: Record<string, unknown> };

/**
 * The e-mail a new booking queues, by the status it really has: pending → the haulier's "request
 * received" (TENTATIVE .ics) and, when the request came from outside (portal, channel), the admins'
 * "waiting for review"; approved → the haulier's "approved" mail (CONFIRMED .ics); any other status
 * (a walk-in checked in at the gate) → nothing, the driver is already there.
 */
export function newBookingMail(status: string, options: { notifyAdmins: boolean; documents: number }): NewBookingMail[] {
  if (status === 'pending') {
    return [
      { kind: 'booking.received', toHaulier: true, payload: { documents: options.documents } },
      ...(options.notifyAdmins ? [{ kind: 'booking.new_request' as const, toHaulier: false, payload: { documents: options.documents } }] : []),
    ];
  }
  if (status === 'approved') return [{ kind: 'booking.changed', toHaulier: true, payload: { change: 'approved', reason: null } }];
  return [];
}

export type CreateBookingInput = {
  /** Free bays, best fit first: the first the database accepts is taken. */
  candidates: Candidate[];
  booking: NewBookingRow;
  /** For the refusal when the same vehicle is already booked at an overlapping time. */
  vehicleRegistration: string;
  /** Maps an insert error (e.g. a repeated idempotency key) before it is rethrown. */
  onInsertError?: (error: unknown) => unknown;
  /** Runs after the insert, before the audit entry (documents, the channel's own row). */
  afterInsert?: (tx: Tx, booking: repo.BookingRow) => Promise<void>;
  /** Who booked; the shared details (reference, company, vehicle type, status, tenant) come first. */
  audit: { actor: AuditActor; details: Record<string, unknown>; ip: string | null };
  /** `toHaulier: false` queues none of the haulier's mail (a standing booking's occurrences: one mail for the series, decision 045). */
  mail: { notifyAdmins: boolean; documents: number; toHaulier?: boolean };
  webhookTypes: WebhookEventType[];
};

/** Claims a bay, inserts the booking, audits it, queues its mail and webhooks. Inside the caller's transaction. */
export async function createBookingInTx(tx: Tx, now: Date, input: CreateBookingInput): Promise<{ booking: repo.BookingRow; view: repo.BookingView }> {
  // The language the haulier hears in: the request's, else the organization's portal default (as
  // the one-statement path decides it, book-slot-sql.ts).
  const language = input.booking.language ?? (await readOrgSettingsOf(tx, input.booking.orgId)).portal.defaultLanguage;
  const booking = await claimBay(
    tx,
    input.candidates,
    async (sp, candidate) => {
      try {
        return await repo.insertBooking(sp, {
          ...input.booking,
          language,
          siteId: candidate.siteId,
          bayId: candidate.bayId,
          startTime: candidate.start,
          endTime: candidate.end,
          windowStart: candidate.start,
          windowEnd: candidate.end,
        });
      } catch (error) {
        throw input.onInsertError ? input.onInsertError(error) : error;
      }
    },
    input.vehicleRegistration,
  );
  await input.afterInsert?.(tx, booking);
  await writeAudit(tx, {
    actor: input.audit.actor,
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
      tenant_id: booking.tenantId,
      ...input.audit.details,
    },
    ip: input.audit.ip,
  });
  const mail: QueuedMail[] = newBookingMail(booking.status, input.mail)
    .filter((m) => input.mail.toHaulier !== false || !m.toHaulier)
    .map((m) => ({
      kind: m.kind,
      orgId: booking.orgId,
      ...(m.toHaulier ? { recipients: [booking.tenantEmail] } : {}),
      payload: { ...m.payload, bookingId: booking.id },
    }));
  if (mail.length > 0) await enqueueMail(tx, now, mail);
  const view = (await repo.findBookingView(tx, { orgId: booking.orgId, id: booking.id }))!;
  await queueBookingWebhooks(tx, now, { orgId: booking.orgId, bookingId: booking.id, types: input.webhookTypes, view });
  return { booking, view };
}
