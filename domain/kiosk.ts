import { z } from 'zod';
import { TEXT_LIMITS } from './booking-request';
import { BOOKING_STATUSES, BOOKING_TYPES, type BookingType } from './enums';
import { languageSchema } from './language-schema';
import { singleLine } from './text-rules';

// The gate kiosk (issue 26, decision 041): a tablet at the gate house, registered by an org admin
// as a device of one site (a secret like the camera tokens), on which drivers check themselves in
// by arrival code (typed or scanned) or plate, or register as a walk-in the dock staff accept.

/** The secret's recognisable prefix. */
export const KIOSK_SECRET_PREFIX = 'bwkiosk_';
/** The header the kiosk sends: `Authorization: Kiosk <secret>`. */
export const KIOSK_AUTH_SCHEME = 'Kiosk';
export const MAX_ACTIVE_KIOSKS_PER_SITE = 20;
/** Bookings a kiosk can find: from this many days before the site's today … */
export const KIOSK_LOOKUP_DAYS_BEFORE = 2;
/** … to this many days after. */
export const KIOSK_LOOKUP_DAYS_AFTER = 30;

const name = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(...singleLine(label));

// ---- Devices (org settings) --------------------------------------------------------------------

export const kioskDeviceCreateSchema = z.object({
  siteId: z.string({ error: 'Choose a site' }).min(1, 'Choose a site').max(100, 'Choose a site'),
  name: name('Name', 80),
});
export type KioskDeviceCreateInput = z.input<typeof kioskDeviceCreateSchema>;

export const kioskDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  siteId: z.string(),
  siteName: z.string(),
  /** The secret's last four characters. */
  hint: z.string(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type KioskDevice = z.infer<typeof kioskDeviceSchema>;

/** The answer to registering a kiosk: the only time its secret is shown. */
export const createdKioskDeviceSchema = kioskDeviceSchema.extend({ secret: z.string() });
export type CreatedKioskDevice = z.infer<typeof createdKioskDeviceSchema>;

// ---- The kiosk's own API ------------------------------------------------------------------------

export const kioskMeSchema = z.object({
  deviceName: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  orgName: z.string(),
  /** The organization's portal default: the kiosk returns to it for the next driver. */
  defaultLanguage: languageSchema,
  hasLogo: z.boolean(),
});
export type KioskMe = z.infer<typeof kioskMeSchema>;

const CHECK_IN_INPUT = 'Scan your QR code, or type your arrival code or your vehicle registration';

/** What the driver gave: the arrival code (typed or the QR code's text) or the plate. */
export const kioskCheckInSchema = z
  .object({
    code: z.string().trim().max(100, 'The code is too long').optional(),
    plate: z.string().trim().max(TEXT_LIMITS.vehicleRegistration, `Vehicle Registration must be at most ${TEXT_LIMITS.vehicleRegistration} characters`).optional(),
  })
  .refine((v) => !!v.code || !!v.plate, { error: CHECK_IN_INPUT });
export type KioskCheckInInput = z.input<typeof kioskCheckInSchema>;

export const KIOSK_REFUSALS = ['too_early', 'too_late', 'not_approved', 'not_active', 'vehicle_on_site', 'site_stopped'] as const;
export type KioskRefusal = (typeof KIOSK_REFUSALS)[number];

const bookingFacts = {
  bookingId: z.string(),
  vehicleRegistration: z.string(),
  tsrNumber: z.string(),
  startTime: z.string(),
};

/** The kiosk's answer: go to a bay, wait to be called (place in the queue), or why not and what to do. */
export const kioskCheckInResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('go_to_bay'), ...bookingFacts, bayName: z.string() }),
  z.object({ outcome: z.literal('wait'), ...bookingFacts, bayName: z.string(), position: z.number().int().min(1) }),
  z.object({
    outcome: z.literal('refused'),
    ...bookingFacts,
    reason: z.enum(KIOSK_REFUSALS),
    /** What happened, in the site's time. */
    message: z.string(),
    /** What the driver should do now. */
    action: z.string(),
    /**
     * The facts the message is written from, so a kiosk can say it in the driver's language:
     * when check-in opens or closed (too_early, too_late), the booking's status (not_active), the
     * site (site_stopped). Absent when they do not apply.
     */
    opensAt: z.string().nullable().optional(),
    closesAt: z.string().nullable().optional(),
    status: z.string().optional(),
    siteName: z.string().optional(),
  }),
]);
export type KioskCheckInResult = z.infer<typeof kioskCheckInResultSchema>;

/** The booking a kiosk checked in, polled while the driver waits. */
export const kioskBookingStatusSchema = z.object({
  bookingId: z.string(),
  status: z.enum(BOOKING_STATUSES),
  /** Place in the site's queue while checked in; null otherwise. */
  position: z.number().int().min(1).nullable(),
  bayName: z.string(),
});
export type KioskBookingStatus = z.infer<typeof kioskBookingStatusSchema>;

// ---- Walk-in requests ---------------------------------------------------------------------------

export const kioskWalkInRequestSchema = z.object({
  plate: name('Vehicle Registration', TEXT_LIMITS.vehicleRegistration).transform((p) => p.toUpperCase()),
  company: name('Company Name', TEXT_LIMITS.tenantName),
  driverName: z
    .string()
    .trim()
    .max(TEXT_LIMITS.contactName, `Driver name must be at most ${TEXT_LIMITS.contactName} characters`)
    .refine(...singleLine('Driver name'))
    .optional()
    .transform((v) => v || undefined),
  phone: z
    .string()
    .trim()
    .max(TEXT_LIMITS.tenantPhone, `Phone must be at most ${TEXT_LIMITS.tenantPhone} characters`)
    .refine(...singleLine('Phone'))
    .optional()
    .transform((v) => v || undefined),
  bookingType: z.enum(BOOKING_TYPES, { error: 'Choose delivery, pickup or both' }).default('delivery'),
});
export type KioskWalkInRequestInput = z.input<typeof kioskWalkInRequestSchema>;

export const WALK_IN_REQUEST_STATUSES = ['pending', 'accepted', 'declined'] as const;

export const walkInRequestSchema = z.object({
  id: z.string(),
  status: z.enum(WALK_IN_REQUEST_STATUSES),
  vehicleRegistration: z.string(),
  companyName: z.string(),
  driverName: z.string().nullable(),
  driverPhone: z.string().nullable(),
  bookingType: z.enum(BOOKING_TYPES),
  deviceName: z.string().nullable(),
  createdAt: z.string(),
  bookingId: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type WalkInRequest = z.infer<typeof walkInRequestSchema>;

/** What the kiosk shows after registering: the request waits for the dock staff. */
export const kioskWalkInRequestResultSchema = z.object({ requestId: z.string(), status: z.enum(WALK_IN_REQUEST_STATUSES) });

export const declineWalkInRequestSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(500, 'Reason must be at most 500 characters')
    .optional()
    .transform((v) => v || undefined),
});

export const isBookingType = (v: string): v is BookingType => (BOOKING_TYPES as readonly string[]).includes(v);
