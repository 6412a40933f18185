import { z } from 'zod';
import { AT_BAY_STATUSES } from './booking-lifecycle';
import { isSingleLineText } from './text-rules';
import { normalisePlate, PLATE_MAX_LENGTH, PLATE_MIN_LENGTH } from './plate-match';

// Number-plate reads at a site (issue 10): what the gate screens and a site camera send, and what
// the server answers — the read as stored, how it matched the site's expected and on-site vehicles,
// and what was done about it (an automatic check-in).

export const PLATE_READ_SOURCES = ['typed', 'photo', 'camera', 'webhook'] as const;
export type PlateReadSource = (typeof PLATE_READ_SOURCES)[number];
export const PLATE_READ_STATUSES = ['matched', 'ambiguous', 'unmatched', 'resolved', 'ignored'] as const;
export type PlateReadStatus = (typeof PLATE_READ_STATUSES)[number];
/** What the gate can do for a candidate booking: check it in (approved), out (in progress, overstay), or nothing (checked in). */
export const PLATE_CANDIDATE_ACTIONS = ['check_in', 'check_out', 'none'] as const;
export type PlateCandidateAction = (typeof PLATE_CANDIDATE_ACTIONS)[number];

/** The gate move a candidate booking in `status` offers (the server answers it; the scan screen follows a booking's later changes with it). */
export function plateCandidateActionFor(status: string): PlateCandidateAction {
  if (status === 'approved') return 'check_in';
  if ((AT_BAY_STATUSES as readonly string[]).includes(status)) return 'check_out';
  return 'none';
}

/** A photo of a plate may be this large at most (10 MB). */
export const MAX_PLATE_PHOTO_BYTES = 10 * 1024 * 1024;
export const PLATE_PHOTO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PLATE_PHOTO_TYPE_MESSAGE = 'Upload a PNG, JPEG or WebP photo';
export const PLATE_PHOTO_SIZE_MESSAGE = 'The photo is larger than 10 MB';
export const PLATE_UNREADABLE_MESSAGE = 'No number plate could be read in this photo; type the plate instead';
export const PLATE_EMPTY_MESSAGE = 'Enter the number plate';
export const PLATE_LENGTH_MESSAGE = `A number plate has ${PLATE_MIN_LENGTH} to ${PLATE_MAX_LENGTH} letters and digits`;

/** A plate as typed or read: any spacing and case; 3–10 letters and digits once normalised. */
export const plateField = z
  .string({ error: PLATE_EMPTY_MESSAGE })
  .max(40, PLATE_LENGTH_MESSAGE)
  .refine(isSingleLineText, { error: 'Number plate contains characters that are not allowed', abort: true })
  .refine((value) => normalisePlate(value) !== '', { error: PLATE_EMPTY_MESSAGE, abort: true })
  .refine((value) => {
    const length = normalisePlate(value).length;
    return length >= PLATE_MIN_LENGTH && length <= PLATE_MAX_LENGTH;
  }, PLATE_LENGTH_MESSAGE);

const confidenceField = z.number({ error: 'Confidence is a number between 0 and 1' }).min(0, 'Confidence is at least 0').max(1, 'Confidence is at most 1');

/** POST /api/sites/:siteId/plate-reads — a plate typed at the gate or read in the browser. */
export const plateReadBodySchema = z.object({
  plate: plateField,
  source: z.enum(['typed', 'photo', 'camera'], { error: 'Source is typed, photo or camera' }).default('typed'),
  confidence: confidenceField.optional(),
});
export type PlateReadBody = z.input<typeof plateReadBodySchema>;

/** How far a camera's `capturedAt` may run ahead of the server's clock (clock drift), and how old a buffered read may be. */
export const CAPTURED_AT_LIMITS = { aheadMs: 5 * 60_000, behindMs: 30 * 86_400_000 } as const;

/** Null when `capturedAt` is plausible at `now`, else the 400's message. */
export function capturedAtProblem(capturedAt: Date, now: Date): string | null {
  if (capturedAt.getTime() > now.getTime() + CAPTURED_AT_LIMITS.aheadMs) return 'capturedAt is in the future (more than 5 minutes ahead of the server clock)';
  if (capturedAt.getTime() < now.getTime() - CAPTURED_AT_LIMITS.behindMs) return 'capturedAt is more than 30 days ago';
  return null;
}

/** POST /api/anpr/:siteId/reads — a site camera's read as JSON. */
export const webhookReadBodySchema = z.object({
  plate: plateField,
  confidence: confidenceField.optional(),
  camera: z
    .string({ error: 'Camera is a name' })
    .trim()
    .max(100, 'Camera name is too long (100 characters at most)')
    .refine(isSingleLineText, 'Camera name contains characters that are not allowed')
    .optional(),
  capturedAt: z.iso.datetime({ offset: true, error: 'capturedAt is an ISO 8601 date and time, e.g. 2026-11-23T08:15:00Z' }).optional(),
});
export type WebhookReadBody = z.input<typeof webhookReadBodySchema>;

export const plateReadListQuerySchema = z.object({
  status: z.enum(['unmatched', 'ambiguous', 'matched', 'resolved', 'ignored'], { error: 'Status is unmatched, ambiguous, matched, resolved or ignored' }).optional(),
  page: z.coerce.number({ error: 'Page is a number' }).int('Page is a whole number').min(1, 'Page starts at 1').max(10_000, 'Page is too large').default(1),
});

export const resolvePlateReadBodySchema = z.object({
  bookingId: z.uuid({ error: 'Choose the booking this vehicle belongs to' }),
});

/** A booking the read may belong to, and what the gate can do for it. */
export const plateCandidateSchema = z.object({
  bookingId: z.string(),
  version: z.number(),
  tsrNumber: z.string(),
  tenantName: z.string(),
  vehicleRegistration: z.string(),
  bayName: z.string(),
  startTime: z.string(),
  status: z.string(),
  /** Similarity of the read to the registration, 0–1. */
  score: z.number(),
  action: z.enum(PLATE_CANDIDATE_ACTIONS),
});
export type PlateCandidateDto = z.infer<typeof plateCandidateSchema>;

export const plateReadSchema = z.object({
  id: z.string(),
  plate: z.string(),
  raw: z.string().nullable(),
  source: z.enum(PLATE_READ_SOURCES),
  confidence: z.number().nullable(),
  camera: z.string().nullable(),
  capturedAt: z.string(),
  status: z.enum(PLATE_READ_STATUSES),
  /** The booking it matched or was resolved to. */
  bookingId: z.string().nullable(),
  /** What was done: 'checked_in' (automatic check-in), 'checked_out', or null. */
  action: z.string().nullable(),
  createdAt: z.string(),
  candidates: z.array(plateCandidateSchema),
});
export type PlateReadDto = z.infer<typeof plateReadSchema>;

/** The answer to a read: the read (or the first read of this plate within 60 s), and the automatic check-in's outcome. */
export const plateReadResultSchema = plateReadSchema.extend({
  /** True when the same plate was read at this site less than 60 s before: nothing new was stored. */
  repeat: z.boolean(),
  /** Null when no automatic check-in was attempted. */
  autoCheckIn: z
    .object({
      ok: z.boolean(),
      bookingId: z.string(),
      /** Why it was refused (e.g. outside the check-in window): check the vehicle in by hand. */
      code: z.string().optional(),
      message: z.string().optional(),
    })
    .nullable(),
  /**
   * When nothing expected now matches: the site's booking (approved or pending) of this plate
   * starting later today in the site's time zone, so the gate can say "booked for 16:30 today";
   * else null.
   */
  laterToday: z
    .object({
      bookingId: z.string(),
      tsrNumber: z.string(),
      vehicleRegistration: z.string(),
      bayName: z.string(),
      startTime: z.string(),
      status: z.string(),
    })
    .nullable(),
});
export type PlateReadResult = z.infer<typeof plateReadResultSchema>;

export const plateReadListSchema = z.object({
  items: z.array(plateReadSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type PlateReadList = z.infer<typeof plateReadListSchema>;
