import { z } from 'zod';
import { affectedOutcomeSchema, affectedResolutionSchema } from './affected-bookings';
import { BAY_FEATURES } from './enums';
import { singleLine } from './text-rules';

// The organization's bays (/api/orgs/:orgId/bays): what the API takes and answers. The bay form
// validates with the same schemas, so it shows the same messages the server sends.

export const BAY_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_BAY_PAGE_SIZE = 25;

/** Clearance and length as the bays table stores them: numeric(4,2) and numeric(5,2). */
export const MAX_BAY_CLEARANCE_M = 10;
export const MAX_BAY_LENGTH_M = 100;
export const MAX_BAY_CAPACITY = 50;
export const MAX_BAY_NAME_LENGTH = 40;

export const BAY_MESSAGES = {
  siteRequired: 'Choose a site',
  siteUnknown: 'Choose a site of this organization',
  siteLocked: 'A bay that has bookings cannot move to another site. Add a new bay there instead.',
  nameRequired: 'Bay name is required',
  nameTooLong: `Bay name must be at most ${MAX_BAY_NAME_LENGTH} characters`,
  nameTaken: 'A bay with this name already exists at this site',
  clearanceRequired: 'Height clearance is required',
  clearancePositive: 'Height clearance must be greater than 0 m',
  clearanceMax: `Height clearance must be at most ${MAX_BAY_CLEARANCE_M} m`,
  lengthPositive: 'Length must be greater than 0 m (or left empty)',
  lengthMax: `Length must be at most ${MAX_BAY_LENGTH_M} m`,
  twoDecimals: 'Use at most 2 decimal places',
  capacityRequired: 'Capacity is required',
  capacityWhole: 'Capacity must be a whole number',
  capacityMin: 'Capacity must be at least 1',
  capacityMax: `Capacity must be at most ${MAX_BAY_CAPACITY}`,
  features: `Features must be among: ${BAY_FEATURES.join(', ')}`,
} as const;

/** 409 code of DELETE for a bay that has (or had) bookings: deactivate it instead. */
export const BAY_HAS_BOOKINGS_CODE = 'bay_has_bookings';
export const BAY_HAS_BOOKINGS_MESSAGE =
  'This bay has bookings, so it cannot be deleted (its booking history would be lost). Deactivate it instead: it then takes no new bookings.';

/** True when `n` has at most two decimal places (what numeric(…, 2) keeps without rounding). */
const hasTwoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

const siteIdField = z.string({ error: BAY_MESSAGES.siteRequired }).uuid({ error: BAY_MESSAGES.siteRequired });

const nameField = z
  .string({ error: BAY_MESSAGES.nameRequired })
  .trim()
  .min(1, BAY_MESSAGES.nameRequired)
  .max(MAX_BAY_NAME_LENGTH, BAY_MESSAGES.nameTooLong)
  .refine(...singleLine('Bay name'));

const clearanceField = z
  .number({ error: BAY_MESSAGES.clearanceRequired })
  // 0.01 m, not just above 0: the column keeps two decimals, and 1e-9 would be stored as 0.
  .gte(0.01, { error: BAY_MESSAGES.clearancePositive, abort: true })
  .max(MAX_BAY_CLEARANCE_M, { error: BAY_MESSAGES.clearanceMax, abort: true })
  .refine(hasTwoDecimals, BAY_MESSAGES.twoDecimals);

/** Empty (null) means no length limit. */
const lengthField = z
  .number({ error: BAY_MESSAGES.lengthPositive })
  .gte(0.01, { error: BAY_MESSAGES.lengthPositive, abort: true })
  .max(MAX_BAY_LENGTH_M, { error: BAY_MESSAGES.lengthMax, abort: true })
  .refine(hasTwoDecimals, BAY_MESSAGES.twoDecimals)
  .nullable();

const featuresField = z
  .array(z.enum(BAY_FEATURES, { error: BAY_MESSAGES.features }), { error: BAY_MESSAGES.features })
  .max(BAY_FEATURES.length, BAY_MESSAGES.features)
  .transform((features) => BAY_FEATURES.filter((f) => features.includes(f)));

const capacityField = z
  .number({ error: BAY_MESSAGES.capacityRequired })
  .int({ error: BAY_MESSAGES.capacityWhole, abort: true })
  .min(1, BAY_MESSAGES.capacityMin)
  .max(MAX_BAY_CAPACITY, BAY_MESSAGES.capacityMax);

/** The fields of a bay as the form edits them (the form validates with this). */
export const bayFormSchema = z.object({
  siteId: siteIdField,
  name: nameField,
  heightClearanceM: clearanceField,
  lengthM: lengthField,
  features: featuresField,
  capacity: capacityField,
});
export type BayFormInput = z.input<typeof bayFormSchema>;

/** POST /bays: length, features and capacity may be left out (no length limit, none, 1). */
export const bayCreateSchema = z.object({
  siteId: siteIdField,
  name: nameField,
  heightClearanceM: clearanceField,
  lengthM: lengthField.optional().transform((v) => v ?? null),
  features: featuresField.optional().transform((v) => v ?? []),
  capacity: capacityField.optional().transform((v) => v ?? 1),
});
export type BayCreateInput = z.input<typeof bayCreateSchema>;

/**
 * PATCH /bays/:bayId: only the fields sent change. A change that would leave upcoming bookings on a
 * bay that no longer fits them (lower clearance, shorter, a feature removed) answers 409
 * affected_bookings unless it carries the admin's `resolution` (domain/affected-bookings.ts).
 */
export const bayUpdateSchema = z.object({
  siteId: siteIdField.optional(),
  name: nameField.optional(),
  heightClearanceM: clearanceField.optional(),
  lengthM: lengthField.optional(),
  features: featuresField.optional(),
  capacity: capacityField.optional(),
  resolution: affectedResolutionSchema.optional(),
});
export type BayUpdateInput = z.input<typeof bayUpdateSchema>;

/** POST /bays/:bayId/deactivate (and /reactivate): the resolution for the bay's upcoming bookings, once asked. */
export const bayActionSchema = z.object({ resolution: affectedResolutionSchema.optional() });
export type BayActionInput = z.input<typeof bayActionSchema>;

export const bayListQuerySchema = z.object({
  siteId: z.string().uuid('Choose a site').optional(),
  /** true: active bays only; false: inactive only; absent: both. */
  active: z
    .enum(['true', 'false'], { error: 'active must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (BAY_PAGE_SIZES as readonly number[]).includes(n), 'Page size must be 10, 25, 50 or 100')
    .default(DEFAULT_BAY_PAGE_SIZE),
});
export type BayListQuery = z.input<typeof bayListQuerySchema>;

export const bayItemSchema = z.object({
  id: z.string(),
  siteId: z.string(),
  siteName: z.string(),
  name: z.string(),
  heightClearanceM: z.number(),
  lengthM: z.number().nullable(),
  features: z.array(z.enum(BAY_FEATURES)),
  capacity: z.number(),
  active: z.boolean(),
  /** Live bookings (pending to overstay) that have not ended yet. */
  upcomingBookings: z.number(),
  /** Any booking ever, in any status: such a bay can be deactivated, not deleted. */
  hasBookings: z.boolean(),
  updatedAt: z.string(),
});
export type BayItem = z.infer<typeof bayItemSchema>;

export const bayListSchema = z.object({
  items: z.array(bayItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type BayList = z.infer<typeof bayListSchema>;

/** A write's answer: the bay as it now is, and what happened to the bookings it affected (if any). */
export const bayWriteResultSchema = z.object({
  bay: bayItemSchema,
  outcomes: z.array(affectedOutcomeSchema),
});
export type BayWriteResult = z.infer<typeof bayWriteResultSchema>;
