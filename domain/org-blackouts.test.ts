import { describe, expect, it } from 'vitest';
import {
  END_BEFORE_START_MESSAGE,
  MAX_OCCURRENCES_PER_EXPANSION,
  RecurrenceError,
  UNTIL_BEFORE_START_MESSAGE,
  WEEKDAYS_REQUIRED_MESSAGE,
  addDays,
  blackoutFormSchema,
  buildRrule,
  createSeriesSchema,
  describeRecurrence,
  describeSeries,
  expandSeries,
  expansionEnd,
  occurrenceDates,
  parseRrule,
  updateSeriesSchema,
} from './org-blackouts';
import { localDateOf, localTimeOf } from './slot-grid';

// Recurring blackouts are expanded in "floating" time: the rule makes local dates, each date plus
// the local start time becomes an instant in the site's zone — 06:00 stays 06:00 across DST.

const EVERY_MONDAY = buildRrule({ frequency: 'weekly', interval: 1, weekdays: ['mon'] });
const iso = (d: Date) => d.toISOString();

describe('expandSeries', () => {
  it('keeps every Monday 06:00–08:00 at 06:00 London time across the 2026-10-25 change (05:00Z before, 06:00Z after)', () => {
    const { occurrences, coveredUntil } = expandSeries(
      { rrule: EVERY_MONDAY, startsOn: '2026-10-12', startLocal: '06:00', durationMin: 120, until: null },
      { timeZone: 'Europe/London', from: '2026-10-12', to: '2026-11-09' },
    );
    expect(occurrences.map((o) => o.date)).toEqual(['2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09']);
    expect(occurrences.map((o) => iso(o.start))).toEqual([
      '2026-10-12T05:00:00.000Z',
      '2026-10-19T05:00:00.000Z',
      '2026-10-26T06:00:00.000Z',
      '2026-11-02T06:00:00.000Z',
      '2026-11-09T06:00:00.000Z',
    ]);
    for (const o of occurrences) {
      expect(localTimeOf(o.start, 'Europe/London')).toBe('06:00');
      expect(localTimeOf(o.end, 'Europe/London')).toBe('08:00');
      expect(localDateOf(o.start, 'Europe/London')).toBe(o.date);
      expect(o.end.getTime() - o.start.getTime()).toBe(2 * 3_600_000);
    }
    expect(coveredUntil).toBe('2026-11-09');
  });

  it('keeps the local time in the southern hemisphere too (Sydney starts summer time on 2026-10-04)', () => {
    const { occurrences } = expandSeries(
      { rrule: 'FREQ=DAILY;INTERVAL=1', startsOn: '2026-10-03', startLocal: '09:00', durationMin: 30, until: null },
      { timeZone: 'Australia/Sydney', from: '2026-10-03', to: '2026-10-05' },
    );
    expect(occurrences.map((o) => iso(o.start))).toEqual(['2026-10-02T23:00:00.000Z', '2026-10-03T22:00:00.000Z', '2026-10-04T22:00:00.000Z']);
  });

  it('moves a start time the spring-forward change skips forward by the gap, and lasts its full duration', () => {
    const { occurrences } = expandSeries(
      { rrule: 'FREQ=DAILY', startsOn: '2026-03-28', startLocal: '01:30', durationMin: 60, until: '2026-03-30' },
      { timeZone: 'Europe/London', from: '2026-03-28', to: '2026-04-30' },
    );
    expect(occurrences.map((o) => [o.date, localTimeOf(o.start, 'Europe/London')])).toEqual([
      ['2026-03-28', '01:30'],
      ['2026-03-29', '02:30'], // 01:30 does not exist that night
      ['2026-03-30', '01:30'],
    ]);
    expect(occurrences.every((o) => o.end.getTime() - o.start.getTime() === 3_600_000)).toBe(true);
  });

  it('stops at until (inclusive) and reports the range it covered', () => {
    const series = { rrule: EVERY_MONDAY, startsOn: '2026-10-12', startLocal: '06:00', durationMin: 120, until: '2026-11-02' };
    const { occurrences, coveredUntil } = expandSeries(series, { timeZone: 'Europe/London', from: '2026-10-12', to: '2027-12-31' });
    expect(occurrences.map((o) => o.date)).toEqual(['2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02']);
    expect(coveredUntil).toBe('2026-11-02');
    // An until on a Sunday ends the week before.
    const sunday = expandSeries({ ...series, until: '2026-11-01' }, { timeZone: 'Europe/London', from: '2026-10-12', to: '2027-12-31' });
    expect(sunday.occurrences.at(-1)!.date).toBe('2026-10-26');
  });

  it('writes at most 1000 occurrences at once and says where it stopped, so the next run continues there', () => {
    const series = { rrule: 'FREQ=DAILY', startsOn: '2026-01-01', startLocal: '12:00', durationMin: 15, until: null };
    const first = expandSeries(series, { timeZone: 'UTC', from: '2026-01-01', to: '2030-12-31' });
    expect(first.occurrences).toHaveLength(MAX_OCCURRENCES_PER_EXPANSION);
    expect(first.coveredUntil).toBe(addDays('2026-01-01', 999));
    const next = expandSeries(series, { timeZone: 'UTC', from: addDays(first.coveredUntil, 1), to: '2030-12-31' });
    expect(next.occurrences[0]!.date).toBe(addDays('2026-01-01', 1000));
    expect(next.coveredUntil).toBe('2030-12-31');
    expect(first.occurrences.length + next.occurrences.length).toBe(1826);
    expect(expandSeries(series, { timeZone: 'UTC', from: '2026-01-01', to: '2026-12-31', max: 10 }).occurrences).toHaveLength(10);
  });

  it('leaves out occurrences starting before notBefore and the excepted dates', () => {
    const { occurrences, coveredUntil } = expandSeries(
      { rrule: EVERY_MONDAY, startsOn: '2026-10-12', startLocal: '06:00', durationMin: 120, until: null },
      {
        timeZone: 'Europe/London',
        from: '2026-10-12',
        to: '2026-11-09',
        notBefore: new Date('2026-10-19T05:00:01Z'),
        except: new Set(['2026-11-02']),
      },
    );
    expect(occurrences.map((o) => o.date)).toEqual(['2026-10-26', '2026-11-09']);
    expect(coveredUntil).toBe('2026-11-09');
  });

  it('refuses a start time that is not a time of day and a duration out of range', () => {
    const base = { rrule: EVERY_MONDAY, startsOn: '2026-10-12', startLocal: '06:00', durationMin: 120, until: null };
    const options = { timeZone: 'UTC', from: '2026-10-12', to: '2026-10-30' };
    expect(() => expandSeries({ ...base, startLocal: '24:00' }, options)).toThrow(RecurrenceError);
    expect(() => expandSeries({ ...base, durationMin: 10_081 }, options)).toThrow(RecurrenceError);
    expect(() => expandSeries({ ...base, durationMin: 0 }, options)).toThrow(RecurrenceError);
  });
});

describe('occurrence dates', () => {
  it('repeats every 2 weeks on Monday and Friday, weeks starting on Monday', () => {
    const rrule = buildRrule({ frequency: 'weekly', interval: 2, weekdays: ['fri', 'mon'] });
    expect(rrule).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR');
    expect(occurrenceDates(rrule, '2026-11-02', { from: '2026-11-01', to: '2026-11-30' }).dates).toEqual(['2026-11-02', '2026-11-06', '2026-11-16', '2026-11-20', '2026-11-30']);
  });

  it('repeats monthly on the first day’s date, skipping months without it (RFC 5545)', () => {
    const { dates } = occurrenceDates('FREQ=MONTHLY;INTERVAL=1', '2026-01-31', { from: '2026-01-01', to: '2026-08-31' });
    expect(dates).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31', '2026-08-31']);
  });

  it('never starts before the first day, and a weekly rule without weekdays takes the first day’s', () => {
    expect(occurrenceDates('FREQ=WEEKLY', '2026-11-04', { from: '2026-10-01', to: '2026-11-20' }).dates).toEqual(['2026-11-04', '2026-11-11', '2026-11-18']);
    expect(occurrenceDates('FREQ=DAILY', '2026-11-04', { from: '2026-12-01', to: '2026-11-30' }).dates).toEqual([]);
  });

  it('runs up to the longest booking horizon (730 days) or until, whichever is first', () => {
    expect(expansionEnd('2026-11-23', null)).toBe('2028-11-22');
    expect(expansionEnd('2026-11-23', '2027-01-01')).toBe('2027-01-01');
    expect(expansionEnd('2026-11-23', '2030-01-01')).toBe('2028-11-22');
  });
});

describe('recurrence rules', () => {
  it('reads back what it builds', () => {
    for (const recurrence of [
      { frequency: 'daily', interval: 3, weekdays: [] },
      { frequency: 'weekly', interval: 1, weekdays: ['mon', 'wed', 'sun'] },
      { frequency: 'monthly', interval: 2, weekdays: [] },
    ] as const) {
      expect(parseRrule(buildRrule({ ...recurrence, weekdays: [...recurrence.weekdays] }))).toEqual(recurrence);
    }
    expect(parseRrule('RRULE:freq=weekly;byday=FR;wkst=MO')).toEqual({ frequency: 'weekly', interval: 1, weekdays: ['fri'] });
  });

  it('refuses other frequencies and parts, with a message saying what', () => {
    const refusals: Array<[string, RegExp]> = [
      ['FREQ=HOURLY', /daily, weekly or monthly \(FREQ=HOURLY/],
      ['FREQ=YEARLY', /daily, weekly or monthly/],
      ['FREQ=DAILY;COUNT=3', /cannot use COUNT/],
      ['FREQ=DAILY;UNTIL=20270101', /cannot use UNTIL/],
      ['DTSTART=20260101T000000Z;FREQ=DAILY', /cannot use DTSTART/],
      ['FREQ=DAILY;BYDAY=MO', /weekly recurrence only/],
      ['FREQ=WEEKLY;BYDAY=XX', /Unknown weekday/],
      ['FREQ=WEEKLY;BYDAY=1MO', /Unknown weekday/],
      ['FREQ=WEEKLY;INTERVAL=0', /from 1 to 99/],
      ['FREQ=WEEKLY;INTERVAL=abc', /from 1 to 99/],
      ['FREQ=WEEKLY;FREQ=DAILY', /twice/],
      ['INTERVAL=2', /needs a frequency/],
      ['garbage', /Cannot read/],
      ['', /empty/],
    ];
    for (const [rule, message] of refusals) {
      expect(() => parseRrule(rule), rule).toThrow(message);
    }
  });
});

describe('summaries', () => {
  const span = { startsOn: '2026-11-02', startLocal: '06:00', durationMin: 120 };
  it('says it the way a person would', () => {
    expect(describeSeries({ rrule: EVERY_MONDAY, ...span })).toBe('Every Monday 06:00–08:00');
    expect(describeRecurrence({ frequency: 'weekly', interval: 1, weekdays: ['mon', 'wed', 'fri'] }, span)).toBe('Every Monday, Wednesday and Friday 06:00–08:00');
    expect(describeRecurrence({ frequency: 'weekly', interval: 2, weekdays: ['sat', 'sun'] }, span)).toBe('Every 2 weeks on Saturday and Sunday 06:00–08:00');
    expect(describeRecurrence({ frequency: 'weekly', interval: 1, weekdays: [] }, span)).toBe('Every Monday 06:00–08:00');
    expect(describeRecurrence({ frequency: 'daily', interval: 1, weekdays: [] }, { ...span, startLocal: '22:00', durationMin: 480 })).toBe('Every day 22:00–06:00 next day');
    expect(describeRecurrence({ frequency: 'daily', interval: 3, weekdays: [] }, { ...span, durationMin: 1080 })).toBe('Every 3 days 06:00–24:00');
    expect(describeRecurrence({ frequency: 'monthly', interval: 1, weekdays: [] }, { ...span, startsOn: '2026-11-21' })).toBe('Every month on the 21st 06:00–08:00');
    expect(describeRecurrence({ frequency: 'monthly', interval: 6, weekdays: [] }, { ...span, startsOn: '2026-11-12', durationMin: 3 * 1440 + 30 })).toBe(
      'Every 6 months on the 12th from 06:00 for 3 days 30 minutes',
    );
  });
});

describe('form and API schemas', () => {
  const oneOff = { siteId: '00000000-0000-4000-8000-000000000001', bayId: null, startDate: '2026-11-24', startTime: '06:00', endDate: '2026-11-24', endTime: '12:00' };
  it('wants a one-off’s end after its start', () => {
    expect(blackoutFormSchema.safeParse(oneOff).success).toBe(true);
    expect(blackoutFormSchema.safeParse({ ...oneOff, endDate: '2026-11-25', endTime: '24:00' }).success).toBe(true);
    const same = blackoutFormSchema.safeParse({ ...oneOff, endTime: '06:00' });
    expect(same.error?.issues).toEqual([expect.objectContaining({ message: END_BEFORE_START_MESSAGE, path: ['endTime'] })]);
    const earlierDay = blackoutFormSchema.safeParse({ ...oneOff, endDate: '2026-11-23', endTime: '23:00' });
    expect(earlierDay.error?.issues[0]).toMatchObject({ message: END_BEFORE_START_MESSAGE, path: ['endDate'] });
    expect(blackoutFormSchema.safeParse({ ...oneOff, startDate: '2026-02-30' }).success).toBe(false);
    expect(blackoutFormSchema.safeParse({ ...oneOff, startTime: '24:00' }).success).toBe(false);
    expect(blackoutFormSchema.safeParse({ ...oneOff, reason: 'bad\u0000' }).success).toBe(false);
  });

  it('wants weekdays for a weekly series, a known frequency and an until not before the start', () => {
    const series = { siteId: oneOff.siteId, bayId: null, frequency: 'weekly', weekdays: ['mon'], startsOn: '2026-11-23', startLocal: '06:00', durationMin: 120 };
    expect(createSeriesSchema.safeParse(series).success).toBe(true);
    expect(createSeriesSchema.safeParse({ ...series, weekdays: [] }).error?.issues[0]).toMatchObject({ message: WEEKDAYS_REQUIRED_MESSAGE, path: ['weekdays'] });
    expect(createSeriesSchema.safeParse({ ...series, frequency: 'hourly' }).error?.issues[0]).toMatchObject({ message: 'Repeat daily, weekly or monthly' });
    expect(createSeriesSchema.safeParse({ ...series, until: '2026-11-22' }).error?.issues[0]).toMatchObject({ message: UNTIL_BEFORE_START_MESSAGE, path: ['until'] });
    expect(createSeriesSchema.safeParse({ ...series, durationMin: 10_081 }).success).toBe(false);
    expect(createSeriesSchema.safeParse({ ...series, interval: 0 }).success).toBe(false);
    // A change may leave the weekdays out (they stay), but not empty them.
    expect(updateSeriesSchema.safeParse({ frequency: 'weekly' }).success).toBe(true);
    expect(updateSeriesSchema.safeParse({ weekdays: [] , frequency: 'weekly' }).success).toBe(false);
  });
});
