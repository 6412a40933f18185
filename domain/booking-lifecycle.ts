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

/** Statuses with no way out. */
export const TERMINAL_BOOKING_STATUSES = BOOKING_STATUSES.filter((s) => Object.keys(BOOKING_TRANSITIONS[s]).length === 0);

/**
 * Statuses that no longer hold their bay: ignored by availability and by the overlap constraint.
 * A completed booking keeps its time on the bay (it happened there); the others never used it.
 */
export const RELEASED_BOOKING_STATUSES = ['declined', 'cancelled', 'no_show'] as const satisfies readonly BookingStatus[];

/** The vehicle is at the site: checked in at the gate, at the bay, or over its time. */
export const ON_SITE_STATUSES = ['checked_in', 'in_progress', 'overstay'] as const satisfies readonly BookingStatus[];

/** Statuses the haulier may still cancel or move (before the start) through the manage link. */
export const HAULIER_CHANGEABLE_STATUSES = BOOKING_STATUSES.filter((s) => canTransition(s, 'cancelled', 'haulier'));

/** Statuses staff may reschedule (time and/or bay): not yet arrived. */
export const RESCHEDULABLE_STATUSES = ['pending', 'approved'] as const satisfies readonly BookingStatus[];

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

/** Spec §9: an approved booking not checked in by its start + the booking window (+ grace) is a no-show. */
export const BOOKING_WINDOW_MIN = 30;
/** Extra minutes after the booking window before the sweep marks a no-show. */
export const NO_SHOW_GRACE_MIN = 15;
/** Spec §9: an in-progress booking this long past its end is an overstay. */
export const OVERSTAY_THRESHOLD_MIN = 30;

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
