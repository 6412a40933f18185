import { formatDay } from '../../../../domain/day-notice';
import type { CsvCell, ReportRange } from '../../../../domain/reports';

// How the reports' figures read on screen. The tables show the CSV's own cells (same columns, same
// rounding); these are for the stat cards, the charts' axes and their hover values.

/** A share 0–1 as a percentage ("62.5%"); a dash when there was nothing to divide. */
export function formatShare(share: number | null, digits = 1): string {
  return share === null ? '—' : `${Number((share * 100).toFixed(digits))}%`;
}

/**
 * A chart's percent value or axis tick as people read it: at most one decimal ("100.1%", never
 * "100.10000000000001%": stacked shares rounded to 0.1 can add up to a float just over 100).
 */
export const formatPercentValue = (value: number): string => `${Number(value.toFixed(1))}%`;

/** A share 0–1 as a number of percent for a chart (null stays null: no point drawn). */
export const toPercent = (share: number | null): number | null => (share === null ? null : Math.round(share * 1000) / 10);

/** Minutes as people read them: "45 min", "2 h 05 min"; a dash when there are none. */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '—';
  const whole = Math.round(minutes);
  if (whole < 60) return `${whole} min`;
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} min`;
}

/** Minutes as hours with one decimal ("12.5 h"). */
export const formatHours = (minutes: number): string => `${Number((minutes / 60).toFixed(1)).toLocaleString('en-US')} h`;

/** '1 Mar 2026 – 30 Mar 2026 (30 days)', or one day: 'Mon 30 Mar 2026'. */
export function formatRange(range: ReportRange & { days?: number }): string {
  if (range.from === range.to) return `${formatDay(range.from)} ${range.from.slice(0, 4)}`;
  const days = range.days === undefined ? '' : ` (${range.days} days)`;
  return `${formatDay(range.from, true)} – ${formatDay(range.to, true)}${days}`;
}

/** A site-local date for an axis: 'Mon 3 Mar'. */
export const formatAxisDay = (date: string): string => formatDay(date);

/** A table cell: the CSV's text, with a dash where the CSV has nothing. */
export function cellText(cell: CsvCell): string {
  if (cell === null || cell === '') return '—';
  return typeof cell === 'number' ? cell.toLocaleString('en-US') : cell;
}

/** Figures read right-aligned. */
export const isNumericCell = (cell: CsvCell): boolean => typeof cell === 'number' || (typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell));

/** Round axis ticks from 0 past `max` (percent or counts): at most 5 steps of 1, 2, 5, 10, 20, 25 or 50 (then 100s). */
export function niceTicks(max: number): number[] {
  const step = [1, 2, 5, 10, 20, 25, 50].find((s) => max / s <= 5) ?? 100 * Math.ceil(max / 500);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}
