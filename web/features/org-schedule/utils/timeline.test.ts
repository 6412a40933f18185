import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../../../domain/org-schedule';
import { DEFAULT_OPERATING_HOURS } from '../../../../domain/constants';
import { buildTimeline, dropTargetAt, nowFraction, place, stepDate, targetInstant, viewRange } from './timeline';

const site = { id: 's', name: 'North Terminal', timeZone: 'Australia/Sydney', operatingHours: DEFAULT_OPERATING_HOURS, slotIntervalMin: 30 };
const schedule = (over: Partial<Schedule> = {}): Schedule => ({ site, bays: [], bookings: [], blackouts: [], ...over });
const booking = (startTime: string, endTime: string) => ({
  id: 'b',
  version: 1,
  status: 'approved' as const,
  tsrNumber: 'TSR-1',
  tenantName: 'Acme',
  vehicleType: 'rigid',
  vehicleRegistration: 'ABC1',
  bayId: 'bay',
  startTime,
  endTime,
});

describe('schedule timeline', () => {
  it('shows a day, or the Monday-to-Sunday week around it, and steps by one or seven days', () => {
    expect(viewRange('day', '2026-11-25')).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(viewRange('week', '2026-11-25')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(viewRange('week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(stepDate('week', '2026-11-25', -1)).toBe('2026-11-18');
    expect(stepDate('day', '2026-11-30', 1)).toBe('2026-12-01');
  });

  it('spans the operating hours, widened to whole hours around anything outside them', () => {
    expect(buildTimeline(schedule(), '2026-11-25', '2026-11-25').window).toEqual({ startMin: 360, endMin: 1320 });
    // Sunday alone: 10:00–16:00.
    expect(buildTimeline(schedule(), '2026-11-29', '2026-11-29').window).toEqual({ startMin: 600, endMin: 960 });
    // 05:30–06:15 Sydney on the 25th (UTC+11) pulls the start to 05:00.
    const early = schedule({ bookings: [booking('2026-11-24T18:30:00Z', '2026-11-24T19:15:00Z')] });
    expect(buildTimeline(early, '2026-11-25', '2026-11-25').window).toEqual({ startMin: 300, endMin: 1320 });
  });

  it('places an instant in the site’s time zone, split across days, and marks now', () => {
    const t = buildTimeline(schedule(), '2026-11-23', '2026-11-29');
    // 06:00–22:00 each day, 7 days: 09:00 Tue 24 Nov is day 1, 3/16 into it.
    const [piece] = place(t, '2026-11-23T22:00:00Z', '2026-11-23T23:00:00Z');
    expect(piece!.dayIndex).toBe(1);
    expect(piece!.left).toBeCloseTo((1 + 3 / 16) / 7);
    expect(piece!.width).toBeCloseTo(1 / 16 / 7);
    // 21:00 Tue to 07:00 Wed: the evening of day 1 and the morning of day 2.
    const split = place(t, '2026-11-24T10:00:00Z', '2026-11-24T20:00:00Z');
    expect(split.map((p) => [p.dayIndex, p.clippedStart, p.clippedEnd])).toEqual([
      [1, false, true],
      [2, true, false],
    ]);
    expect(nowFraction(t, new Date('2026-11-23T22:00:00Z'))).toBeCloseTo((1 + 3 / 16) / 7);
    expect(nowFraction(t, new Date('2026-12-01T00:00:00Z'))).toBeNull();
  });

  it('snaps a drop to the slot interval on the day under the pointer, keeping the booking inside the hours', () => {
    const t = buildTimeline(schedule(), '2026-11-23', '2026-11-29');
    expect(dropTargetAt(t, (2 + 4.2 / 16) / 7, 60)).toEqual({ date: '2026-11-25', slot: '10:00', startMin: 600 });
    expect(dropTargetAt(t, (2 + 4.3 / 16) / 7, 60)).toMatchObject({ slot: '10:30' });
    expect(dropTargetAt(t, -0.2, 60)).toMatchObject({ date: '2026-11-23', slot: '06:00' });
    expect(dropTargetAt(t, (3 + 15.9 / 16) / 7, 90)).toMatchObject({ date: '2026-11-26', slot: '20:30' });
    const fifteen = { ...t, slotIntervalMin: 15 };
    expect(dropTargetAt(fifteen, (0 + 1.27 / 16) / 7, 30)).toMatchObject({ slot: '07:15' });
    expect(targetInstant(t, { date: '2026-11-25', slot: '10:00', startMin: 600 }).toISOString()).toBe('2026-11-24T23:00:00.000Z');
  });
});
