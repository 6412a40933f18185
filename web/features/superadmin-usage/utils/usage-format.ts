import { USAGE_SOURCES, type UsageSource } from '../../../../domain/usage';

// How the usage screen writes sizes, days and colours.

/** 2048 → '2 KB'; 0 → '0 B'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

const axisDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** '2026-11-23' → '23 Nov' (a UTC day). */
export const formatAxisDay = (date: string): string => axisDay.format(new Date(`${date}T00:00:00Z`));
/** '2026-11-23' → 'Mon, 23 Nov 2026'. */
export const formatLongDay = (date: string): string => longDay.format(new Date(`${date}T00:00:00Z`));

// Okabe and Ito's palette, its darker members (3:1 against white); each series is also named in
// the legend and the tooltip, so colour is never the only way to read a figure.
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#8C6D00', '#4D4D4D'] as const;
export const sourceColour = (source: UsageSource): string => COLOURS[USAGE_SOURCES.indexOf(source) % COLOURS.length]!;
export const measureColour = (index: number): string => COLOURS[index % COLOURS.length]!;

/** A limit's bar: red from 100 %, orange from 80 %, blue below. */
export function limitColour(percent: number): string {
  if (percent >= 100) return 'red.8';
  if (percent >= 80) return 'orange.8';
  return 'blue.7';
}
