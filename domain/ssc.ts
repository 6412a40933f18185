import { z } from 'zod';
import { SPECIAL_ACCESS_NEEDS, type SpecialAccessNeed, type VehicleType } from './enums';
import { MAX_DURATION_MIN, MIN_DURATION_MIN } from './constants';

// The Scheduling Standards Consortium's appointment API v1.1 (docs/ssc/ssc-appointments-openapi-v1.1.yaml),
// as Baywise serves it under /api/ssc (docs/ssc-mapping.md, docs/decisions/020-carrier-api.md).
// The request schemas below mirror the standard's JSON schemas (oneOf, required, enums, formats,
// additionalProperties) so a body the standard refuses is refused here with every problem listed;
// the contract test checks both agree against the standard's document with an OpenAPI validator.

/**
 * The standard's four problem kinds. Their URIs go in `type` and the kind's schema title in
 * `title`: the standard lists its problems as a oneOf whose last branch (a generic problem: any
 * string title) also matches every typed one, so an item titled with the URI matches two branches
 * and no validator accepts it (docs/decisions/020-carrier-api.md). Titled by name, an item matches
 * the generic branch alone and still carries the standard's URI and fields.
 */
export const SSC_PROBLEM_TITLES = {
  entityNotFound: 'EntityNotFoundError',
  capabilityNotSupported: 'CapabilityNotSupportedError',
  invalidArgument: 'InvalidArgumentError',
  appointmentError: 'AppointmentError',
} as const;
export const SSC_PROBLEM_TYPES: Record<keyof typeof SSC_PROBLEM_TITLES, string> = {
  entityNotFound: 'https://docs.freightapis.org/problemDetails/entityNotFound',
  capabilityNotSupported: 'https://docs.freightapis.org/problemDetails/capabilityNotSupportedError',
  invalidArgument: 'https://docs.freightapis.org/problemDetails/invalidArgumentError',
  appointmentError: 'https://docs.freightapis.org/problemDetails/appointmentError',
};

export const SSC_APPOINTMENT_STATUSES = ['NOT_SCHEDULED', 'CONFIRMED', 'UNCONFIRMED', 'PENDING', 'REJECTED', 'CANCELED'] as const;
export type SscAppointmentStatus = (typeof SSC_APPOINTMENT_STATUSES)[number];
export const SSC_APPOINTMENT_TYPES = ['AUTOMATIC', 'DEFERRED', 'FCFS', 'CARRIER_CONFIRMATION_REQUIRED'] as const;
export type SscAppointmentType = (typeof SSC_APPOINTMENT_TYPES)[number];
export const SSC_LOADING_TYPES = ['LIVE', 'DROP'] as const;
export type SscLoadingType = (typeof SSC_LOADING_TYPES)[number];
export const SSC_WEBHOOK_EVENT_TYPES = ['appointment-changed', 'fetch-available-appointments'] as const;
export type SscWebhookEventType = (typeof SSC_WEBHOOK_EVENT_TYPES)[number];

// ---- Our extension: the equipment (the standard's custom-properties rules) --------------------------

/**
 * The standard's in-scope equipment (van, reefer, flatbed) and the smaller vehicles our sites take.
 * Each maps onto our vehicle type, a default height when none is sent, and the bay features it needs.
 */
export const SSC_EQUIPMENT_TYPES = ['VAN', 'REEFER', 'FLATBED', 'STRAIGHT_TRUCK', 'CARGO_VAN', 'B_DOUBLE'] as const;
export type SscEquipmentType = (typeof SSC_EQUIPMENT_TYPES)[number];
export const SSC_EQUIPMENT: Record<SscEquipmentType, { vehicleType: VehicleType; defaultHeightM: number; needs: SpecialAccessNeed[] }> = {
  VAN: { vehicleType: 'semi', defaultHeightM: 4.1, needs: [] },
  REEFER: { vehicleType: 'semi', defaultHeightM: 4.1, needs: ['refrigerated'] },
  FLATBED: { vehicleType: 'semi', defaultHeightM: 4.1, needs: [] },
  STRAIGHT_TRUCK: { vehicleType: 'rigid', defaultHeightM: 3.8, needs: [] },
  CARGO_VAN: { vehicleType: 'van', defaultHeightM: 2.8, needs: [] },
  B_DOUBLE: { vehicleType: 'b-double', defaultHeightM: 4.3, needs: [] },
};
/** How long the bay is held when the carrier names no duration: a live load takes longer than a drop. */
export const SSC_LOADING_DURATION_MIN: Record<SscLoadingType, number> = { LIVE: 60, DROP: 30 };
export const SSC_DEFAULT_EQUIPMENT: SscEquipmentType = 'VAN';
export const SSC_STOP_TYPES = ['DELIVERY', 'PICKUP'] as const;
/** The longest date range fetch-available-appointments answers in one call. */
export const SSC_MAX_RANGE_DAYS = 14;
/** Without date restrictions: the site's today and the next days. */
export const SSC_DEFAULT_RANGE_DAYS = 7;

/** A problem with one argument, as the standard's invalidArgumentError lists them. */
export type SscArgumentProblem = { key: string; detail: string; value?: unknown };

/** The equipment object (our custom property, optional): validated after the standard's schema. */
export const sscEquipmentSchema = z
  .object({
    equipmentType: z.enum(SSC_EQUIPMENT_TYPES, { error: `equipmentType must be one of: ${SSC_EQUIPMENT_TYPES.join(', ')}` }).optional(),
    heightMeters: z.number({ error: 'heightMeters must be a number' }).gt(0, 'heightMeters must be more than 0').max(10, 'heightMeters must be at most 10').optional(),
    lengthMeters: z.number({ error: 'lengthMeters must be a number' }).gt(0, 'lengthMeters must be more than 0').max(60, 'lengthMeters must be at most 60').optional(),
    registration: z
      .string({ error: 'registration must be text' })
      .trim()
      .min(1, 'registration must not be blank')
      .max(20, 'registration must be at most 20 characters')
      .regex(/^[A-Za-z0-9 -]+$/, 'registration may hold letters, digits, spaces and hyphens only')
      .optional(),
    hazardous: z.boolean({ error: 'hazardous must be true or false' }).optional(),
    oversize: z.boolean({ error: 'oversize must be true or false' }).optional(),
    escort: z.boolean({ error: 'escort must be true or false' }).optional(),
  }, { error: 'equipment must be an object' })
  .strict();
export type SscEquipment = z.output<typeof sscEquipmentSchema>;

/** The vehicle our availability rules see for an equipment object. */
export function vehicleOf(equipment: SscEquipment | undefined): {
  equipmentType: SscEquipmentType;
  vehicleType: VehicleType;
  heightM: number;
  lengthM: number | null;
  needs: SpecialAccessNeed[];
} {
  const type = equipment?.equipmentType ?? SSC_DEFAULT_EQUIPMENT;
  const base = SSC_EQUIPMENT[type];
  const flags: SpecialAccessNeed[] = [];
  if (equipment?.hazardous) flags.push('hazardous');
  if (equipment?.oversize) flags.push('oversize');
  if (equipment?.escort) flags.push('escort');
  const needs = SPECIAL_ACCESS_NEEDS.filter((need) => base.needs.includes(need) || flags.includes(need));
  return { equipmentType: type, vehicleType: base.vehicleType, heightM: equipment?.heightMeters ?? base.defaultHeightM, lengthM: equipment?.lengthMeters ?? null, needs };
}

// ---- ISO 8601 durations (arrivalWindow.duration) ---------------------------------------------------

const DURATION = /^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** Whole minutes of a duration like 'PT1H30M' (weeks, days, hours, minutes, seconds); null when not one or not whole minutes. */
export function durationToMinutes(duration: string): number | null {
  const match = DURATION.exec(duration);
  if (!match) return null;
  const [w, d, h, m, s] = match.slice(1).map((part) => Number(part ?? 0));
  const seconds = (((w! * 7 + d!) * 24 + h!) * 60 + m!) * 60 + s!;
  return seconds % 60 === 0 ? seconds / 60 : null;
}

export function minutesToDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ''}${m || !h ? `${m}M` : ''}`;
}

export const durationRangeDetail = `The duration must be whole minutes between ${MIN_DURATION_MIN} and ${MAX_DURATION_MIN}`;

// ---- Available appointment ids ---------------------------------------------------------------------

/** An available appointment: a site, its local date and slot, and the minutes the bay is held. */
export type AvailableAppointmentKey = { siteId: string; date: string; slot: string; durationMin: number };

const AVAILABLE_ID = /^av1\.([0-9a-f-]{36})\.(\d{4}-\d{2}-\d{2})\.(\d{2})(\d{2})\.(\d{1,3})$/;

export function availableAppointmentId(key: AvailableAppointmentKey): string {
  return `av1.${key.siteId}.${key.date}.${key.slot.replace(':', '')}.${key.durationMin}`;
}

export function parseAvailableAppointmentId(id: string): AvailableAppointmentKey | null {
  const match = AVAILABLE_ID.exec(id);
  if (!match) return null;
  return { siteId: match[1]!, date: match[2]!, slot: `${match[3]}:${match[4]}`, durationMin: Number(match[5]) };
}

/** The confirmation number of a booking made through the API: short, stable, readable on the phone. */
export function confirmationNumberOf(bookingId: string): string {
  return `BW-${bookingId.replaceAll('-', '').slice(0, 10).toUpperCase()}`;
}

/** Our booking status as the standard's appointment status. */
export function appointmentStatusOf(status: string): SscAppointmentStatus {
  switch (status) {
    case 'pending':
      return 'PENDING';
    case 'declined':
      return 'REJECTED';
    case 'cancelled':
    case 'no_show':
      return 'CANCELED';
    default:
      return 'CONFIRMED';
  }
}

// ---- The standard's request schemas ----------------------------------------------------------------

const text = (key: string) => z.string({ error: `${key} must be a string` });

const addressSchema = z.object(
  {
    streetAddress: text('streetAddress').optional(),
    region: text('region').optional(),
    locality: text('locality').optional(),
    country: text('country').optional(),
    postalCode: text('postalCode').optional(),
  },
  { error: 'locationAddress must be an object' },
);

/** commonIdentifiers: additionalProperties false. */
const commonIdentifiersSchema = z.strictObject(
  {
    primaryReferenceNumber: text('primaryReferenceNumber').optional(),
    poNumber: text('poNumber').optional(),
    bolNumber: text('bolNumber').optional(),
    stopSequenceNumber: z
      .number({ error: 'stopSequenceNumber must be an integer' })
      .int('stopSequenceNumber must be an integer')
      .min(0, 'stopSequenceNumber must be 0 or more')
      .optional(),
    locationId: text('locationId').optional(),
    locationAddress: addressSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `identifiers may hold only load and stop identifiers; unknown: ${issue.keys.join(', ')}`
        : 'identifiers must be an object',
  },
);
export type SscCommonIdentifiers = z.output<typeof commonIdentifiersSchema>;

const appointmentIdSchema = z.looseObject({ appointmentId: text('appointmentId') }, { error: 'identifiers must be an object' });
const requestIdentifierSchema = z.looseObject({ requestIdentifier: text('requestIdentifier') }, { error: 'identifiers must be an object' });

type Branch = { name: string; schema: z.ZodType; /** The branch the caller most likely meant, for the problems listed. */ meant: (value: Record<string, unknown>) => boolean };

/**
 * JSON schema's oneOf: exactly one branch must accept the value. None: the problems of the branch
 * the value most looks like; several: one problem saying the value is ambiguous.
 */
function oneOf<T>(key: string, branches: Branch[]) {
  return z.unknown().transform((value, ctx): T => {
    const results = branches.map((branch) => ({ branch, result: branch.schema.safeParse(value) }));
    const matching = results.filter((r) => r.result.success);
    if (matching.length === 1) return matching[0]!.result.data as T;
    if (matching.length > 1) {
      ctx.addIssue({ code: 'custom', message: `${key} must match exactly one of: ${branches.map((b) => b.name).join(', ')} (it matches ${matching.map((m) => m.branch.name).join(' and ')})` });
      return z.NEVER;
    }
    const record = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const meant = results.find((r) => r.branch.meant(record)) ?? results[0]!;
    for (const issue of meant.result.error!.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
    }
    return z.NEVER;
  });
}

const has = (key: string) => (value: Record<string, unknown>) => key in value;

const fetchIdentifiers = oneOf<SscCommonIdentifiers | { appointmentId: string } | { requestIdentifier: string }>('identifiers', [
  { name: 'appointment identifier', schema: appointmentIdSchema, meant: has('appointmentId') },
  { name: 'request identifier', schema: requestIdentifierSchema, meant: has('requestIdentifier') },
  { name: 'load and stop identifiers', schema: commonIdentifiersSchema, meant: () => true },
]);

/** appointmentIdentifier: commonIdentifiers or an appointment id. */
const appointmentIdentifier = oneOf<SscCommonIdentifiers | { appointmentId: string }>('identifiers', [
  { name: 'appointment identifier', schema: appointmentIdSchema, meant: has('appointmentId') },
  { name: 'load and stop identifiers', schema: commonIdentifiersSchema, meant: () => true },
]);

const isoDate = (key: string) =>
  z
    .string({ error: `${key} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${key} must be a date (YYYY-MM-DD)`)
    .refine((value) => isCalendarDay(value), `${key} must be a real calendar date`);

function isCalendarDay(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number);
  const probe = new Date(Date.UTC(y!, m! - 1, d!));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m! - 1 && probe.getUTCDate() === d;
}

const dateRestrictions = oneOf<{ startDate: string; endDate: string } | { exactDate: string }>('dateRestrictions', [
  { name: 'date range', schema: z.looseObject({ startDate: isoDate('startDate'), endDate: isoDate('endDate') }, { error: 'dateRestrictions must be an object' }), meant: (v) => 'startDate' in v || 'endDate' in v },
  { name: 'exact date', schema: z.looseObject({ exactDate: isoDate('exactDate') }, { error: 'dateRestrictions must be an object' }), meant: () => true },
]);

const arrivalWindowSchema = z.object(
  {
    startDateTime: z.iso.datetime({ offset: true, error: 'startDateTime must be a date-time with a time zone (RFC 3339)' }),
    duration: z.string({ error: 'duration must be an ISO 8601 duration' }).regex(DURATION, 'duration must be an ISO 8601 duration (e.g. PT1H)'),
  },
  { error: 'arrivalWindow must be an object' },
);
const namedSchema = (key: string) => z.object({ id: text(`${key}.id`).optional(), name: text(`${key}.name`) }, { error: `${key} must be an object` });
const appointmentTypeSchema = z.enum(SSC_APPOINTMENT_TYPES, { error: `appointmentType must be one of: ${SSC_APPOINTMENT_TYPES.join(', ')}` });
const loadingTypeSchema = z.enum(SSC_LOADING_TYPES, { error: `loadingType must be one of: ${SSC_LOADING_TYPES.join(', ')}` });

export type SscRequestedAppointment =
  | { id: string; appointmentType?: SscAppointmentType; loadingType?: SscLoadingType }
  | {
      arrivalWindow: { startDateTime: string; duration: string };
      appointmentType?: SscAppointmentType;
      dockGroup?: { id?: string; name: string };
      dockDoor?: { id?: string; name: string };
      loadingType?: SscLoadingType;
    };

const clientRequestedAppointment = oneOf<SscRequestedAppointment>('preferredAppointment', [
  {
    name: 'appointment id',
    schema: z.looseObject({ id: text('id'), appointmentType: appointmentTypeSchema.optional(), loadingType: loadingTypeSchema.optional() }, { error: 'preferredAppointment must be an object' }),
    meant: has('id'),
  },
  {
    name: 'appointment details',
    schema: z.looseObject(
      {
        appointmentType: appointmentTypeSchema.optional(),
        arrivalWindow: arrivalWindowSchema,
        dockGroup: namedSchema('dockGroup').optional(),
        dockDoor: namedSchema('dockDoor').optional(),
        loadingType: loadingTypeSchema.optional(),
      },
      { error: 'preferredAppointment must be an object' },
    ),
    meant: () => true,
  },
]);

const body = { error: 'The request body must be a JSON object' };
/** A property the standard marks required. */
const present = (key: string) => z.custom<unknown>((value) => value !== undefined, { error: `${key} is required` });

/** Our extensions, beside the standard's properties (allowed: the standard's objects are open). */
const extensions = { equipment: z.unknown().optional(), stopType: z.unknown().optional() };

export const sscFetchAvailableRequestSchema = z.looseObject(
  { identifiers: present('identifiers').pipe(fetchIdentifiers), dateRestrictions: dateRestrictions.optional(), ...extensions },
  body,
);
export const sscScheduleRequestSchema = z.looseObject(
  {
    identifiers: present('identifiers').pipe(commonIdentifiersSchema),
    preferredAppointment: present('preferredAppointment').pipe(clientRequestedAppointment),
    reasonCode: text('reasonCode').optional(),
    comment: text('comment').optional(),
    ...extensions,
  },
  body,
);
export const sscRescheduleRequestSchema = z.looseObject(
  {
    identifiers: present('identifiers').pipe(appointmentIdentifier),
    preferredAppointment: present('preferredAppointment').pipe(clientRequestedAppointment),
    reasonCode: text('reasonCode').optional(),
    comment: text('comment').optional(),
    ...extensions,
  },
  body,
);
export const sscCancelRequestSchema = z.looseObject(
  { identifiers: present('identifiers').pipe(appointmentIdentifier), reasonCode: text('reasonCode').optional(), comment: text('comment').optional() },
  body,
);
export const sscDetailsRequestSchema = z.looseObject({ identifiers: present('identifiers').pipe(appointmentIdentifier) }, body);

const eventTypes = z.array(z.enum(SSC_WEBHOOK_EVENT_TYPES, { error: `eventTypes must be among: ${SSC_WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'eventTypes must be an array' });
const callbackUrl = z.string({ error: 'callbackUrl must be a URI' }).refine((value) => URL.canParse(value), 'callbackUrl must be a URI');

export const sscSubscribeRequestSchema = z.looseObject({ eventTypes: present('eventTypes').pipe(eventTypes), callbackUrl: callbackUrl.optional() }, body);
export const sscUpdateSubscriptionRequestSchema = z.looseObject(
  { subscriptionId: text('subscriptionId').optional(), eventTypes: eventTypes.optional(), callbackUrl: callbackUrl.optional() },
  body,
);

/** Every problem of a body the standard refuses, as invalidArgumentError arguments. */
export function argumentProblems(error: z.ZodError, input: unknown): SscArgumentProblem[] {
  return error.issues.map((issue) => {
    const key = issue.path.length ? issue.path.map(String).join('.') : '(body)';
    let value: unknown = input;
    for (const part of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part as PropertyKey] : undefined;
    return { key, detail: issue.message, ...(value !== undefined && value !== null && typeof value === 'object' ? { value } : {}) };
  });
}
