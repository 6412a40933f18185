import { z } from 'zod';
import { bookingRequestSchema, isCalendarDate, isTimeOfDay, TEXT_LIMITS } from './booking-request';
import { BOOKING_TYPES, VEHICLE_TYPES } from './enums';
import { languageSchema } from './language-schema';

// Haulier accounts without passwords (issue 27 item 1, decision 044): the e-mailed one-time link, the
// haulier's session, "My bookings" across organizations, saved vehicles and contacts, rebooking, and a
// signed-in haulier's request of a standing booking. Shared by the server's routes and the web's forms.

/** How long an e-mailed sign-in link works, and how long a haulier stays signed in. */
export const SIGN_IN_LINK_TTL_MIN = 15;
export const HAULIER_SESSION_DAYS = 30;
/** Sign-in links one e-mail address may ask for within the window (plus a per-IP limit on the route). */
export const SIGN_IN_LINKS_PER_EMAIL = 5;
export const SIGN_IN_LINK_WINDOW_MIN = 15;
/** "My bookings" page size. */
export const HAULIER_BOOKINGS_PAGE_SIZE = 20;
/** The haulier's session cookie (HttpOnly; only sent to /api/public/haulier). */
export const HAULIER_SESSION_COOKIE = 'bw_haulier';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const field = bookingRequestSchema.shape;

export const haulierEmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(TEXT_LIMITS.tenantEmail, `Email must be at most ${TEXT_LIMITS.tenantEmail} characters`)
  .refine((value) => EMAIL_PATTERN.test(value), { error: 'Email must be a valid e-mail address' });

export const signInLinkRequestSchema = z.object({ email: haulierEmailSchema, language: languageSchema.optional() });
export type SignInLinkRequest = z.input<typeof signInLinkRequestSchema>;

export const signInLinkAnswerSchema = z.object({ message: z.string() });
/** The one answer to every accepted link request, whether or not the address has bookings (no enumeration). */
export const SIGN_IN_LINK_SENT = 'If this address can sign in, a link is on its way. It works once, for 15 minutes.';

export const haulierSessionRequestSchema = z.object({
  token: z.string({ error: 'The sign-in link is incomplete' }).trim().min(20, 'The sign-in link is incomplete').max(200, 'The sign-in link is not valid'),
  language: languageSchema.optional(),
});

export const haulierAccountSchema = z.object({ id: z.string(), email: z.string(), language: z.string() });
export type HaulierAccount = z.infer<typeof haulierAccountSchema>;
/** GET /haulier/me: the signed-in haulier, or `{ signedIn: false }` (a 200, so a page asking whether anyone is signed in logs no failed request). */
export const haulierMeSchema = z.union([haulierAccountSchema.extend({ signedIn: z.literal(true) }), z.object({ signedIn: z.literal(false) })]);
export type HaulierMe = z.infer<typeof haulierMeSchema>;

export const HAULIER_BOOKING_SCOPES = ['upcoming', 'past'] as const;
export type HaulierBookingScope = (typeof HAULIER_BOOKING_SCOPES)[number];

export const haulierBookingsQuerySchema = z.object({
  scope: z.enum(HAULIER_BOOKING_SCOPES, { error: 'Scope must be upcoming or past' }).default('upcoming'),
  page: z.coerce.number({ error: 'Page must be a whole number from 1' }).int('Page must be a whole number from 1').min(1, 'Page must be a whole number from 1').max(10_000, 'Page is too large').default(1),
});

/** One of the haulier's bookings: nothing of its organization beyond the booking itself and where it is. */
export const haulierBookingSchema = z.object({
  id: z.string(),
  organizationName: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  status: z.string(),
  bookingType: z.string(),
  tsrNumber: z.string(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  /** The booking's private manage page; null for a booking made without one. */
  manageUrl: z.string().nullable(),
});
export type HaulierBooking = z.infer<typeof haulierBookingSchema>;

export const haulierBookingsPageSchema = z.object({
  items: z.array(haulierBookingSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type HaulierBookingsPage = z.infer<typeof haulierBookingsPageSchema>;

/** The request form's values from one of the haulier's bookings: everything but the date and the slot. */
export const rebookPrefillSchema = z.object({
  orgId: z.string(),
  siteId: z.string().nullable(),
  tsrNumber: z.string(),
  tsrSystemType: z.string().nullable(),
  tenantName: z.string(),
  contactName: z.string().nullable(),
  tenantEmail: z.string(),
  tenantPhone: z.string().nullable(),
  bookingType: z.string(),
  expectedDurationMin: z.number().int(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  vehicleHeightM: z.number(),
  vehicleLengthM: z.number().nullable(),
  specialAccessNeeds: z.array(z.string()),
  goodsDescription: z.string().nullable(),
});
export type RebookPrefill = z.infer<typeof rebookPrefillSchema>;

export const savedVehicleInputSchema = z.object({
  label: z
    .string()
    .trim()
    .max(60, 'Label must be at most 60 characters')
    .nullish()
    .transform((value) => (value ? value : null)),
  vehicleType: field.vehicleType,
  vehicleRegistration: field.vehicleRegistration,
  vehicleHeightM: field.vehicleHeightM,
  vehicleLengthM: field.vehicleLengthM,
});
export type SavedVehicleInput = z.input<typeof savedVehicleInputSchema>;

export const savedVehicleSchema = z.object({
  id: z.string(),
  label: z.string().nullable(),
  vehicleType: z.enum(VEHICLE_TYPES),
  vehicleRegistration: z.string(),
  vehicleHeightM: z.number(),
  vehicleLengthM: z.number().nullable(),
});
export type SavedVehicle = z.infer<typeof savedVehicleSchema>;

export const savedContactInputSchema = z.object({
  companyName: field.tenantName,
  contactName: z
    .string()
    .trim()
    .max(TEXT_LIMITS.contactName, `Contact Name must be at most ${TEXT_LIMITS.contactName} characters`)
    .nullish()
    .transform((value) => (value ? value : null)),
  phone: z
    .string()
    .trim()
    .max(TEXT_LIMITS.tenantPhone, `Phone must be at most ${TEXT_LIMITS.tenantPhone} characters`)
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type SavedContactInput = z.input<typeof savedContactInputSchema>;

export const savedContactSchema = z.object({ id: z.string(), companyName: z.string(), contactName: z.string().nullable(), phone: z.string().nullable() });
export type SavedContact = z.infer<typeof savedContactSchema>;

export const haulierItemParamsSchema = z.object({ id: z.guid({ error: 'Not found' }) });

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const standingRequestSchema = z
  .object({
    orgId: z.guid({ error: 'Organization is invalid' }),
    siteId: z.guid({ error: 'Site is invalid' }),
    tenantName: field.tenantName,
    contactName: field.contactName,
    tenantPhone: field.tenantPhone,
    bookingType: z.enum(BOOKING_TYPES, { error: `Booking Type must be one of: ${BOOKING_TYPES.join(', ')}` }).default('delivery'),
    tsrNumber: field.tsrNumber,
    weekdays: z
      .array(z.number().int().min(1, 'Weekdays are 1 (Monday) to 7 (Sunday)').max(7, 'Weekdays are 1 (Monday) to 7 (Sunday)'), { error: 'Choose at least one weekday' })
      .min(1, 'Choose at least one weekday')
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    startLocal: z.string({ error: 'Start time is required' }).refine(isTimeOfDay, { error: 'Start time must be a time of day (HH:mm)' }),
    durationMin: z.number({ error: 'Duration must be a number of minutes' }).int('Duration must be a whole number of minutes').min(5, 'Duration must be between 5 and 1440 minutes').max(1440, 'Duration must be between 5 and 1440 minutes'),
    startsOn: z.string({ error: 'Start date is required' }).refine(isCalendarDate, { error: 'Start date must be a valid date (YYYY-MM-DD)' }),
    endsOn: z
      .string()
      .refine(isCalendarDate, { error: 'End date must be a valid date (YYYY-MM-DD)' })
      .nullish()
      .transform((value) => value ?? null),
    vehicleType: field.vehicleType,
    vehicleRegistration: field.vehicleRegistration,
    vehicleHeightM: field.vehicleHeightM,
    vehicleLengthM: field.vehicleLengthM,
    goodsDescription: field.goodsDescription,
    notes: field.notes,
    language: languageSchema.optional(),
  })
  .refine((request) => request.endsOn === null || request.endsOn >= request.startsOn, { error: 'End date must be on or after the start date', path: ['endsOn'] });
export type StandingRequestInput = z.input<typeof standingRequestSchema>;

export const standingRequestAnswerSchema = z.object({ id: z.string(), status: z.literal('requested') });

/** One of the haulier's standing bookings (their request, or a series set up with their address). */
export const haulierStandingBookingSchema = z.object({
  id: z.string(),
  status: z.enum(['requested', 'active', 'declined', 'cancelled', 'ended']),
  organizationName: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  weekdays: z.array(z.number().int()),
  startLocal: z.string(),
  durationMin: z.number().int(),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  tsrNumber: z.string(),
  vehicleRegistration: z.string(),
  /** The organization's reason when it declined or cancelled the series. */
  decisionReason: z.string().nullable(),
  requestedByHaulier: z.boolean(),
  createdAt: z.string(),
});
export type HaulierStandingBooking = z.infer<typeof haulierStandingBookingSchema>;
export const haulierStandingBookingsSchema = z.object({ items: z.array(haulierStandingBookingSchema) });
export type HaulierStandingBookings = z.infer<typeof haulierStandingBookingsSchema>;
/** The most a haulier's standing list shows (newest first). */
export const HAULIER_STANDING_LIST_LIMIT = 100;
