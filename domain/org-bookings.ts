import { z } from 'zod';
import { BOOKING_STATUSES } from './enums';
import { bookingRequestSchema, isCalendarDate } from './booking-request';
import { multiLine } from './text-rules';

// The organization's booking workspace: what the API takes and answers. The web derives its types
// from these schemas (no hand-written copies).

export const BOOKING_SORT_FIELDS = ['startTime', 'createdAt', 'tenantName', 'status', 'tsrNumber'] as const;
export const BOOKING_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_BOOKING_PAGE_SIZE = 25;

const uuid = z.string().uuid();
const isoDateSchema = z.string().refine(isCalendarDate, 'Use a calendar date as YYYY-MM-DD');

export const bookingListQuerySchema = z.object({
  status: z.array(z.enum(BOOKING_STATUSES)).or(z.enum(BOOKING_STATUSES).transform((s) => [s])).optional(),
  /** Site-local calendar days, inclusive. */
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
  siteId: uuid.optional(),
  bayId: uuid.optional(),
  /** TSR number, company or registration (case-insensitive, part of the text). */
  q: z.string().trim().max(100).optional(),
  sort: z.enum(BOOKING_SORT_FIELDS).default('startTime'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().refine((n) => (BOOKING_PAGE_SIZES as readonly number[]).includes(n), 'Page size must be 10, 25, 50 or 100').default(DEFAULT_BOOKING_PAGE_SIZE),
});
export type BookingListQuery = z.input<typeof bookingListQuerySchema>;

export const bookingListItemSchema = z.object({
  id: z.string(),
  version: z.number(),
  status: z.enum(BOOKING_STATUSES),
  tsrNumber: z.string(),
  tenantName: z.string(),
  siteId: z.string(),
  siteName: z.string(),
  bayId: z.string(),
  bayName: z.string(),
  timeZone: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  bookingType: z.string(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  source: z.string(),
  createdAt: z.string(),
});
export type BookingListItem = z.infer<typeof bookingListItemSchema>;

export const bookingListSchema = z.object({
  items: z.array(bookingListItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type BookingList = z.infer<typeof bookingListSchema>;

export const bookingDocumentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number(),
  createdAt: z.string(),
});

export const bookingHistoryEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  actorEmail: z.string().nullable(),
  actorRole: z.string().nullable(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});

export const bookingDetailSchema = bookingListItemSchema.extend({
  tsrSystemType: z.string().nullable(),
  tsrUrl: z.string().nullable(),
  contactName: z.string().nullable(),
  tenantEmail: z.string(),
  tenantPhone: z.string().nullable(),
  vehicleHeightM: z.number(),
  vehicleLengthM: z.number().nullable(),
  specialAccessNeeds: z.array(z.string()),
  goodsDescription: z.string().nullable(),
  expectedDurationMin: z.number(),
  driverInductionCompleted: z.boolean(),
  notes: z.string().nullable(),
  statusReason: z.string().nullable(),
  approvedAt: z.string().nullable(),
  declinedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  noShowAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The moves the caller may make now, the clock included (the server checks again on each). */
  allowedTransitions: z.array(z.enum(BOOKING_STATUSES)),
  /** The caller's clock-bound moves that are not open yet, with when each opens (ISO): shown as a note instead of a button. */
  upcomingTransitions: z.array(z.object({ to: z.enum(BOOKING_STATUSES), opensAt: z.string() })),
  /** Moves open by status and clock but held while the site is stopped (emergency), each with the server's refusal message. */
  heldTransitions: z.array(z.object({ to: z.enum(BOOKING_STATUSES), message: z.string() })),
  /**
   * A carrier's reschedule of this confirmed booking awaiting the site (SSC API): the requested
   * start and duration; an org admin accepts or refuses it. Null when none.
   */
  rescheduleRequest: z
    .object({ startTime: z.string(), expectedDurationMin: z.number(), requestedAt: z.string(), reasonCode: z.string().nullable(), comment: z.string().nullable() })
    .nullable()
    .optional(),
  documents: z.array(bookingDocumentSchema),
  history: z.array(bookingHistoryEntrySchema),
});
export type BookingDetail = z.infer<typeof bookingDetailSchema>;

/** Refusing a carrier's reschedule request: the reason the carrier is told (optional). */
export const rescheduleRefusalSchema = z.object({
  reason: z
    .string()
    .max(500, 'Reason must be at most 500 characters')
    .refine(...multiLine('Reason'))
    .optional(),
});
export type RescheduleRefusalInput = z.infer<typeof rescheduleRefusalSchema>;

const REASON_MAX = 500;

export const bookingTransitionSchema = z.object({
  to: z.enum(BOOKING_STATUSES),
  /** The version the screen showed: a newer one answers 409. */
  version: z.number().int().min(1),
  reason: z
    .string()
    .max(REASON_MAX, `Reason must be at most ${REASON_MAX} characters`)
    .refine(...multiLine('Reason'))
    .optional(),
});
export type BookingTransitionInput = z.infer<typeof bookingTransitionSchema>;

export const bookingExtendSchema = z.object({
  version: z.number().int().min(1),
  /** The new end: later than the current one. */
  endTime: z.string().datetime({ offset: true }),
});
export type BookingExtendInput = z.infer<typeof bookingExtendSchema>;

export const bookingRescheduleSchema = z.object({
  version: z.number().int().min(1),
  /** The site-local day and slot start (HH:mm), as on the portal. */
  date: isoDateSchema,
  slot: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time as HH:mm'),
  /** A particular bay; omitted: the best-fit free one. */
  bayId: uuid.optional(),
});
export type BookingRescheduleInput = z.infer<typeof bookingRescheduleSchema>;

/**
 * An admin books for a tenant: the portal's fields and rules, plus a chosen site and bay (else best fit),
 * an override of the minimum advance (audited), and whether it starts approved.
 */
export const adminBookingSchema = bookingRequestSchema.omit({ orgId: true, idempotencyKey: true }).extend({
  /** The site the date and slot are at (its own time zone); else the best fit over every site. */
  siteId: uuid.optional(),
  bayId: uuid.optional(),
  overrideMinAdvance: z.boolean().default(false),
  approve: z.boolean().default(true),
});
export type AdminBookingInput = z.input<typeof adminBookingSchema>;

/** What decides the bay an admin booking gets: the site, bay, day, slot, duration and vehicle. */
export const adminBookingPreviewSchema = adminBookingSchema.pick({
  siteId: true,
  bayId: true,
  date: true,
  slot: true,
  expectedDurationMin: true,
  vehicleHeightM: true,
  vehicleLengthM: true,
  specialAccessNeeds: true,
  overrideMinAdvance: true,
});
export type AdminBookingTarget = z.output<typeof adminBookingPreviewSchema>;

/** The bay the allocator would give that booking now (shown on the form before it is submitted). */
export const adminBookingPreviewResultSchema = z.object({
  siteId: z.string(),
  siteName: z.string(),
  bayId: z.string(),
  bayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
});
export type AdminBookingPreview = z.infer<typeof adminBookingPreviewResultSchema>;

/** The same booking at every site (its local date and slot at each): the admin form's availability per site. */
export const adminBookingSitesSchema = adminBookingPreviewSchema.omit({ siteId: true, bayId: true });
export type AdminBookingSitesTarget = z.output<typeof adminBookingSitesSchema>;

export const adminBookingSitesResultSchema = z.object({
  /**
   * The organization's booking policy (decision 039): when hauliers may choose the site, the admin
   * form shows where the booking could go at each site; under best fit over all sites `sites` is empty.
   */
  hauliersChooseSite: z.boolean(),
  sites: z.array(
    z.object({
      siteId: z.string(),
      siteName: z.string(),
      timeZone: z.string(),
      /** The bay it would get there now, or null with the reason in `message`. */
      bayName: z.string().nullable(),
      startTime: z.string().nullable(),
      endTime: z.string().nullable(),
      message: z.string().nullable(),
    }),
  ),
});
export type AdminBookingSites = z.infer<typeof adminBookingSitesResultSchema>;
