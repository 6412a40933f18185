import { createHash } from 'node:crypto';
import type { BookingRequest } from '../../../domain/booking-request';
import type { Tx } from '../../db/client';
import type { AuditActor } from '../../audit/write-audit';
import type { LinkedTenant } from '../tenants/tenant-link';
import type { UploadedDocument } from './documents';

// What a booking submission answers and what a channel brings, shared by the full path
// (public-booking.service.ts) and the one-statement paths (public-booking-fast.ts), and the
// request's fingerprint both store with an idempotency key.

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
  arrivalCode: string;
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

/**
 * What identifies a request for idempotency: the validated fields and the documents' names, sizes
 * and contents, so the same key with another body is told apart from a retry.
 */
export function requestFingerprint(request: BookingRequest, documents: UploadedDocument[]): string {
  const { idempotencyKey: _key, ...fields } = request;
  const hash = createHash('sha256').update(JSON.stringify(fields));
  for (const doc of documents) hash.update(`\n${doc.fileName}:${documentDigest(doc)}`);
  return hash.digest('hex');
}

function documentDigest(doc: UploadedDocument): string {
  return doc.sha256;
}
