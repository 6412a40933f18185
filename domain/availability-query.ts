import { z } from 'zod';
import { DEFAULT_DURATION_MIN, MAX_DURATION_MIN, MIN_DURATION_MIN } from './constants';
import { SPECIAL_ACCESS_NEEDS, VEHICLE_TYPES } from './enums';
import { isCalendarDate } from './booking-request';

/** POST /api/public/availability: the day grid for a vehicle and a duration. */
export const availabilityQuerySchema = z.object({
  orgId: z.uuid('Please choose an organization'),
  /** The site the haulier chose (only when the organization lets hauliers choose the site). */
  siteId: z.uuid('Please choose a site').nullish(),
  date: z.string().refine(isCalendarDate, 'Date must be a valid date (YYYY-MM-DD)'),
  durationMin: z
    .number()
    .int('Expected duration must be a whole number of minutes')
    .min(MIN_DURATION_MIN, `Expected duration must be between ${MIN_DURATION_MIN} and ${MAX_DURATION_MIN} minutes`)
    .max(MAX_DURATION_MIN, `Expected duration must be between ${MIN_DURATION_MIN} and ${MAX_DURATION_MIN} minutes`)
    .default(DEFAULT_DURATION_MIN),
  vehicleHeightM: z.number().min(0, 'Vehicle height cannot be negative').max(10, 'Vehicle height is not realistic').nullish(),
  vehicleLengthM: z.number().min(0, 'Vehicle length cannot be negative').max(60, 'Vehicle length is not realistic').nullish(),
  vehicleType: z.enum(VEHICLE_TYPES).nullish(),
  specialAccessNeeds: z.array(z.enum(SPECIAL_ACCESS_NEEDS)).max(SPECIAL_ACCESS_NEEDS.length).default([]),
});
export type AvailabilityQueryInput = z.input<typeof availabilityQuerySchema>;

export const availabilitySlotSchema = z.object({
  time: z.string(),
  start: z.string(),
  end: z.string(),
  freeBays: z.number(),
  available: z.boolean(),
});

export const availabilityResponseSchema = z.object({
  date: z.string(),
  timeZone: z.string(),
  compatibleBays: z.number(),
  slots: z.array(availabilitySlotSchema),
  /** The site the times are local to (the first with a compatible bay); null when the organization has none. */
  siteName: z.string().nullable(),
  /** Today in the site's time zone (the date picker's first day), 'YYYY-MM-DD'. */
  siteToday: z.string(),
  /** The last date the site's booking horizon allows, 'YYYY-MM-DD'. */
  lastBookableDate: z.string(),
  /** Why the day offers nothing, in words; null when some slot can be booked. */
  notice: z.string().nullable(),
  /** The organization takes no more bookings this calendar month (its plan's cap is reached): no slots, a neutral notice. */
  isMonthFull: z.boolean(),
});
export type AvailabilityResponse = z.infer<typeof availabilityResponseSchema>;
