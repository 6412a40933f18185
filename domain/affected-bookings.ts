import { z } from 'zod';
import { multiLine } from './text-rules';

// Bookings a setup change would leave without a bay: a bay deactivated or lowered below a booked
// vehicle, a blackout over live bookings, opening hours that no longer cover a booking. They are
// never moved or cancelled silently: the admin sees them and chooses, per change, to keep them,
// move them to another free compatible bay at the same time (best fit, the booking rules), or
// cancel them with a reason e-mailed to the haulier.

export const affectedBookingSchema = z.object({
  id: z.string(),
  version: z.number(),
  status: z.string(),
  tsrNumber: z.string(),
  tenantName: z.string(),
  tenantEmail: z.string(),
  vehicleRegistration: z.string(),
  vehicleHeightM: z.number(),
  siteId: z.string(),
  bayId: z.string(),
  bayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});
export type AffectedBooking = z.infer<typeof affectedBookingSchema>;

export const AFFECTED_ACTIONS = ['keep', 'reassign', 'cancel'] as const;
export type AffectedAction = (typeof AFFECTED_ACTIONS)[number];

export const AFFECTED_ACTION_LABELS: Record<AffectedAction, string> = {
  keep: 'Keep them',
  reassign: 'Move them to another bay',
  cancel: 'Cancel them',
};

export const CANCEL_REASON_REQUIRED = 'Give the reason the hauliers will be sent';

/** What to do with the affected bookings; a cancellation needs the reason the hauliers are told. */
export const affectedResolutionSchema = z
  .object({
    action: z.enum(AFFECTED_ACTIONS),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters').refine(...multiLine('Reason')).optional(),
  })
  .refine((r) => r.action !== 'cancel' || !!r.reason?.trim(), { message: CANCEL_REASON_REQUIRED, path: ['reason'] });
export type AffectedResolution = z.infer<typeof affectedResolutionSchema>;

/** The generic endpoint (after an hours change): act on listed bookings by id. */
export const resolveAffectedSchema = z
  .object({
    bookingIds: z.array(z.string().uuid()).min(1, 'Choose at least one booking').max(500),
    action: z.enum(['reassign', 'cancel']),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters').refine(...multiLine('Reason')).optional(),
  })
  .refine((r) => r.action !== 'cancel' || !!r.reason?.trim(), { message: CANCEL_REASON_REQUIRED, path: ['reason'] });
export type ResolveAffectedInput = z.infer<typeof resolveAffectedSchema>;

export const affectedOutcomeSchema = z.object({
  id: z.string(),
  tsrNumber: z.string(),
  outcome: z.enum(['kept', 'moved', 'cancelled', 'not_moved', 'skipped']),
  /** moved: the new bay; not_moved / skipped: why. */
  bayName: z.string().nullable(),
  message: z.string().nullable(),
});
export type AffectedOutcome = z.infer<typeof affectedOutcomeSchema>;

export const resolveAffectedResultSchema = z.object({ outcomes: z.array(affectedOutcomeSchema) });

/**
 * A write that would affect live bookings and came without a resolution answers 409 with this
 * code and the bookings in `details.affected`: the screen shows them and asks.
 */
export const AFFECTED_BOOKINGS_CODE = 'affected_bookings';
