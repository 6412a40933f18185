import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS, type OperatingHours } from './constants';
import {
  OUTSIDE_OPERATING_HOURS_MESSAGE,
  buildSlotGrid,
  findSlot,
  formatMinutes,
  formatTimeOfDay,
  isBeforeToday,
  isValidTimeZone,
  localDateOf,
  localTimeOf,
  parseLocalDate,
  parseTimeOfDay,
  slotUnavailableMessage,
  todayIn,
  weekdayOf,
  zonedTimeToUtc,
  type Slot,
  type SlotGridOptions,
} from './slot-grid';

// Frozen clock: every grid gets a `now` well before its date unless a test is about `now`.
const LONG_AGO = new Date('2026-01-01T00:00:00Z');
const ALL_DAY = [{ open: '00:00', close: '24:00' }];
const OPEN_ALL_WEEK: OperatingHours = {
  mon: ALL_DAY,
  tue: ALL_DAY,
  wed: ALL_DAY,
  thu: ALL_DAY,
  fri: ALL_DAY,
  sat: ALL_DAY,
  sun: ALL_DAY,
};

function grid(options: Partial<SlotGridOptions> & Pick<SlotGridOptions, 'date'>): Slot[] {
  return buildSlotGrid({ timeZone: 'UTC', operatingHours: DEFAULT_OPERATING_HOURS, now: LONG_AGO, ...options });
}

const labels = (slots: Slot[]) => slots.map((slot) => slot.label);
const iso = (date: Date) => date.toISOString();
const startOf = (slots: Slot[], label: string) => iso(findSlot(slots, label)!.start);
const firstBookable = (slots: Slot[]) => slots.find((slot) => slot.bookable)?.label;

describe('buildSlotGrid: the weekly grid (UTC)', () => {
  it('gives 06:00..21:30, 32 half-hour slots, on a weekday (spec §9)', () => {
    const slots = grid({ date: '2026-06-01' }); // Monday
    expect(slots).toHaveLength(32);
    expect(slots[0].label).toBe('06:00');
    expect(slots[31].label).toBe('21:30');
    expect(iso(slots[0].start)).toBe('2026-06-01T06:00:00.000Z');
    expect(iso(slots[0].end)).toBe('2026-06-01T06:30:00.000Z');
    expect(slots.every((slot) => slot.bookable && slot.reason === undefined)).toBe(true);
  });

  it('gives 08:00..17:30, 20 slots, on Saturday', () => {
    const slots = grid({ date: '2026-06-06' });
    expect(slots).toHaveLength(20);
    expect([slots[0].label, slots[19].label]).toEqual(['08:00', '17:30']);
  });

  it('gives 10:00..15:30, 12 slots, on Sunday', () => {
    const slots = grid({ date: '2026-06-07' });
    expect(slots).toHaveLength(12);
    expect([slots[0].label, slots[11].label]).toEqual(['10:00', '15:30']);
  });

  it('gives no slots on a closed day, or when hours cannot be read', () => {
    expect(grid({ date: '2026-06-07', operatingHours: { ...DEFAULT_OPERATING_HOURS, sun: [] } })).toEqual([]);
    const sundayHours = (open: string, close: string) => ({ ...DEFAULT_OPERATING_HOURS, sun: [{ open, close }] });
    expect(grid({ date: '2026-06-07', operatingHours: sundayHours('16:00', '10:00') })).toEqual([]);
    expect(grid({ date: '2026-06-07', operatingHours: sundayHours('9am', '5pm') })).toEqual([]);
  });

  it('gives each opening window its own slots: none in a lunch break, none running into it', () => {
    const split = { ...DEFAULT_OPERATING_HOURS, mon: [{ open: '06:00', close: '12:00' }, { open: '13:00', close: '15:00' }] };
    const slots = grid({ date: '2026-06-08', operatingHours: split, durationMin: 60 });
    expect(slots.map((s) => s.label)).toEqual([
      '06:00', '06:30', '07:00', '07:30', '08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30',
      '13:00', '13:30', '14:00', '14:30',
    ]);
    // An hour from 11:30 would run into the break; from 14:30 past closing.
    expect(slots.filter((s) => !s.bookable).map((s) => [s.label, s.reason])).toEqual([['11:30', 'after_close'], ['14:30', 'after_close']]);
  });

  it('reads a day saved as one {open, close} object or null (sites saved before several windows a day)', () => {
    const legacy = { ...DEFAULT_OPERATING_HOURS, mon: { open: '08:00', close: '09:00' }, tue: null } as unknown as OperatingHours;
    expect(grid({ date: '2026-06-08', operatingHours: legacy }).map((s) => s.label)).toEqual(['08:00', '08:30']);
    expect(grid({ date: '2026-06-09', operatingHours: legacy })).toEqual([]);
  });

  it('follows the site interval and accepts 24:00 as closing time', () => {
    const hourly = grid({ date: '2026-06-01', slotIntervalMin: 60 });
    expect(labels(hourly)).toEqual(Array.from({ length: 16 }, (_, i) => `${String(6 + i).padStart(2, '0')}:00`));
    expect(labels(hourly).at(-1)).toBe('21:00');
    const allDay = grid({ date: '2026-06-01', operatingHours: OPEN_ALL_WEEK });
    expect(allDay).toHaveLength(48);
    expect(allDay[47]).toMatchObject({ label: '23:30', bookable: true });
  });

  it('refuses unreadable input loudly (callers validate first)', () => {
    expect(() => grid({ date: '2026-02-30' })).toThrow(RangeError);
    expect(() => grid({ date: '2026-06-01', timeZone: 'Mars/Olympus_Mons' })).toThrow(/Unknown time zone/);
    expect(() => grid({ date: '2026-06-01', slotIntervalMin: 0 })).toThrow(RangeError);
    expect(() => grid({ date: '2026-06-01', durationMin: 12.5 })).toThrow(RangeError);
    expect(() => grid({ date: '2026-06-01', minAdvanceMin: -1 })).toThrow(RangeError);
  });
});

describe('buildSlotGrid: minimum advance and the past', () => {
  it('offers nothing before now + 120 min: at 07:10 the first bookable slot is 09:30', () => {
    const slots = grid({ date: '2026-06-01', now: new Date('2026-06-01T07:10:00Z') });
    expect(firstBookable(slots)).toBe('09:30');
    expect(findSlot(slots, '06:30')).toMatchObject({ bookable: false, reason: 'past' });
    expect(findSlot(slots, '07:00')).toMatchObject({ bookable: false, reason: 'past' });
    expect(findSlot(slots, '07:30')).toMatchObject({ bookable: false, reason: 'too_soon' });
    expect(findSlot(slots, '09:00')).toMatchObject({ bookable: false, reason: 'too_soon' });
    expect(findSlot(slots, '09:30')).toMatchObject({ bookable: true });
  });

  it('does the same in the site time zone, whatever the machine zone', () => {
    // 07:10 in Sydney (AEST, UTC+10) is 21:10 UTC the day before.
    const slots = grid({ date: '2026-06-01', timeZone: 'Australia/Sydney', now: new Date('2026-05-31T21:10:00Z') });
    expect(firstBookable(slots)).toBe('09:30');
    expect(startOf(slots, '09:30')).toBe('2026-05-31T23:30:00.000Z');
  });

  it('treats a slot exactly at now + advance as bookable, and exactly at now as too soon', () => {
    const slots = grid({ date: '2026-06-01', now: new Date('2026-06-01T07:30:00Z') });
    expect(findSlot(slots, '07:30')).toMatchObject({ bookable: false, reason: 'too_soon' });
    expect(findSlot(slots, '09:00')).toMatchObject({ bookable: false, reason: 'too_soon' });
    expect(findSlot(slots, '09:30')).toMatchObject({ bookable: true });
  });

  it('honours a site-specific advance, including none', () => {
    const now = new Date('2026-06-01T07:10:00Z');
    expect(firstBookable(grid({ date: '2026-06-01', now, minAdvanceMin: 0 }))).toBe('07:30');
    expect(firstBookable(grid({ date: '2026-06-01', now, minAdvanceMin: 24 * 60 }))).toBeUndefined();
  });

  it('marks every slot of a past day as past', () => {
    const slots = grid({ date: '2026-06-01', now: new Date('2026-06-02T00:00:00Z') });
    expect(slots.every((slot) => slot.reason === 'past')).toBe(true);
  });
});

describe('buildSlotGrid: duration and closing time', () => {
  it('ends each slot after the requested duration, across several grid steps', () => {
    const slots = grid({ date: '2026-06-01', durationMin: 240 });
    expect(iso(findSlot(slots, '09:00')!.end)).toBe('2026-06-01T13:00:00.000Z');
  });

  it('refuses a booking that would run past closing time', () => {
    const slots = grid({ date: '2026-06-01', durationMin: 240 });
    expect(findSlot(slots, '18:00')).toMatchObject({ bookable: true }); // ends 22:00 exactly
    expect(findSlot(slots, '18:30')).toMatchObject({ bookable: false, reason: 'after_close' });
    expect(slots.filter((slot) => slot.bookable)).toHaveLength(25); // 06:00..18:00
    expect(slots).toHaveLength(32); // still shown, disabled
  });

  it('lets a 30-minute booking take the last slot but not a 45-minute one', () => {
    expect(findSlot(grid({ date: '2026-06-01', durationMin: 30 }), '21:30')).toMatchObject({ bookable: true });
    expect(findSlot(grid({ date: '2026-06-01', durationMin: 45 }), '21:30')).toMatchObject({ reason: 'after_close' });
    expect(findSlot(grid({ date: '2026-06-01', durationMin: 45 }), '21:00')).toMatchObject({ bookable: true });
  });

  it('a 15-minute booking fits every slot', () => {
    expect(grid({ date: '2026-06-07', durationMin: 15 }).every((slot) => slot.bookable)).toBe(true);
  });

  it('reports the past before too soon before after closing', () => {
    const slots = grid({ date: '2026-06-01', durationMin: 480, now: new Date('2026-06-01T19:00:00Z') });
    expect(findSlot(slots, '18:30')!.reason).toBe('past');
    expect(findSlot(slots, '20:00')!.reason).toBe('too_soon');
    expect(findSlot(slots, '21:00')!.reason).toBe('after_close');
  });
});

describe('buildSlotGrid: time zones and daylight saving', () => {
  it('Australia/Sydney: a normal weekday is 06:00-21:30 AEST', () => {
    const slots = grid({ date: '2026-07-15', timeZone: 'Australia/Sydney' });
    expect(slots).toHaveLength(32);
    expect(startOf(slots, '06:00')).toBe('2026-07-14T20:00:00.000Z');
    expect(startOf(slots, '21:30')).toBe('2026-07-15T11:30:00.000Z');
  });

  it('Australia/Sydney 2026-10-04 (spring forward at 02:00): 02:00 and 02:30 do not exist', () => {
    const slots = grid({ date: '2026-10-04', timeZone: 'Australia/Sydney', operatingHours: OPEN_ALL_WEEK });
    expect(slots).toHaveLength(46);
    expect(labels(slots)).not.toContain('02:00');
    expect(labels(slots)).not.toContain('02:30');
    expect(startOf(slots, '01:30')).toBe('2026-10-03T15:30:00.000Z'); // AEST +10
    expect(startOf(slots, '03:00')).toBe('2026-10-03T16:00:00.000Z'); // AEDT +11
    // 01:30 + 60 min of real time is 03:30 on the clock.
    const crossing = grid({ date: '2026-10-04', timeZone: 'Australia/Sydney', operatingHours: OPEN_ALL_WEEK, durationMin: 60 });
    expect(localTimeOf(findSlot(crossing, '01:30')!.end, 'Australia/Sydney')).toBe('03:30');
  });

  it('Australia/Sydney 2026-10-04 with the default Sunday hours: 12 slots on summer time', () => {
    const slots = grid({ date: '2026-10-04', timeZone: 'Australia/Sydney' });
    expect(slots).toHaveLength(12);
    expect(startOf(slots, '10:00')).toBe('2026-10-03T23:00:00.000Z');
  });

  it('Europe/London 2026-03-29 (spring forward at 01:00): 01:00 and 01:30 do not exist', () => {
    const slots = grid({ date: '2026-03-29', timeZone: 'Europe/London', operatingHours: OPEN_ALL_WEEK });
    expect(slots).toHaveLength(46);
    expect(labels(slots).slice(0, 4)).toEqual(['00:00', '00:30', '02:00', '02:30']);
    expect(startOf(slots, '00:30')).toBe('2026-03-29T00:30:00.000Z'); // GMT
    expect(startOf(slots, '02:00')).toBe('2026-03-29T01:00:00.000Z'); // BST
    expect(startOf(slots, '23:30')).toBe('2026-03-29T22:30:00.000Z');
    expect(grid({ date: '2026-03-29', timeZone: 'Europe/London' }).map((s) => iso(s.start))[0]).toBe('2026-03-29T09:00:00.000Z');
  });

  it('Europe/London 2026-10-25 (fall back at 02:00): the repeated hour is offered once, at its first occurrence', () => {
    const slots = grid({ date: '2026-10-25', timeZone: 'Europe/London', operatingHours: OPEN_ALL_WEEK });
    expect(slots).toHaveLength(48);
    expect(new Set(labels(slots)).size).toBe(48);
    expect(startOf(slots, '00:30')).toBe('2026-10-24T23:30:00.000Z'); // BST
    expect(startOf(slots, '01:00')).toBe('2026-10-25T00:00:00.000Z'); // first 01:00, BST
    expect(startOf(slots, '01:30')).toBe('2026-10-25T00:30:00.000Z'); // first 01:30, BST
    expect(startOf(slots, '02:00')).toBe('2026-10-25T02:00:00.000Z'); // GMT
    expect(startOf(slots, '23:30')).toBe('2026-10-25T23:30:00.000Z');
    // A 60-minute booking at the first 01:30 ends at 01:30 GMT on the clock.
    const hourLong = grid({ date: '2026-10-25', timeZone: 'Europe/London', operatingHours: OPEN_ALL_WEEK, durationMin: 60 });
    expect(iso(findSlot(hourLong, '01:30')!.end)).toBe('2026-10-25T01:30:00.000Z');
    // Default Sunday hours are after the change, on GMT.
    expect(startOf(grid({ date: '2026-10-25', timeZone: 'Europe/London' }), '10:00')).toBe('2026-10-25T10:00:00.000Z');
  });

  it('America/New_York 2026-03-08 (spring forward at 02:00) and 2026-11-01 (fall back at 02:00)', () => {
    const spring = grid({ date: '2026-03-08', timeZone: 'America/New_York', operatingHours: OPEN_ALL_WEEK });
    expect(spring).toHaveLength(46);
    expect(labels(spring)).not.toContain('02:00');
    expect(startOf(spring, '01:30')).toBe('2026-03-08T06:30:00.000Z'); // EST -5
    expect(startOf(spring, '03:00')).toBe('2026-03-08T07:00:00.000Z'); // EDT -4

    const fall = grid({ date: '2026-11-01', timeZone: 'America/New_York', operatingHours: OPEN_ALL_WEEK });
    expect(fall).toHaveLength(48);
    expect(startOf(fall, '01:30')).toBe('2026-11-01T05:30:00.000Z'); // first 01:30, EDT
    expect(startOf(fall, '02:00')).toBe('2026-11-01T07:00:00.000Z'); // EST
  });

  it('America/New_York: a weekday grid and the minimum advance in local time', () => {
    const slots = grid({ date: '2026-07-15', timeZone: 'America/New_York', now: new Date('2026-07-15T11:10:00Z') }); // 07:10 EDT
    expect(startOf(slots, '06:00')).toBe('2026-07-15T10:00:00.000Z');
    expect(firstBookable(slots)).toBe('09:30');
  });

  it('every slot, in any zone on any day of 2026, starts at its own label on its own date, in order', () => {
    const zones = ['UTC', 'Australia/Sydney', 'Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];
    const dates = fc.integer({ min: 0, max: 364 }).map((day) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(dates, fc.constantFrom(...zones), (date, timeZone) => {
        const slots = grid({ date, timeZone, operatingHours: OPEN_ALL_WEEK });
        expect(slots.length).toBeGreaterThanOrEqual(46);
        for (const [index, slot] of slots.entries()) {
          expect(localDateOf(slot.start, timeZone)).toBe(date);
          expect(localTimeOf(slot.start, timeZone)).toBe(slot.label);
          if (index > 0) expect(slot.start.getTime()).toBeGreaterThan(slots[index - 1].start.getTime());
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('date and time helpers', () => {
  it('parseLocalDate reads real dates only', () => {
    expect(parseLocalDate('2026-03-29')).toEqual({ year: 2026, month: 3, day: 29 });
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseLocalDate('2026-02-29')).toBeNull();
    expect(parseLocalDate('2026-3-29')).toBeNull();
    expect(parseLocalDate('')).toBeNull();
  });

  it('parseTimeOfDay and formatTimeOfDay', () => {
    expect(parseTimeOfDay('06:00')).toBe(360);
    expect(parseTimeOfDay('24:00')).toBe(1440);
    expect(parseTimeOfDay('24:30')).toBeNull();
    expect(parseTimeOfDay('12:60')).toBeNull();
    expect(parseTimeOfDay('6:00')).toBeNull();
    expect(formatTimeOfDay(570)).toBe('09:30');
  });

  it('weekdayOf a calendar date, and of an instant seen in a zone', () => {
    expect(weekdayOf('2026-06-01')).toBe('mon');
    expect(weekdayOf('2026-03-29', 'Europe/London')).toBe('sun');
    expect(weekdayOf(new Date('2026-03-29T23:30:00Z'), 'UTC')).toBe('sun');
    expect(weekdayOf(new Date('2026-03-29T23:30:00Z'), 'Australia/Sydney')).toBe('mon');
    expect(weekdayOf(new Date('2026-03-29T23:30:00Z'), 'America/New_York')).toBe('sun');
  });

  it('zonedTimeToUtc: repeated times take the first occurrence; missing times are rejected or moved forward', () => {
    expect(iso(zonedTimeToUtc('2026-10-25', 90, 'Europe/London'))).toBe('2026-10-25T00:30:00.000Z');
    expect(zonedTimeToUtc('2026-03-29', 90, 'Europe/London', 'reject')).toBeNull();
    expect(iso(zonedTimeToUtc('2026-03-29', 90, 'Europe/London'))).toBe('2026-03-29T01:30:00.000Z'); // = 02:30 BST
    expect(iso(zonedTimeToUtc('2026-06-01', 24 * 60, 'UTC'))).toBe('2026-06-02T00:00:00.000Z');
    expect(iso(zonedTimeToUtc('2026-06-01', 600, 'Asia/Kolkata'))).toBe('2026-06-01T04:30:00.000Z');
  });

  it('todayIn and isBeforeToday use the site calendar', () => {
    const now = new Date('2026-03-28T14:00:00Z'); // 01:00 on the 29th in Sydney
    expect(todayIn('UTC', now)).toBe('2026-03-28');
    expect(todayIn('Australia/Sydney', now)).toBe('2026-03-29');
    expect(isBeforeToday('2026-03-28', 'Australia/Sydney', now)).toBe(true);
    expect(isBeforeToday('2026-03-28', 'UTC', now)).toBe(false);
    expect(isBeforeToday('2026-03-29', 'Australia/Sydney', now)).toBe(false);
  });

  it('isValidTimeZone', () => {
    expect(isValidTimeZone('Australia/Sydney')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Nowhere/Else')).toBe(false);
  });
});

describe('messages for slots that cannot be booked', () => {
  it('explains each reason', () => {
    expect(slotUnavailableMessage('past')).toBe('The selected time slot has already passed');
    expect(slotUnavailableMessage('too_soon')).toBe('Bookings must be made at least 2 hours in advance');
    expect(slotUnavailableMessage('too_soon', 90)).toBe('Bookings must be made at least 90 minutes in advance');
    expect(slotUnavailableMessage('after_close')).toMatch(/past closing time/);
    expect(OUTSIDE_OPERATING_HOURS_MESSAGE).toBe('The selected time slot is outside operating hours');
  });

  it('formatMinutes', () => {
    expect([formatMinutes(60), formatMinutes(120), formatMinutes(90), formatMinutes(1), formatMinutes(0)]).toEqual([
      '1 hour',
      '2 hours',
      '90 minutes',
      '1 minute',
      '0 minutes',
    ]);
  });
});
