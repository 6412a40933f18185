import { BOOKING_WINDOW_MIN, OVERSTAY_THRESHOLD_MIN } from './constants';
import { BOOKING_STATUSES, type BookingStatus } from './enums';

// The booking lifecycle in one place (DESIGN.md "A full booking lifecycle", spec §4 statuses):
//
//   pending ─► approved ─► checked_in ─► in_progress ─► completed
//      │          │                          │  ▲
//      │          ├─► no_show                ▼  │ Extend Time
//      │          └─► cancelled           overstay ─► completed (Force Check Out)
//      ├─► declined (reason required)
//      └─► cancelled
//
// The server applies every move through one function that checks it here; the web shows only
// the actions this table allows. Status lists elsewhere derive from it.

/**
 * Who moves a booking. Platform administrators act as organization admins. Security staff work the
 * gate: they check vehicles in and out, nothing more. `system` is the sweeps and a site camera's
 * automatic check-in (docs/decisions/011-gate-rules.md).
 */
export const LIFECYCLE_ACTORS = ['org_admin', 'dockmaster', 'security', 'haulier', 'system'] as const;
export type LifecycleActor = (typeof LIFECYCLE_ACTORS)[number];

type Moves = Partial<Record<BookingStatus, readonly LifecycleActor[]>>;

const STAFF = ['org_admin', 'dockmaster'] as const;
/** The gate: staff and security staff. */
const GATE = [...STAFF, 'security'] as const;

/** from → to → who may make the move. A pair that is absent is not a move at all. */
export const BOOKING_TRANSITIONS: Readonly<Record<BookingStatus, Moves>> = {
  // Dockmasters approve at the gate (spec: "Approve/Check In"); declining is the admin's call.
  pending: { approved: STAFF, declined: ['org_admin'], cancelled: ['org_admin', 'haulier'] },
  approved: { checked_in: [...GATE, 'system'], cancelled: ['org_admin', 'haulier'], no_show: [...STAFF, 'system'] },
  checked_in: { in_progress: STAFF },
  in_progress: { completed: GATE, overstay: ['system'] },
  // Force Check Out, or Extend Time (a new end, when the bay is free) back to in progress.
  overstay: { completed: GATE, in_progress: STAFF },
  declined: {},
  cancelled: {},
  completed: {},
  no_show: {},
};

export function isBookingStatus(value: string): value is BookingStatus {
  return (BOOKING_STATUSES as readonly string[]).includes(value);
}

/** Whether `to` is a move from `from` at all, whoever makes it. */
export function isTransition(from: BookingStatus, to: BookingStatus): boolean {
  return BOOKING_TRANSITIONS[from][to] !== undefined;
}

/** Whether `actor` may move a booking from `from` to `to`. */
export function canTransition(from: BookingStatus, to: BookingStatus, actor: LifecycleActor): boolean {
  return BOOKING_TRANSITIONS[from][to]?.includes(actor) ?? false;
}

/** The moves `actor` may make from `from`, in the table's order. */
export function allowedTransitions(from: BookingStatus, actor: LifecycleActor): BookingStatus[] {
  return (Object.entries(BOOKING_TRANSITIONS[from]) as Array<[BookingStatus, readonly LifecycleActor[]]>)
    .filter(([, actors]) => actors.includes(actor))
    .map(([to]) => to);
}

/** The statuses a booking can reach from `from` (itself included), following the table. */
export function reachableStatuses(from: BookingStatus): BookingStatus[] {
  const seen = new Set<BookingStatus>([from]);
  for (const status of seen) for (const to of Object.keys(BOOKING_TRANSITIONS[status]) as BookingStatus[]) seen.add(to);
  return BOOKING_STATUSES.filter((s) => seen.has(s));
}

// The named status sets every query and screen uses (server/db/sql-status.ts writes them into SQL).
// Each is derived from the table where the table says it; they are in BOOKING_STATUSES order.

/** Statuses with no way out: declined, cancelled, completed, no-show. */
export const TERMINAL_BOOKING_STATUSES: readonly BookingStatus[] = BOOKING_STATUSES.filter((s) => Object.keys(BOOKING_TRANSITIONS[s]).length === 0);

/** Statuses still going somewhere (not terminal): pending, approved, checked in, in progress, overstay. */
export const LIVE_BOOKING_STATUSES: readonly BookingStatus[] = BOOKING_STATUSES.filter((s) => !TERMINAL_BOOKING_STATUSES.includes(s));

/**
 * Statuses that no longer hold their bay (declined, cancelled, no-show): ignored by availability
 * and by the overlap constraint. Every terminal status but completed: a completed booking keeps
 * its time on the bay (it happened there); the others never used it.
 */
export const RELEASED_BOOKING_STATUSES: readonly BookingStatus[] = TERMINAL_BOOKING_STATUSES.filter((s) => s !== 'completed');

/** Statuses that hold their bay: every one but the released. */
export const BAY_HOLDING_STATUSES: readonly BookingStatus[] = BOOKING_STATUSES.filter((s) => !RELEASED_BOOKING_STATUSES.includes(s));

/** The vehicle is at the site: checked in at the gate, at the bay, or over its time (live statuses from check-in on). */
export const ON_SITE_STATUSES: readonly BookingStatus[] = reachableStatuses('checked_in').filter((s) => LIVE_BOOKING_STATUSES.includes(s));

/** The vehicle stands at its bay: in progress or overstaying (live statuses from the start at the bay on). */
export const AT_BAY_STATUSES: readonly BookingStatus[] = reachableStatuses('in_progress').filter((s) => LIVE_BOOKING_STATUSES.includes(s));

/** Booked and still to come: live, the vehicle not arrived yet (pending, approved). */
export const AWAITING_ARRIVAL_STATUSES: readonly BookingStatus[] = LIVE_BOOKING_STATUSES.filter((s) => !ON_SITE_STATUSES.includes(s));

/**
 * Called off before the day (declined, cancelled): no vehicle was due. A no-show was due and did
 * not come, so the day's expected count and the volume report keep it.
 */
export const WITHDRAWN_BOOKING_STATUSES: readonly BookingStatus[] = ['declined', 'cancelled'];

/** Approved and not called off: the vehicles a day expects, whether they came, are there or did not come. */
export const CONFIRMED_BOOKING_STATUSES: readonly BookingStatus[] = reachableStatuses('approved').filter((s) => !WITHDRAWN_BOOKING_STATUSES.includes(s));

/** Statuses the haulier may still cancel or move (before the start) through the manage link. */
export const HAULIER_CHANGEABLE_STATUSES: readonly BookingStatus[] = BOOKING_STATUSES.filter((s) => canTransition(s, 'cancelled', 'haulier'));

/** Statuses staff may reschedule (time and/or bay): not yet arrived. */
export const RESCHEDULABLE_STATUSES: readonly BookingStatus[] = AWAITING_ARRIVAL_STATUSES;

/**
 * Who moves a booking to another time, bay or site (a reschedule, not a status move): staff, the
 * haulier's manage link, a carrier through the API (SSC), or the system (a closure moving what it
 * strands).
 */
export const BOOKING_MOVERS = ['org_admin', 'dockmaster', 'haulier', 'carrier', 'system'] as const;
export type BookingMover = (typeof BOOKING_MOVERS)[number];

/**
 * What a move does to the status, part of the lifecycle: from → mover → the status after the move.
 * `policy` means the tenant's or organization's approval policy decides again (approved at once
 * when it auto-approves, else pending). A status that is absent cannot be moved by that mover.
 * Staff and the system keep the status; the haulier's own move is reviewed again.
 */
export const BOOKING_MOVES: Readonly<Partial<Record<BookingStatus, Readonly<Partial<Record<BookingMover, BookingStatus | 'policy'>>>>>> = {
  pending: { org_admin: 'pending', dockmaster: 'pending', haulier: 'pending', carrier: 'policy', system: 'pending' },
  approved: { org_admin: 'approved', dockmaster: 'approved', haulier: 'pending', carrier: 'policy', system: 'approved' },
  // A vehicle waiting at the gate may be called to another free bay at its own time: staff's call
  // (the gate's Start, decision 037), and it stays checked in until the start.
  checked_in: { org_admin: 'checked_in', dockmaster: 'checked_in' },
};

/** Whether `mover` may move a booking in status `from` at all. */
export function canMove(from: BookingStatus, mover: BookingMover): boolean {
  return BOOKING_MOVES[from]?.[mover] !== undefined;
}

/**
 * The status a booking has after `mover` moves it; `policyApproves` answers the `policy` rows.
 * Null when the move is not allowed from `from`.
 */
export function statusAfterMove(from: BookingStatus, mover: BookingMover, policyApproves: boolean): BookingStatus | null {
  const outcome = BOOKING_MOVES[from]?.[mover];
  if (outcome === undefined) return null;
  if (outcome === 'policy') return policyApproves ? 'approved' : 'pending';
  return outcome;
}

/** The timestamp column a move sets. */
export const TRANSITION_TIMESTAMP: Partial<Record<BookingStatus, string>> = {
  approved: 'approved_at',
  declined: 'declined_at',
  cancelled: 'cancelled_at',
  checked_in: 'checked_in_at',
  in_progress: 'started_at',
  completed: 'completed_at',
  no_show: 'no_show_at',
};

/** Moves that need a reason from the person making them. */
export const REASON_REQUIRED: readonly BookingStatus[] = ['declined'];

// Spec §9 (domain/constants.ts, written once): an approved booking not checked in by its start +
// the booking window (+ grace) is a no-show; an in-progress booking the overstay threshold past its
// end is an overstay. The lifecycle's users read them here with the rest of its clock.
export { BOOKING_WINDOW_MIN, OVERSTAY_THRESHOLD_MIN };
/** Extra minutes after the booking window before the sweep marks a no-show. */
export const NO_SHOW_GRACE_MIN = 15;
/** Check-in opens this long before the booking's start (docs/decisions/011-gate-rules.md). */
export const CHECK_IN_EARLY_MIN = 60;

// ── The clock ───────────────────────────────────────────────────────────────────────────────────
// Some moves depend on the time: a vehicle cannot be checked in, called to its bay or written off
// as a no-show days before its booking. Each such move states here when it may be made, from the
// booking's times; applyTransitionInTx refuses it outside that window whoever asks (staff, the
// gate, a camera, the sweeps), and the screens offer only the moves open now (the server sends
// them: the booking detail's allowedTransitions, the gate's actions). Both ends are inclusive.

/** When a move may be made; null: no bound on that side. */
export type MoveWindow = { opensAt: Date | null; closesAt: Date | null };
/** The times of a booking the windows are measured from. */
export type BookingTimes = { startTime: Date; endTime: Date };

const MINUTE_MS = 60_000;
const minutesAfter = (instant: Date, minutes: number) => new Date(instant.getTime() + minutes * MINUTE_MS);

/** The no-show sweep's cut-off: start + booking window + grace. Check-in closes then too, so the gate and the sweep never disagree. */
export const noShowDueAt = (b: BookingTimes) => minutesAfter(b.startTime, BOOKING_WINDOW_MIN + NO_SHOW_GRACE_MIN);
/** When an in-progress booking becomes an overstay: its end + the overstay threshold. */
export const overstayDueAt = (b: BookingTimes) => minutesAfter(b.endTime, OVERSTAY_THRESHOLD_MIN);

/** from → to → the window of a clock-bound move. A pair absent here does not depend on the clock (approve, decline, cancel, check-out, Extend Time). */
const MOVE_WINDOWS: Partial<Record<BookingStatus, Partial<Record<BookingStatus, (b: BookingTimes) => MoveWindow>>>> = {
  approved: {
    // At the gate from an hour before the start until the no-show cut-off.
    checked_in: (b) => ({ opensAt: minutesAfter(b.startTime, -CHECK_IN_EARLY_MIN), closesAt: noShowDueAt(b) }),
    // Once the booking window has passed without the vehicle (the sweep waits for the grace too).
    no_show: (b) => ({ opensAt: minutesAfter(b.startTime, BOOKING_WINDOW_MIN), closesAt: null }),
  },
  // Called to the bay no earlier than check-in could open; a vehicle on site may always go on to its bay after.
  checked_in: { in_progress: (b) => ({ opensAt: minutesAfter(b.startTime, -CHECK_IN_EARLY_MIN), closesAt: null }) },
  in_progress: { overstay: (b) => ({ opensAt: overstayDueAt(b), closesAt: null }) },
};

/** The window of the move from → to for this booking; null when the move does not depend on the clock. */
export function moveWindow(from: BookingStatus, to: BookingStatus, booking: BookingTimes): MoveWindow | null {
  return MOVE_WINDOWS[from]?.[to]?.(booking) ?? null;
}

/** Whether the move from → to may be made at `now` as far as the clock goes: open, not yet open, or closed. */
export function moveTiming(from: BookingStatus, to: BookingStatus, booking: BookingTimes, now: Date): 'open' | 'too_early' | 'too_late' {
  const window = moveWindow(from, to, booking);
  if (window?.opensAt && now < window.opensAt) return 'too_early';
  if (window?.closesAt && now > window.closesAt) return 'too_late';
  return 'open';
}

/** The moves `actor` may make from `from` at `now`: the table's, less those the clock does not allow yet or any more. */
export function allowedTransitionsAt(from: BookingStatus, actor: LifecycleActor, booking: BookingTimes, now: Date): BookingStatus[] {
  return allowedTransitions(from, actor).filter((to) => moveTiming(from, to, booking, now) === 'open');
}

/** The moves `actor` will be able to make from `from` later, with when each opens (the screens say so instead of a button). */
export function upcomingTransitions(from: BookingStatus, actor: LifecycleActor, booking: BookingTimes, now: Date): Array<{ to: BookingStatus; opensAt: Date }> {
  return allowedTransitions(from, actor).flatMap((to) => {
    const opensAt = moveWindow(from, to, booking)?.opensAt;
    return opensAt && moveTiming(from, to, booking, now) === 'too_early' ? [{ to, opensAt }] : [];
  });
}

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
  checked_in: 'Checked in',
  in_progress: 'In progress',
  completed: 'Completed',
  overstay: 'Overstay',
  no_show: 'No-show',
};

/** The button or verb for a move, as staff see it. */
export const TRANSITION_ACTION_LABELS: Partial<Record<BookingStatus, string>> = {
  approved: 'Approve',
  declined: 'Decline',
  cancelled: 'Cancel',
  checked_in: 'Check In',
  in_progress: 'Start',
  completed: 'Check Out',
  no_show: 'Mark No-show',
};

/** The message of a refused move: names the current status. */
export function illegalTransitionMessage(from: BookingStatus, to: BookingStatus): string {
  return `This booking is ${BOOKING_STATUS_LABELS[from].toLowerCase()}: it cannot be moved to ${BOOKING_STATUS_LABELS[to].toLowerCase()}.`;
}
