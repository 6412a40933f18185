import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  allowedTransitionsAt,
  AT_BAY_STATUSES,
  AWAITING_ARRIVAL_STATUSES,
  BAY_HOLDING_STATUSES,
  BOOKING_MOVERS,
  CONFIRMED_BOOKING_STATUSES,
  LIVE_BOOKING_STATUSES,
  moveTiming,
  moveWindow,
  noShowDueAt,
  overstayDueAt,
  reachableStatuses,
  RESCHEDULABLE_STATUSES,
  upcomingTransitions,
  WITHDRAWN_BOOKING_STATUSES,
  canMove,
  statusAfterMove,
  canTransition,
  HAULIER_CHANGEABLE_STATUSES,
  isTransition,
  LIFECYCLE_ACTORS,
  ON_SITE_STATUSES,
  RELEASED_BOOKING_STATUSES,
  TERMINAL_BOOKING_STATUSES,
  type LifecycleActor,
} from './booking-lifecycle';
import { BOOKING_STATUSES, type BookingStatus } from './enums';

// Every allowed move, written out by hand from DESIGN.md and the issue: the table must match it
// exactly, for every (from, to, actor) triple; anything not listed is refused.
const ALLOWED: Array<[BookingStatus, BookingStatus, LifecycleActor[]]> = [
  ['pending', 'approved', ['org_admin', 'dockmaster']],
  ['pending', 'declined', ['org_admin']],
  ['pending', 'cancelled', ['org_admin', 'haulier']],
  ['approved', 'checked_in', ['org_admin', 'dockmaster', 'security', 'system']],
  ['approved', 'cancelled', ['org_admin', 'haulier']],
  ['approved', 'no_show', ['org_admin', 'dockmaster', 'system']],
  ['checked_in', 'in_progress', ['org_admin', 'dockmaster']],
  ['in_progress', 'completed', ['org_admin', 'dockmaster', 'security']],
  ['in_progress', 'overstay', ['system']],
  ['overstay', 'completed', ['org_admin', 'dockmaster', 'security']],
  ['overstay', 'in_progress', ['org_admin', 'dockmaster']],
];

describe('booking lifecycle table', () => {
  const cases = BOOKING_STATUSES.flatMap((from) =>
    BOOKING_STATUSES.flatMap((to) => LIFECYCLE_ACTORS.map((actor) => [from, to, actor] as const)),
  );

  it.each(cases)('%s → %s by %s', (from, to, actor) => {
    const expected = ALLOWED.some(([f, t, actors]) => f === from && t === to && actors.includes(actor));
    expect(canTransition(from, to, actor)).toBe(expected);
  });

  it('knows a move regardless of who makes it', () => {
    for (const from of BOOKING_STATUSES) {
      for (const to of BOOKING_STATUSES) {
        expect(isTransition(from, to)).toBe(ALLOWED.some(([f, t]) => f === from && t === to));
      }
    }
  });

  it('lists the moves an actor may make', () => {
    expect(allowedTransitions('pending', 'org_admin')).toEqual(['approved', 'declined', 'cancelled']);
    expect(allowedTransitions('pending', 'dockmaster')).toEqual(['approved']);
    expect(allowedTransitions('overstay', 'dockmaster')).toEqual(['completed', 'in_progress']);
    expect(allowedTransitions('completed', 'org_admin')).toEqual([]);
    expect(allowedTransitions('pending', 'security')).toEqual([]);
    expect(allowedTransitions('approved', 'security')).toEqual(['checked_in']);
    expect(allowedTransitions('overstay', 'security')).toEqual(['completed']);
  });

  it('derives the status lists the rest of the code uses', () => {
    expect([...TERMINAL_BOOKING_STATUSES].sort()).toEqual(['cancelled', 'completed', 'declined', 'no_show']);
    expect(HAULIER_CHANGEABLE_STATUSES).toEqual(['pending', 'approved']);
    expect([...RELEASED_BOOKING_STATUSES]).toEqual(['declined', 'cancelled', 'no_show']);
    expect([...ON_SITE_STATUSES]).toEqual(['checked_in', 'in_progress', 'overstay']);
    expect(LIVE_BOOKING_STATUSES).toEqual(['pending', 'approved', 'checked_in', 'in_progress', 'overstay']);
    expect(AT_BAY_STATUSES).toEqual(['in_progress', 'overstay']);
    expect(AWAITING_ARRIVAL_STATUSES).toEqual(['pending', 'approved']);
    expect(RESCHEDULABLE_STATUSES).toEqual(['pending', 'approved']);
    expect(BAY_HOLDING_STATUSES).toEqual(['pending', 'approved', 'checked_in', 'in_progress', 'completed', 'overstay']);
    expect(WITHDRAWN_BOOKING_STATUSES).toEqual(['declined', 'cancelled']);
    expect(CONFIRMED_BOOKING_STATUSES).toEqual(['approved', 'checked_in', 'in_progress', 'completed', 'overstay', 'no_show']);
    expect(reachableStatuses('checked_in')).toEqual(['checked_in', 'in_progress', 'completed', 'overstay']);
  });

  it('splits every status into live and terminal, released and holding, once', () => {
    for (const status of BOOKING_STATUSES) {
      expect(LIVE_BOOKING_STATUSES.includes(status)).toBe(!TERMINAL_BOOKING_STATUSES.includes(status));
      expect(RELEASED_BOOKING_STATUSES.includes(status)).toBe(!BAY_HOLDING_STATUSES.includes(status));
      // A live booking is either still to come or on site, never both.
      if (LIVE_BOOKING_STATUSES.includes(status)) expect(AWAITING_ARRIVAL_STATUSES.includes(status)).toBe(!ON_SITE_STATUSES.includes(status));
    }
    for (const status of WITHDRAWN_BOOKING_STATUSES) expect(RELEASED_BOOKING_STATUSES).toContain(status);
  });
});

describe('the lifecycle clock', () => {
  // Starts 10:00 UTC on 30 Nov 2026, a week after "now" in the other tests; one hour long.
  const booking = { startTime: new Date('2026-11-30T10:00:00Z'), endTime: new Date('2026-11-30T11:00:00Z') };
  const at = (iso: string) => new Date(iso);

  it('opens check-in an hour before the start and closes it at the no-show cut-off, both inclusive', () => {
    expect(moveWindow('approved', 'checked_in', booking)).toEqual({ opensAt: at('2026-11-30T09:00:00Z'), closesAt: at('2026-11-30T10:45:00Z') });
    expect(noShowDueAt(booking)).toEqual(at('2026-11-30T10:45:00Z'));
    expect(moveTiming('approved', 'checked_in', booking, at('2026-11-23T10:00:00Z'))).toBe('too_early'); // a week ahead
    expect(moveTiming('approved', 'checked_in', booking, at('2026-11-30T08:59:59Z'))).toBe('too_early');
    expect(moveTiming('approved', 'checked_in', booking, at('2026-11-30T09:00:00Z'))).toBe('open');
    expect(moveTiming('approved', 'checked_in', booking, at('2026-11-30T10:45:00Z'))).toBe('open');
    expect(moveTiming('approved', 'checked_in', booking, at('2026-11-30T10:45:01Z'))).toBe('too_late');
  });

  it('lets a vehicle start at its bay from an hour before its start, with no end', () => {
    expect(moveWindow('checked_in', 'in_progress', booking)).toEqual({ opensAt: at('2026-11-30T09:00:00Z'), closesAt: null });
    expect(moveTiming('checked_in', 'in_progress', booking, at('2026-11-28T09:00:00Z'))).toBe('too_early');
    expect(moveTiming('checked_in', 'in_progress', booking, at('2026-11-30T09:00:00Z'))).toBe('open');
    expect(moveTiming('checked_in', 'in_progress', booking, at('2026-12-30T09:00:00Z'))).toBe('open');
  });

  it('allows a no-show once the booking window has passed, and the sweep’s cut-off lies inside it', () => {
    expect(moveWindow('approved', 'no_show', booking)).toEqual({ opensAt: at('2026-11-30T10:30:00Z'), closesAt: null });
    expect(moveTiming('approved', 'no_show', booking, at('2026-11-30T10:29:59Z'))).toBe('too_early');
    expect(moveTiming('approved', 'no_show', booking, at('2026-11-30T10:30:00Z'))).toBe('open');
    expect(moveTiming('approved', 'no_show', booking, noShowDueAt(booking))).toBe('open');
  });

  it('makes an overstay at the end plus the threshold, as the sweep does', () => {
    expect(moveWindow('in_progress', 'overstay', booking)).toEqual({ opensAt: overstayDueAt(booking), closesAt: null });
    expect(overstayDueAt(booking)).toEqual(at('2026-11-30T11:30:00Z'));
    expect(moveTiming('in_progress', 'overstay', booking, at('2026-11-30T11:29:59Z'))).toBe('too_early');
  });

  it('leaves the other moves to the table alone', () => {
    for (const [from, to] of [['pending', 'approved'], ['pending', 'declined'], ['approved', 'cancelled'], ['in_progress', 'completed'], ['overstay', 'completed'], ['overstay', 'in_progress']] as const) {
      expect(moveWindow(from, to, booking)).toBeNull();
      expect(moveTiming(from, to, booking, at('2020-01-01T00:00:00Z'))).toBe('open');
    }
  });

  it('offers only the moves open now, and says when the others open', () => {
    const weekAhead = at('2026-11-23T10:00:00Z');
    expect(allowedTransitionsAt('approved', 'org_admin', booking, weekAhead)).toEqual(['cancelled']);
    expect(upcomingTransitions('approved', 'org_admin', booking, weekAhead)).toEqual([
      { to: 'checked_in', opensAt: at('2026-11-30T09:00:00Z') },
      { to: 'no_show', opensAt: at('2026-11-30T10:30:00Z') },
    ]);
    expect(allowedTransitionsAt('approved', 'security', booking, weekAhead)).toEqual([]);
    expect(allowedTransitionsAt('approved', 'org_admin', booking, at('2026-11-30T10:10:00Z'))).toEqual(['checked_in', 'cancelled']);
    expect(allowedTransitionsAt('approved', 'org_admin', booking, at('2026-11-30T10:40:00Z'))).toEqual(['checked_in', 'cancelled', 'no_show']);
    expect(allowedTransitionsAt('approved', 'org_admin', booking, at('2026-11-30T11:00:00Z'))).toEqual(['cancelled', 'no_show']);
    expect(upcomingTransitions('approved', 'org_admin', booking, at('2026-11-30T11:00:00Z'))).toEqual([]);
    expect(allowedTransitionsAt('checked_in', 'dockmaster', booking, weekAhead)).toEqual([]);
    expect(allowedTransitionsAt('pending', 'org_admin', booking, weekAhead)).toEqual(['approved', 'declined', 'cancelled']);
  });
});

describe('moves (another time, bay or site)', () => {
  it('keeps the status for staff and the system, sends the haulier back to review, lets a carrier follow the policy', () => {
    expect(statusAfterMove('approved', 'org_admin', false)).toBe('approved');
    expect(statusAfterMove('approved', 'dockmaster', false)).toBe('approved');
    expect(statusAfterMove('approved', 'system', false)).toBe('approved');
    expect(statusAfterMove('pending', 'org_admin', true)).toBe('pending');
    expect(statusAfterMove('approved', 'haulier', true)).toBe('pending');
    expect(statusAfterMove('pending', 'haulier', true)).toBe('pending');
    expect(statusAfterMove('approved', 'carrier', false)).toBe('pending');
    expect(statusAfterMove('approved', 'carrier', true)).toBe('approved');
    expect(statusAfterMove('pending', 'carrier', true)).toBe('approved');
  });

  it('moves only bookings that have not arrived, and a vehicle waiting at the gate by staff (keeping it checked in)', () => {
    expect(statusAfterMove('checked_in', 'dockmaster', false)).toBe('checked_in');
    expect(statusAfterMove('checked_in', 'org_admin', true)).toBe('checked_in');
    for (const status of BOOKING_STATUSES) {
      for (const mover of BOOKING_MOVERS) {
        const movable = status === 'pending' || status === 'approved' || (status === 'checked_in' && (mover === 'org_admin' || mover === 'dockmaster'));
        expect(canMove(status, mover)).toBe(movable);
        expect(statusAfterMove(status, mover, false) === null).toBe(!movable);
      }
    }
  });
});
