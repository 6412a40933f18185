import { addDays } from '../../../../domain/day-notice';
import type { Schedule } from '../../../../domain/org-schedule';
import { datesInRange } from '../../../../domain/org-schedule';
import { WEEKDAYS } from '../../../../domain/enums';
import { formatTimeOfDay, localDateOf, openMinutesOn, localTimeOf, parseTimeOfDay, todayIn, weekdayOf, zonedTimeToUtc } from '../../../../domain/slot-grid';

// The geometry of the schedule: which site-local days are shown, which hours of them, where an
// instant falls across the track (0..1), and where a dragged booking lands (snapped to the site's
// slot interval). Pure functions over the API's answer, tested without a browser.

export type ScheduleView = 'day' | 'week';

/** The days a view shows around `date`: the day itself, or its Monday-to-Sunday week. */
export function viewRange(view: ScheduleView, date: string): { from: string; to: string } {
  if (view === 'day') return { from: date, to: date };
  const mondayOffset = WEEKDAYS.indexOf(weekdayOf(date));
  const from = addDays(date, -mondayOffset);
  return { from, to: addDays(from, 6) };
}

/** The date the previous/next button goes to. */
export function stepDate(view: ScheduleView, date: string, direction: -1 | 1): string {
  return addDays(date, direction * (view === 'day' ? 1 : 7));
}

export { todayIn };

/** Minutes after local midnight of `day` at which `instant` falls, clamped to 0..1440. */
export function minutesIntoDay(instant: Date, day: string, timeZone: string): number {
  const date = localDateOf(instant, timeZone);
  if (date < day) return 0;
  if (date > day) return 24 * 60;
  return parseTimeOfDay(localTimeOf(instant, timeZone)) ?? 0;
}

export type Window = { startMin: number; endMin: number };
export type DayColumn = { date: string; open: Window | null };

export type Timeline = {
  days: DayColumn[];
  /** The hours shown on every day (the same on each, so days line up): whole hours. */
  window: Window;
  timeZone: string;
  slotIntervalMin: number;
};

const DEFAULT_WINDOW: Window = { startMin: 6 * 60, endMin: 22 * 60 };

/**
 * The hours shown: from the earliest opening to the latest closing of the days shown, widened to
 * take in any booking or blackout that falls outside them, in whole hours.
 */
export function buildTimeline(schedule: Schedule, from: string, to: string): Timeline {
  const { timeZone, operatingHours, slotIntervalMin } = schedule.site;
  const days: DayColumn[] = datesInRange(from, to).map((date) => {
    const windows = openMinutesOn(date, operatingHours as Parameters<typeof openMinutesOn>[1]);
    return {
      date,
      open: windows.length > 0 ? { startMin: windows[0]!.open, endMin: windows[windows.length - 1]!.close } : null,
    };
  });
  const opens = days.flatMap((d) => (d.open ? [d.open] : []));
  let startMin = opens.length ? Math.min(...opens.map((o) => o.startMin)) : DEFAULT_WINDOW.startMin;
  let endMin = opens.length ? Math.max(...opens.map((o) => o.endMin)) : DEFAULT_WINDOW.endMin;
  const items = [
    ...schedule.bookings.map((b) => [b.startTime, b.endTime] as const),
    ...schedule.blackouts.map((b) => [b.start, b.end] as const),
  ];
  for (const [startIso, endIso] of items) {
    for (const day of days) {
      const s = minutesIntoDay(new Date(startIso), day.date, timeZone);
      const e = minutesIntoDay(new Date(endIso), day.date, timeZone);
      if (e <= s) continue;
      startMin = Math.min(startMin, s);
      endMin = Math.max(endMin, e);
    }
  }
  return {
    days,
    window: { startMin: Math.floor(startMin / 60) * 60, endMin: Math.min(24 * 60, Math.ceil(endMin / 60) * 60) },
    timeZone,
    slotIntervalMin: slotIntervalMin > 0 ? slotIntervalMin : 30,
  };
}

const span = (t: Timeline) => t.window.endMin - t.window.startMin;

/** Where minute `minute` of day number `dayIndex` falls across the whole track, 0..1. */
export function fractionAt(t: Timeline, dayIndex: number, minute: number): number {
  const within = Math.min(Math.max(minute, t.window.startMin), t.window.endMin) - t.window.startMin;
  return (dayIndex + within / span(t)) / t.days.length;
}

export type Placement = { left: number; width: number; dayIndex: number; clippedStart: boolean; clippedEnd: boolean };

/** The pieces of [start, end) on the track, one per day it shows on (fractions of the width). */
export function place(t: Timeline, startIso: string, endIso: string): Placement[] {
  const start = new Date(startIso);
  const end = new Date(endIso);
  const out: Placement[] = [];
  t.days.forEach((day, dayIndex) => {
    const s = minutesIntoDay(start, day.date, t.timeZone);
    const e = minutesIntoDay(end, day.date, t.timeZone);
    const from = Math.max(s, t.window.startMin);
    const to = Math.min(e, t.window.endMin);
    if (to <= from) return;
    const left = fractionAt(t, dayIndex, from);
    out.push({ left, width: fractionAt(t, dayIndex, to) - left, dayIndex, clippedStart: s < from, clippedEnd: e > to });
  });
  return out;
}

/** The current time's place on the track, or null when it is not on it. */
export function nowFraction(t: Timeline, now: Date): number | null {
  const date = localDateOf(now, t.timeZone);
  const dayIndex = t.days.findIndex((d) => d.date === date);
  if (dayIndex < 0) return null;
  const minute = minutesIntoDay(now, date, t.timeZone);
  if (minute < t.window.startMin || minute > t.window.endMin) return null;
  return fractionAt(t, dayIndex, minute);
}

export type DropTarget = { date: string; slot: string; startMin: number };

/**
 * Where a booking lands when its start is dragged to `fraction` of the track: that day, the start
 * snapped to the site's slot interval, kept inside the shown hours so the whole booking fits.
 */
export function dropTargetAt(t: Timeline, fraction: number, durationMin: number): DropTarget {
  const clamped = Math.min(Math.max(fraction, 0), 0.999999) * t.days.length;
  const dayIndex = Math.min(t.days.length - 1, Math.floor(clamped));
  const raw = t.window.startMin + (clamped - dayIndex) * span(t);
  const step = t.slotIntervalMin;
  const first = Math.ceil(t.window.startMin / step) * step;
  const last = Math.max(first, Math.floor((t.window.endMin - Math.max(durationMin, step)) / step) * step);
  const startMin = Math.min(Math.max(Math.round(raw / step) * step, first), last);
  return { date: t.days[dayIndex]!.date, slot: formatTimeOfDay(startMin), startMin };
}

/** The instant a drop target names (for showing the booking where it will land). */
export function targetInstant(t: Timeline, target: DropTarget): Date {
  return zonedTimeToUtc(target.date, target.startMin, t.timeZone);
}

/** The site-local date and 'HH:mm' of an instant. */
export function siteDateAndTime(iso: string, timeZone: string): { date: string; time: string } {
  const at = new Date(iso);
  return { date: localDateOf(at, timeZone), time: localTimeOf(at, timeZone) };
}

/** The hour marks of the shown window ('06:00', '07:00', …), every `everyHours` hours. */
export function hourMarks(t: Timeline, everyHours = 1): number[] {
  const marks: number[] = [];
  for (let m = t.window.startMin; m < t.window.endMin; m += everyHours * 60) marks.push(m);
  return marks;
}
