import { z } from 'zod';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from './constants';
import { languageSchema } from './language-schema';
import { type Language } from './languages';
import { multiLine, singleLine } from './text-rules';
import { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M, normalizeDuration } from './booking-request-limits';
import {
  BOOKING_TYPES,
  SPECIAL_ACCESS_NEEDS,
  TSR_SYSTEM_TYPES,
  VEHICLE_TYPES,
  type BookingType,
  type SpecialAccessNeed,
  type TsrSystemType,
  type VehicleType,
} from './enums';

// The public booking request (spec §3 "Booking request form state", §5 validation rules).
// One schema for the web form and POST of the booking API, so both show the same messages.

/** Spec §5, in the spec's order: validateBookingRequest reports failures in this order. */
export const BOOKING_REQUEST_MESSAGES = {
  tsrNumberRequired: 'TSR Number is required',
  companyNameRequired: 'Company Name is required',
  contactNameRequired: 'Contact Name is required',
  emailRequired: 'Email is required',
  vehicleTypeRequired: 'Vehicle Type is required',
  vehicleRegistrationRequired: 'Vehicle Registration is required',
  vehicleHeightRequired: 'Vehicle Height is required',
  dateRequired: 'Date is required',
  timeSlotRequired: 'Time slot is required',
  driverInductionRequired: 'Driver induction must be completed',
  termsRequired: 'Terms and conditions must be accepted',
  emailInvalid: 'Please enter a valid email address',
} as const;

const SPEC_MESSAGE_ORDER: readonly string[] = Object.values(BOOKING_REQUEST_MESSAGES);
const M = BOOKING_REQUEST_MESSAGES;

/** Our messages for inputs the spec says nothing about. */
// Kept apart from the schema so the booking form can show its fields before zod has loaded.
export { MAX_VEHICLE_HEIGHT_M, MAX_VEHICLE_LENGTH_M, normalizeDuration };

export const DURATION_RANGE_MESSAGE = `Expected duration must be between ${MIN_DURATION_MIN} and ${MAX_DURATION_MIN} minutes`;

/** Length caps of the text fields (characters, after trimming). */
export const TEXT_LIMITS = {
  tsrNumber: 100,
  tsrUrl: 2000,
  tenantName: 200,
  contactName: 200,
  tenantEmail: 254,
  tenantPhone: 50,
  vehicleRegistration: 20,
  goodsDescription: 2000,
  notes: 2000,
  idempotencyKey: 200,
} as const;

/** Spec §5: text, an @, a dotted domain, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Missing (undefined/null) answers `required`; any other non-string answers "must be text". */
const textTypeError = (required: string, label: string) => (issue: { input?: unknown }) =>
  issue.input == null ? required : `${label} must be text`;

/** A required one-line text field, checked after trimming. */
function requiredText(label: string, required: string, max: number) {
  return z
    .string({ error: textTypeError(required, label) })
    .trim()
    .refine(...singleLine(label))
    .min(1, { error: required, abort: true })
    .max(max, { error: `${label} is too long`, abort: true });
}

/** A required text field with a fixed format (date, time). */
function formattedText(label: string, required: string, isValid: (value: string) => boolean, invalid: string) {
  return z
    .string({ error: textTypeError(required, label) })
    .trim()
    .refine(...singleLine(label))
    .min(1, { error: required, abort: true })
    .refine(isValid, { error: invalid });
}

/** An optional text field (one line unless `isMultiLine`): trimmed; blank or null becomes undefined. */
function optionalText(label: string, max: number, isMultiLine = false) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .refine(...(isMultiLine ? multiLine(label) : singleLine(label)))
    .max(max, { error: `${label} is too long`, abort: true })
    .nullish()
    .transform((value) => (value ? value : undefined));
}

/** A required choice from `values`; blank answers `required`. */
function requiredChoice<const T extends readonly [string, ...string[]]>(label: string, required: string, values: T) {
  return z
    .string({ error: textTypeError(required, label) })
    .trim()
    .refine(...singleLine(label))
    .min(1, { error: required, abort: true })
    .pipe(z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }));
}

/** An optional choice: blank or null becomes undefined. */
function optionalChoice<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z
    .string({ error: `${label} must be one of: ${values.join(', ')}` })
    .trim()
    .nullish()
    .transform((value) => (value ? value : undefined))
    .pipe(z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).optional());
}

/** A checkbox that must be ticked: anything but `true` answers `message`. */
function mustBeTicked(message: string) {
  return z.boolean({ error: message }).refine((isTicked) => isTicked, { error: message });
}

/** A number, or the text of one (HTML inputs give strings); blank and null become undefined. */
function numberLike(typeError: string) {
  return z
    .union([z.number(), z.string(), z.null()], { error: typeError })
    .optional()
    .transform(toOptionalNumber);
}

function toOptionalNumber(value: number | string | null | undefined): number | undefined {
  if (value == null) return undefined;
  if (typeof value === 'number') return value;
  const text = value.trim();
  return text === '' ? undefined : Number(text);
}

/** True when `date` is a real calendar date written 'YYYY-MM-DD'. */
export function isCalendarDate(date: string): boolean {
  if (!DATE_PATTERN.test(date)) return false;
  const [year, month, day] = date.split('-').map(Number);
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** True for 'HH:mm', 00:00 to 23:59. */
export function isTimeOfDay(time: string): boolean {
  return TIME_PATTERN.test(time);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const vehicleHeight = numberLike(M.vehicleHeightRequired).pipe(
  z
    .number({ error: M.vehicleHeightRequired })
    .gt(0, { error: M.vehicleHeightRequired, abort: true })
    .max(MAX_VEHICLE_HEIGHT_M, `Vehicle Height must be at most ${MAX_VEHICLE_HEIGHT_M} m`),
);

const vehicleLength = numberLike('Vehicle Length must be a number').pipe(
  z
    .number({ error: 'Vehicle Length must be a number' })
    .min(0, { error: 'Vehicle Length cannot be negative', abort: true })
    .max(MAX_VEHICLE_LENGTH_M, `Vehicle Length must be at most ${MAX_VEHICLE_LENGTH_M} m`)
    .optional(),
);

const durationNumber = z
  .number({ error: 'Expected duration must be a number of minutes' })
  .int({ error: 'Expected duration must be a whole number of minutes', abort: true })
  .min(MIN_DURATION_MIN, DURATION_RANGE_MESSAGE)
  .max(MAX_DURATION_MIN, DURATION_RANGE_MESSAGE);

/** Missing means the form's default (30); anything sent must be a number (NaN, null and 'abc' are refused). */
const expectedDuration = z
  .union([z.number(), z.string(), z.null()], { error: 'Expected duration must be a number of minutes' })
  .optional()
  .transform((value) => (value === undefined ? DEFAULT_DURATION_MIN : (toOptionalNumber(value) ?? Number.NaN)))
  .pipe(durationNumber);

const emailField = requiredText('Email', M.emailRequired, TEXT_LIMITS.tenantEmail).refine(
  (value) => EMAIL_PATTERN.test(value),
  { error: M.emailInvalid },
);

const specialAccessNeeds = z
  .array(z.enum(SPECIAL_ACCESS_NEEDS, { error: `Special access needs must be among: ${SPECIAL_ACCESS_NEEDS.join(', ')}` }), {
    error: 'Special access needs must be a list',
  })
  .nullish()
  .transform((needs) => [...new Set(needs ?? [])]);

/** The booking request, fields in the form's order (the order of messages outside the spec's list). */
export const bookingRequestSchema = z.object({
  orgId: z.guid({
    error: (issue) => (issue.input == null || issue.input === '' ? 'Organization is required' : 'Organization is invalid'),
  }),
  /** The site the haulier chose (only when the organization lets hauliers choose the site); none: best fit over all sites. */
  siteId: z.guid({ error: 'Site is invalid' }).nullish(),
  tsrNumber: requiredText('TSR Number', M.tsrNumberRequired, TEXT_LIMITS.tsrNumber),
  tsrSystemType: optionalChoice('TSR System Type', TSR_SYSTEM_TYPES),
  tsrUrl: optionalText('TSR URL', TEXT_LIMITS.tsrUrl).refine((url) => url === undefined || isHttpUrl(url), {
    error: 'TSR URL must be a valid web address (http or https)',
  }),
  tenantName: requiredText('Company Name', M.companyNameRequired, TEXT_LIMITS.tenantName),
  contactName: requiredText('Contact Name', M.contactNameRequired, TEXT_LIMITS.contactName),
  tenantEmail: emailField,
  tenantPhone: optionalText('Phone', TEXT_LIMITS.tenantPhone),
  bookingType: optionalChoice('Booking Type', BOOKING_TYPES).transform((type): BookingType => type ?? 'delivery'),
  date: formattedText('Date', M.dateRequired, isCalendarDate, 'Date must be a valid date (YYYY-MM-DD)'),
  slot: formattedText('Time slot', M.timeSlotRequired, isTimeOfDay, 'Time slot must be a time of day (HH:mm)'),
  expectedDurationMin: expectedDuration,
  vehicleType: requiredChoice('Vehicle Type', M.vehicleTypeRequired, VEHICLE_TYPES),
  vehicleRegistration: requiredText(
    'Vehicle Registration',
    M.vehicleRegistrationRequired,
    TEXT_LIMITS.vehicleRegistration,
  ).transform((registration) => registration.toUpperCase()),
  vehicleHeightM: vehicleHeight,
  vehicleLengthM: vehicleLength,
  specialAccessNeeds,
  goodsDescription: optionalText('Goods Description', TEXT_LIMITS.goodsDescription, true),
  driverInductionCompleted: mustBeTicked(M.driverInductionRequired),
  termsAccepted: mustBeTicked(M.termsRequired),
  notes: optionalText('Notes', TEXT_LIMITS.notes, true),
  idempotencyKey: optionalText('Idempotency key', TEXT_LIMITS.idempotencyKey),
  /** The language the haulier booked in: their e-mails and texts use it (none: the organization's portal default). */
  language: languageSchema.optional(),
});

/** What the form or an API client may send. */
export type BookingRequestInput = z.input<typeof bookingRequestSchema>;
/** A valid request: trimmed, registration upper-cased, blanks as undefined, defaults applied. */
export type BookingRequest = z.output<typeof bookingRequestSchema>;

export type BookingRequestValidation = { ok: true; data: BookingRequest } | { ok: false; messages: string[] };

/** The spec's messages first, in the spec's order; then ours, in the form's field order; no repeats. */
function orderMessages(messages: string[]): string[] {
  const rank = (message: string) => {
    const index = SPEC_MESSAGE_ORDER.indexOf(message);
    return index === -1 ? SPEC_MESSAGE_ORDER.length : index;
  };
  const ordered = messages.map((message, position) => ({ message, position }));
  ordered.sort((a, b) => rank(a.message) - rank(b.message) || a.position - b.position);
  return [...new Set(ordered.map((entry) => entry.message))];
}

/** Validates a booking request and collects every failed rule (spec §5). */
export function validateBookingRequest(input: unknown): BookingRequestValidation {
  const parsed = bookingRequestSchema.safeParse(input ?? {});
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, messages: orderMessages(parsed.error.issues.map((issue) => issue.message)) };
}

/** The text of the 'Validation Error' toast: the messages joined by commas. */
export function formatValidationError(messages: readonly string[]): string {
  return messages.join(', ');
}

/** Spec §3/§9: millimetres are metres × 1000, rounded. */
export function metresToMm(metres: number): number {
  return Math.round(metres * 1000);
}

/** Spec §3: empty optional fields are stored as null (blank strings, empty lists, undefined). */
export function emptyToNull<T>(value: T | null | undefined): T | null {
  if (value == null) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  return value;
}

/** The booking-record fields that come from the request (spec §3 "Booking record written"). */
export type BookingRecordFields = {
  /** Absent: the organization's portal default, decided where the booking is inserted. */
  language?: Language;
  tsrNumber: string;
  tsrSystemType: TsrSystemType | null;
  tsrUrl: string | null;
  tenantName: string;
  contactName: string;
  tenantEmail: string;
  tenantPhone: string | null;
  bookingType: BookingType;
  startTime: Date;
  endTime: Date;
  windowStart: Date;
  windowEnd: Date;
  vehicleType: VehicleType;
  vehicleRegistration: string;
  vehicleHeightMm: number;
  vehicleLengthMm: number | null;
  vehicleHeightM: number;
  vehicleLengthM: number | null;
  specialAccessNeeds: SpecialAccessNeed[] | null;
  goodsDescription: string | null;
  expectedDurationMin: number;
  driverInductionCompleted: boolean;
  notes: string | null;
  idempotencyKey: string | null;
};

/**
 * Maps a valid request and its slot times onto the booking record's columns; the caller adds
 * org, site, bay, status and source. Window start/end equal start/end (spec §3).
 */
export function toBookingRecord(request: BookingRequest, times: { start: Date; end: Date }): BookingRecordFields {
  const lengthM = request.vehicleLengthM ?? null;
  return {
    tsrNumber: request.tsrNumber,
    tsrSystemType: emptyToNull(request.tsrSystemType),
    tsrUrl: emptyToNull(request.tsrUrl),
    tenantName: request.tenantName,
    contactName: request.contactName,
    tenantEmail: request.tenantEmail,
    tenantPhone: emptyToNull(request.tenantPhone),
    bookingType: request.bookingType,
    startTime: times.start,
    endTime: times.end,
    windowStart: times.start,
    windowEnd: times.end,
    vehicleType: request.vehicleType,
    vehicleRegistration: request.vehicleRegistration,
    vehicleHeightMm: metresToMm(request.vehicleHeightM),
    vehicleLengthMm: lengthM === null ? null : metresToMm(lengthM),
    vehicleHeightM: request.vehicleHeightM,
    vehicleLengthM: lengthM,
    specialAccessNeeds: emptyToNull(request.specialAccessNeeds),
    goodsDescription: emptyToNull(request.goodsDescription),
    expectedDurationMin: request.expectedDurationMin,
    driverInductionCompleted: request.driverInductionCompleted,
    notes: emptyToNull(request.notes),
    idempotencyKey: emptyToNull(request.idempotencyKey),
    ...(request.language ? { language: request.language } : {}),
  };
}
