import { z } from 'zod';
import { bookingListItemSchema } from './org-bookings';
import { isCalendarDate } from './booking-request';
import { addDays } from './day-notice';
import { operatingHoursSchema } from './site-schemas';

// The organization schedule (/org/schedule): one site's bays, its live bookings and its blackouts
// over a few site-local days. The web derives its types from these schemas.

/** The longest range one request may ask for, in site-local days (two weeks). */
export const SCHEDULE_MAX_DAYS = 14;

const isoDateSchema = z.string().refine(isCalendarDate, 'Use a calendar date as YYYY-MM-DD');

/** Whole days from `from` to `to` inclusive (both 'YYYY-MM-DD'). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The site-local days `from`..`to`, inclusive. */
export function datesInRange(from: string, to: string): string[] {
  const n = Math.max(0, daysInRange(from, to));
  return Array.from({ length: n }, (_, i) => addDays(from, i));
}

export const scheduleQuerySchema = z
  .object({
    siteId: z.string().uuid('Choose a site'),
    /** Site-local calendar days, inclusive. */
    from: isoDateSchema,
    to: isoDateSchema,
  })
  .superRefine((q, ctx) => {
    if (!isCalendarDate(q.from) || !isCalendarDate(q.to)) return;
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The last day must not be before the first day' });
    else if (daysInRange(q.from, q.to) > SCHEDULE_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `A schedule covers at most ${SCHEDULE_MAX_DAYS} days` });
  });
export type ScheduleQuery = z.input<typeof scheduleQuerySchema>;

export const scheduleSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  operatingHours: operatingHoursSchema,
  slotIntervalMin: z.number(),
});

export const scheduleBaySchema = z.object({
  id: z.string(),
  name: z.string(),
  heightClearanceM: z.number(),
  lengthM: z.number().nullable(),
  features: z.array(z.string()),
});
export type ScheduleBay = z.infer<typeof scheduleBaySchema>;

export const scheduleBookingSchema = bookingListItemSchema.pick({
  id: true,
  version: true,
  status: true,
  tsrNumber: true,
  tenantName: true,
  vehicleType: true,
  vehicleRegistration: true,
  bayId: true,
  startTime: true,
  endTime: true,
});
export type ScheduleBooking = z.infer<typeof scheduleBookingSchema>;

export const scheduleBlackoutSchema = z.object({
  id: z.string(),
  /** null: the whole site. */
  bayId: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  reason: z.string().nullable(),
});
export type ScheduleBlackout = z.infer<typeof scheduleBlackoutSchema>;

export const scheduleSchema = z.object({
  site: scheduleSiteSchema,
  /** Active bays in natural name order (N-2 before N-10). */
  bays: z.array(scheduleBaySchema),
  /** Bookings that hold their bay (not declined, cancelled or no-show) overlapping the range. */
  bookings: z.array(scheduleBookingSchema),
  blackouts: z.array(scheduleBlackoutSchema),
});
export type Schedule = z.infer<typeof scheduleSchema>;
