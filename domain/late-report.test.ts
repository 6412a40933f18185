import { describe, expect, it } from 'vitest';
import { canReportLate, checkInClosesAt, fitsSlot, lateEtaLabel, lateReportSchema, pickLateOffers } from './late-report';

// The pure rules of running late (decision 043), in a site zone that is not UTC.

const TZ = 'Australia/Sydney'; // UTC+11 in November
const at = (time: string) => new Date(`2026-11-24T${time}:00+11:00`);

describe('fitsSlot', () => {
  it('fits up to the close of the check-in window (start + 45 min), inclusive', () => {
    expect(checkInClosesAt(at('10:00'))).toEqual(at('10:45'));
    expect(fitsSlot(at('09:30'), at('10:00'))).toBe(true);
    expect(fitsSlot(at('10:45'), at('10:00'))).toBe(true);
    expect(fitsSlot(at('10:46'), at('10:00'))).toBe(false);
  });
});

describe('canReportLate', () => {
  const now = at('09:00');
  it('is open on the booking’s own day at the site while the truck is still to arrive', () => {
    expect(canReportLate({ status: 'approved', startTime: at('10:00') }, TZ, now)).toBe(true);
    expect(canReportLate({ status: 'pending', startTime: at('23:30') }, TZ, now)).toBe(true);
    // 10:00 tomorrow in Sydney is the same UTC date as now, but not the site's today.
    expect(canReportLate({ status: 'approved', startTime: new Date(at('10:00').getTime() + 86_400_000) }, TZ, now)).toBe(false);
    for (const status of ['checked_in', 'in_progress', 'cancelled', 'declined', 'no_show', 'completed']) {
      expect(canReportLate({ status, startTime: at('10:00') }, TZ, now), status).toBe(false);
    }
  });
});

describe('pickLateOffers', () => {
  const slot = (time: string, free: number, bookable = true) => ({
    time,
    start: at(time),
    end: new Date(at(time).getTime() + 3_600_000),
    bookable,
    candidates: Array.from({ length: free }, (_, i) => i),
  });

  it('offers free slots from the ETA on, earliest first, at most five', () => {
    const slots = [slot('12:30', 1), slot('10:30', 2), slot('11:00', 0), slot('11:30', 1, false), slot('12:00', 1), slot('13:00', 1), slot('13:30', 1), slot('14:00', 1), slot('14:30', 1)];
    expect(pickLateOffers(slots, at('10:50')).map((o) => o.time)).toEqual(['12:00', '12:30', '13:00', '13:30', '14:00']);
    expect(pickLateOffers(slots, at('12:00'))[0]).toEqual({ time: '12:00', start: at('12:00').toISOString(), end: at('13:00').toISOString() });
    expect(pickLateOffers(slots, at('15:00'))).toEqual([]);
  });
});

describe('the ETA', () => {
  it('is a time of day, and the dock reads it in the site’s time', () => {
    expect(lateReportSchema.safeParse({ eta: '10:40' }).success).toBe(true);
    expect(lateReportSchema.safeParse({ eta: '10.40' }).success).toBe(false);
    expect(lateReportSchema.safeParse({}).success).toBe(false);
    expect(lateEtaLabel('2026-11-23T23:40:00.000Z', TZ)).toBe('late, ETA 10:40');
  });
});
