import { describe, expect, it } from 'vitest';
import { bookableDateRange } from './site-dates';

describe('bookableDateRange', () => {
  it("starts at the site's own today, not the browser's", () => {
    // 14:00 UTC on 23 Nov is already 01:00 on 24 Nov in Sydney.
    const now = new Date('2026-11-23T14:00:00Z');
    expect(bookableDateRange([{ timeZone: 'Australia/Sydney', bookingHorizonDays: 60 }], now)).toEqual({
      minDate: '2026-11-24',
      maxDate: '2027-01-23',
    });
  });

  it('spans every site of the organization', () => {
    const now = new Date('2026-11-23T14:00:00Z');
    expect(
      bookableDateRange([{ timeZone: 'Australia/Sydney', bookingHorizonDays: 10 }, { timeZone: 'Europe/London', bookingHorizonDays: 30 }], now),
    ).toEqual({ minDate: '2026-11-23', maxDate: '2026-12-23' });
    expect(bookableDateRange([], now)).toBeNull();
  });
});
