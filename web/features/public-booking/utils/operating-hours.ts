import type { OperatingHours } from '../../../../domain/constants';
import { dayWindows, formatDayHours } from '../../../../domain/slot-grid';
import { WEEKDAYS, type Weekday } from '../../../../domain/enums';

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

/** `from`/`to`: the first and last weekday of the row (the same for one day); `isClosed`: no opening that day. */
export type OperatingHoursRow = { days: string; hours: string; from: Weekday; to: Weekday; isClosed: boolean };

/**
 * Consecutive weekdays with the same hours folded into one row:
 * Mon-Fri 06:00-22:00, Sat 08:00-18:00, Sun 10:00-16:00.
 */
export function summarizeOperatingHours(hours: OperatingHours): OperatingHoursRow[] {
  const rows: Array<{ from: Weekday; to: Weekday; hours: string }> = [];
  for (const day of WEEKDAYS) {
    const text = formatDayHours(dayWindows(hours[day]));
    const last = rows[rows.length - 1];
    if (last && last.hours === text) last.to = day;
    else rows.push({ from: day, to: day, hours: text });
  }
  return rows.map((r) => ({
    days: r.from === r.to ? WEEKDAY_LABELS[r.from] : `${WEEKDAY_LABELS[r.from]}-${WEEKDAY_LABELS[r.to]}`,
    hours: r.hours,
    from: r.from,
    to: r.to,
    isClosed: r.hours === formatDayHours([]),
  }));
}
