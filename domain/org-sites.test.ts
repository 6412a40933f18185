import { describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from './constants';
import { createSiteSchema, fitsOpeningHours, holidayDates, holidayInstants, summarizeWeekHours, updateSiteSchema } from './org-sites';

const LUNCH = { ...DEFAULT_OPERATING_HOURS, mon: [{ open: '06:00', close: '12:00' }, { open: '13:00', close: '22:00' }] };

describe('fitsOpeningHours', () => {
  const at = (iso: string) => new Date(iso);
  it('needs the whole booking inside one window of its local day', () => {
    // Monday 30 Nov 2026 in Sydney (UTC+11): 09:00 is 22:00Z the day before.
    expect(fitsOpeningHours(at('2026-11-29T22:00:00Z'), at('2026-11-29T23:00:00Z'), 'Australia/Sydney', LUNCH)).toBe(true);
    // 11:30–12:30 runs into the break; 12:00–13:00 is the break.
    expect(fitsOpeningHours(at('2026-11-30T00:30:00Z'), at('2026-11-30T01:30:00Z'), 'Australia/Sydney', LUNCH)).toBe(false);
    expect(fitsOpeningHours(at('2026-11-30T01:00:00Z'), at('2026-11-30T02:00:00Z'), 'Australia/Sydney', LUNCH)).toBe(false);
    // 11:00–14:00 spans both windows: not within one.
    expect(fitsOpeningHours(at('2026-11-30T00:00:00Z'), at('2026-11-30T03:00:00Z'), 'Australia/Sydney', LUNCH)).toBe(false);
    // A closed day fits nothing.
    expect(fitsOpeningHours(at('2026-11-30T00:00:00Z'), at('2026-11-30T00:30:00Z'), 'Australia/Sydney', { ...LUNCH, mon: [] })).toBe(false);
  });

  it('reads a window closing at 24:00 as the next midnight, and the local day in the zone given', () => {
    const lateHours = { ...DEFAULT_OPERATING_HOURS, mon: [{ open: '18:00', close: '24:00' }] };
    expect(fitsOpeningHours(new Date('2026-11-30T12:00:00Z'), new Date('2026-11-30T13:00:00Z'), 'Australia/Sydney', lateHours)).toBe(true);
    // The same instants are Monday 09:00 in London: inside the default hours there.
    expect(fitsOpeningHours(new Date('2026-11-30T09:00:00Z'), new Date('2026-11-30T10:00:00Z'), 'Europe/London', DEFAULT_OPERATING_HOURS)).toBe(true);
  });
});

describe('holiday instants', () => {
  it('runs from local midnight of the first day to local midnight after the last, and back', () => {
    const { start, end } = holidayInstants('2026-12-25', '2026-12-26', 'Australia/Sydney');
    expect(start.toISOString()).toBe('2026-12-24T13:00:00.000Z');
    expect(end.toISOString()).toBe('2026-12-26T13:00:00.000Z');
    expect(holidayDates(start, end, 'Australia/Sydney')).toEqual({ fromDate: '2026-12-25', toDate: '2026-12-26' });
  });

  it('keeps whole days across a clock change (London, 29 March 2026 has 23 hours)', () => {
    const { start, end } = holidayInstants('2026-03-29', '2026-03-29', 'Europe/London');
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(23);
  });
});

describe('site schemas', () => {
  it('fills the defaults on create and none on update', () => {
    expect(createSiteSchema.parse({ name: 'Yard', timeZone: 'UTC' })).toMatchObject({ slotIntervalMin: 30, minAdvanceMin: 120, bookingHorizonDays: 60, operatingHours: DEFAULT_OPERATING_HOURS });
    expect(updateSiteSchema.parse({ name: 'Yard' })).toEqual({ name: 'Yard' });
  });

  it('stores blank optional text as null and spells a time zone as the runtime does', () => {
    expect(updateSiteSchema.parse({ address: '  ', contactPhone: '', contactEmail: '', timeZone: 'europe/london' })).toEqual({
      address: null,
      contactPhone: null,
      contactEmail: null,
      timeZone: 'Europe/London',
    });
  });
});

describe('summarizeWeekHours', () => {
  it('runs equal neighbouring days together', () => {
    expect(summarizeWeekHours(DEFAULT_OPERATING_HOURS)).toBe('Mon–Fri 06:00-22:00 · Sat 08:00-18:00 · Sun 10:00-16:00');
    expect(summarizeWeekHours({ ...LUNCH, sun: [] })).toBe('Mon 06:00-12:00, 13:00-22:00 · Tue–Fri 06:00-22:00 · Sat 08:00-18:00 · Sun Closed');
  });
});
