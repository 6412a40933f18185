import { describe, expect, it } from 'vitest';
import {
  describeStandingSchedule,
  expansionWindow,
  occurrenceTimes,
  standingBookingInputSchema,
  standingOccurrenceDates,
} from './standing-bookings';

// Run with TZ=UTC: nothing here may depend on the machine's zone; the site's zone is explicit.

const valid = {
  siteId: '6f1c2b8e-8a57-4c1b-9d7e-1f2a3b4c5d6e',
  weekdays: [4, 2, 2],
  startLocal: '07:00',
  durationMin: 60,
  startsOn: '2027-03-01',
  tsrNumber: 'TSR-1',
  tenantName: 'Weekly Freight',
  contactName: 'Ann',
  tenantEmail: 'ann@weekly.example',
  vehicleType: 'rigid',
  vehicleRegistration: 'ab12 cde',
  vehicleHeightM: 3.8,
};

describe('standing booking input', () => {
  it('takes a valid series: weekdays sorted once each, registration upper-cased, defaults', () => {
    const parsed = standingBookingInputSchema.parse(valid);
    expect(parsed.weekdays).toEqual([2, 4]);
    expect(parsed.vehicleRegistration).toBe('AB12 CDE');
    expect(parsed.weeksAhead).toBe(4);
    expect(parsed.endsOn).toBeNull();
    expect(parsed.language).toBe('en');
    expect(parsed.bookingType).toBe('delivery');
  });

  it('refuses with the booking form’s messages and its own', () => {
    const messages = (input: object) => {
      const result = standingBookingInputSchema.safeParse(input);
      return result.success ? [] : result.error.issues.map((i) => i.message);
    };
    expect(messages({ ...valid, weekdays: [] })).toContain('Choose at least one weekday');
    expect(messages({ ...valid, weekdays: [0, 8] })).toContain('Weekdays are numbers from 1 (Monday) to 7 (Sunday)');
    expect(messages({ ...valid, startLocal: '7am' })).toContain('Start time must be a time of day (HH:mm)');
    expect(messages({ ...valid, durationMin: 5 })).toContain('Expected duration must be between 15 and 480 minutes');
    expect(messages({ ...valid, endsOn: '2027-02-28' })).toContain('The end date must be on or after the start date');
    expect(messages({ ...valid, weeksAhead: 27 })).toContain('Weeks ahead must be a whole number from 1 to 26');
    expect(messages({ ...valid, tenantEmail: 'nope' })).toContain('Please enter a valid email address');
    expect(messages({ ...valid, tsrNumber: ' ' })).toContain('TSR Number is required');
    expect(messages({ ...valid, vehicleHeightM: '' })).toContain('Vehicle Height is required');
    expect(messages({ ...valid, siteId: '' })).toContain('Site is required');
    expect(messages({ ...valid, language: 'xx' })).toContain('Choose English, Deutsch, Polski or Français');
  });
});

describe('standing occurrence dates', () => {
  it('lists each chosen weekday in the window, within the series’ own dates', () => {
    const series = { weekdays: [2, 4], startsOn: '2026-12-02', endsOn: '2026-12-15' };
    // 1 Dec 2026 is a Tuesday.
    expect(standingOccurrenceDates(series, { from: '2026-11-30', to: '2026-12-31' })).toEqual(['2026-12-03', '2026-12-08', '2026-12-10', '2026-12-15']);
    expect(standingOccurrenceDates({ ...series, endsOn: null }, { from: '2026-12-16', to: '2026-12-22' })).toEqual(['2026-12-17', '2026-12-22']);
    expect(standingOccurrenceDates(series, { from: '2026-12-16', to: '2026-12-31' })).toEqual([]);
  });

  it('keeps 07:00 on the wall clock across a daylight-saving change (Europe/London, Europe/Berlin)', () => {
    const dates = standingOccurrenceDates({ weekdays: [5, 1], startsOn: '2027-03-22', endsOn: null }, { from: '2027-03-22', to: '2027-04-02' });
    // Summer time starts on Sunday 28 March 2027.
    expect(dates).toEqual(['2027-03-22', '2027-03-26', '2027-03-29', '2027-04-02']);
    const london = dates.map((d) => occurrenceTimes(d, '07:00', 60, 'Europe/London').start.toISOString());
    expect(london).toEqual(['2027-03-22T07:00:00.000Z', '2027-03-26T07:00:00.000Z', '2027-03-29T06:00:00.000Z', '2027-04-02T06:00:00.000Z']);
    const berlin = occurrenceTimes('2027-10-29', '07:00', 90, 'Europe/Berlin');
    const berlinAfter = occurrenceTimes('2027-11-01', '07:00', 90, 'Europe/Berlin');
    // Winter time from Sunday 31 October 2027: 05:00 UTC before, 06:00 UTC after.
    expect(berlin.start.toISOString()).toBe('2027-10-29T05:00:00.000Z');
    expect(berlin.end.toISOString()).toBe('2027-10-29T06:30:00.000Z');
    expect(berlinAfter.start.toISOString()).toBe('2027-11-01T06:00:00.000Z');
  });
});

describe('expansion window', () => {
  const series = { startsOn: '2026-11-20', endsOn: null, weeksAhead: 2, expandedThrough: null };
  it('starts today (never in the past) and reaches weeksAhead weeks', () => {
    expect(expansionWindow(series, '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-12-07' });
  });
  it('goes on the day after the last date written, and stops at the end date', () => {
    expect(expansionWindow({ ...series, expandedThrough: '2026-12-07' }, '2026-11-24')).toEqual({ from: '2026-12-08', to: '2026-12-08' });
    expect(expansionWindow({ ...series, expandedThrough: '2026-12-08' }, '2026-11-24')).toBeNull();
    expect(expansionWindow({ ...series, endsOn: '2026-11-30' }, '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-30' });
    expect(expansionWindow({ ...series, startsOn: '2027-01-04' }, '2026-11-23')).toBeNull();
  });
});

describe('schedule in words', () => {
  it('names the weekdays, time, duration and dates', () => {
    expect(describeStandingSchedule({ weekdays: [4, 2], startLocal: '07:00', durationMin: 60, startsOn: '2026-12-01', endsOn: null })).toBe('Tue, Thu 07:00, 60 min, from 2026-12-01, open-ended');
    expect(describeStandingSchedule({ weekdays: [1], startLocal: '06:30', durationMin: 45, startsOn: '2026-12-01', endsOn: '2027-01-31' })).toBe('Mon 06:30, 45 min, from 2026-12-01 until 2027-01-31');
  });
});
