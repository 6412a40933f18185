import { describe, expect, it } from 'vitest';
import { limitPercent, startOfUtcMonth, usageCsvFileName, usageQuerySchema, usageSourceOf, usageWindow } from './usage';

describe('usageWindow', () => {
  it('covers the last N UTC days, today included, from the first one’s midnight to now', () => {
    const now = new Date('2026-11-23T09:00:00Z');
    const week = usageWindow(now, 7);
    expect(week.from.toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(week.to).toEqual(now);
    expect(week.dates).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(usageWindow(now, 30).from.toISOString()).toBe('2026-10-25T00:00:00.000Z');
    expect(usageWindow(now, 90).dates).toHaveLength(90);
  });

  it('is the same window at the first and the last instant of a day, and crosses month and year ends', () => {
    expect(usageWindow(new Date('2026-11-23T00:00:00.000Z'), 7).from).toEqual(usageWindow(new Date('2026-11-23T23:59:59.999Z'), 7).from);
    expect(usageWindow(new Date('2027-01-02T12:00:00Z'), 7).dates[0]).toBe('2026-12-27');
    expect(startOfUtcMonth(new Date('2026-11-23T09:00:00Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
});

describe('limitPercent', () => {
  it('is a whole percentage of the limit, past 100 when over, null without a limit', () => {
    expect(limitPercent(1, 2)).toBe(50);
    expect(limitPercent(2, 3)).toBe(67);
    expect(limitPercent(12, 10)).toBe(120);
    expect(limitPercent(5, null)).toBeNull();
    expect(limitPercent(0, 0)).toBe(0);
    expect(limitPercent(1, 0)).toBe(100);
  });
});

describe('usageSourceOf', () => {
  it('reports stored sources as the volume report does', () => {
    expect(['portal', 'admin', 'gate', 'ssc', 'demo', 'api'].map(usageSourceOf)).toEqual(['portal', 'admin', 'gate', 'carrier_api', 'other', 'other']);
  });
});

describe('usageQuerySchema', () => {
  it('takes 7, 30 or 90 days (30 by default) and refuses anything else with one message', () => {
    expect(usageQuerySchema.parse({})).toMatchObject({ days: 30, sort: 'bookingsCreated', order: 'desc', page: 1, pageSize: 20 });
    expect(usageQuerySchema.parse({ days: '90' }).days).toBe(90);
    for (const days of ['14', 'x', '-7', '0']) {
      expect(usageQuerySchema.safeParse({ days }).error?.issues[0]?.message).toBe('The period must be 7, 30 or 90 days');
    }
  });
});

it('names the CSV after the period and the day', () => {
  expect(usageCsvFileName(7, new Date('2026-11-23T23:00:00Z'))).toBe('baywise-usage-7-days-2026-11-23.csv');
});
