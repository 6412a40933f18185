import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  BOOKING_MOVERS,
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

  it('moves only bookings that have not arrived', () => {
    for (const status of BOOKING_STATUSES) {
      const movable = status === 'pending' || status === 'approved';
      for (const mover of BOOKING_MOVERS) {
        expect(canMove(status, mover)).toBe(movable);
        expect(statusAfterMove(status, mover, false) === null).toBe(!movable);
      }
    }
  });
});
