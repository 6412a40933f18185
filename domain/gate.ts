import { z } from 'zod';
import { adminBookingSchema } from './org-bookings';
import { ON_TIME_WINDOW_MIN } from './constants';
import { BOOKING_STATUSES } from './enums';
import { multiLine } from './text-rules';

// The gate of one site (issue 10): what the gate endpoints take and answer. Rules and their
// reasons: docs/decisions/011-gate-rules.md.

/** Check-in opens this long before the booking's start: a lifecycle rule, read from there. */
export { CHECK_IN_EARLY_MIN } from './booking-lifecycle';
/**
 * "LATE" at the gate: an approved vehicle not checked in once the on-time window after its start
 * has passed — the window the punctuality report counts as on time (ON_TIME_WINDOW_MIN).
 */
export function isLateArrival(status: string, startTime: Date, now: Date): boolean {
  return status === 'approved' && now.getTime() > lateAfter(startTime).getTime();
}

/** The moment a booking starting at `startTime` becomes late: the end of its on-time window. */
export function lateAfter(startTime: Date): Date {
  return new Date(startTime.getTime() + ON_TIME_WINDOW_MIN * 60_000);
}

/** Approved bookings that started before this moment and are not in yet are late. */
export function lateCutoff(now: Date): Date {
  return new Date(now.getTime() - ON_TIME_WINDOW_MIN * 60_000);
}

/** Upcoming arrivals: the next hours the gate looks ahead. */
export const UPCOMING_HOURS = 4;

/** What the gate offers on a booking, by the caller's role (the server checks again). */
export const GATE_ACTIONS = ['check_in', 'start', 'check_out', 'force_check_out', 'extend', 'approve', 'decline'] as const;
export type GateAction = (typeof GATE_ACTIONS)[number];

const REASON_MAX = 500;
const version = z.number({ error: 'Version is required' }).int().min(1);
const uuid = z.string().uuid();

/** A move at the gate: the version the screen showed (optional at the gate: a newer one answers 409). */
export const gateMoveSchema = z.object({ version: version.optional() });
export type GateMoveInput = z.infer<typeof gateMoveSchema>;

/** Start (call the vehicle to its bay): optionally on another free compatible bay. */
export const gateStartSchema = gateMoveSchema.extend({ bayId: uuid.optional() });
export type GateStartInput = z.infer<typeof gateStartSchema>;

export const gateExtendSchema = z.object({
  version,
  /** The new end: later than the current one. */
  endTime: z.string({ error: 'Choose the new end time' }).datetime({ offset: true, message: 'Choose the new end time' }),
});
export type GateExtendInput = z.infer<typeof gateExtendSchema>;

export const gateApproveSchema = z.object({ version });

export const gateDeclineSchema = z.object({
  version,
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .max(REASON_MAX, `Reason must be at most ${REASON_MAX} characters`)
    .refine(...multiLine('Reason')),
});

/** A walk-in: the admin booking's fields, less the day and slot (it starts now). */
export const walkInSchema = adminBookingSchema.omit({ date: true, slot: true, overrideMinAdvance: true, approve: true });
export type WalkInInput = z.input<typeof walkInSchema>;

export const emergencyStopSchema = z.object({
  reason: z
    .string({ error: 'Give the reason for the emergency stop' })
    .trim()
    .min(1, 'Give the reason for the emergency stop')
    .max(REASON_MAX, `Reason must be at most ${REASON_MAX} characters`)
    .refine(...multiLine('Reason')),
});
export type EmergencyStopInput = z.infer<typeof emergencyStopSchema>;

export const gateBookingSchema = z.object({
  id: z.string(),
  version: z.number(),
  status: z.enum(BOOKING_STATUSES),
  tsrNumber: z.string(),
  tenantName: z.string(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  bayId: z.string(),
  bayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  checkedInAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  source: z.string(),
  /** Approved, past its start, not checked in. */
  isLate: z.boolean(),
  /** The haulier's running-late ETA while the truck is still to arrive (domain/late-report.ts); absent or null: none reported. */
  lateEta: z.string().nullable().optional(),
  actions: z.array(z.enum(GATE_ACTIONS)),
});
export type GateBooking = z.infer<typeof gateBookingSchema>;

export const gateMoveResultSchema = z.object({
  booking: gateBookingSchema,
  /** The booking was already in the target state (a second check-in). */
  unchanged: z.boolean(),
  /** Check-out: minutes from check-in to check-out. */
  dwellMinutes: z.number().nullable(),
});
export type GateMoveResponse = z.infer<typeof gateMoveResultSchema>;

export const emergencyStateSchema = z.object({
  isStopped: z.boolean(),
  since: z.string().nullable(),
  reason: z.string().nullable(),
  byEmail: z.string().nullable(),
});
export type EmergencyState = z.infer<typeof emergencyStateSchema>;

export const emergencyResultSchema = emergencyStateSchema.extend({ unchanged: z.boolean() });

export const BAY_GATE_STATES = ['available', 'occupied', 'overstay', 'blacked_out', 'stopped'] as const;

export const gateOverviewSchema = z.object({
  siteId: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  /** The site's local date the counters are for. */
  date: z.string(),
  counters: z.object({
    expectedToday: z.number(),
    onSite: z.number(),
    waiting: z.number(),
    atBay: z.number(),
    late: z.number(),
    overstay: z.number(),
  }),
  live: z.array(gateBookingSchema),
  upcoming: z.array(gateBookingSchema),
  bays: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      state: z.enum(BAY_GATE_STATES),
      booking: gateBookingSchema.nullable(),
    }),
  ),
  emergency: emergencyStateSchema,
});
export type GateOverview = z.infer<typeof gateOverviewSchema>;

const freeBaySchema = z.object({ id: z.string(), name: z.string() });

export const gateQueueSchema = z.object({
  siteName: z.string(),
  /** The site's zone: the screen shows arrival and booked times in it. */
  timeZone: z.string(),
  /** While stopped, no bay is free and Start and walk-ins are refused. */
  emergency: emergencyStateSchema,
  items: z.array(
    gateBookingSchema.extend({
      waitingMinutes: z.number(),
      isExpectedBayFree: z.boolean(),
      freeBays: z.array(freeBaySchema),
    }),
  ),
});
export type GateQueue = z.infer<typeof gateQueueSchema>;
