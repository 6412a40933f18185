// Colours a colour-blind reader can tell apart (Okabe and Ito's palette, its darker members: each
// keeps 3:1 against white, WCAG 1.4.11). Every chart also names its series in a legend and its
// hover values, so colour is never the only way to read a figure.

export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#8C6D00', '#4D4D4D'] as const;

export const seriesColour = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length]!;

/** Early, on time, late: blue, green, vermillion. */
export const PUNCTUALITY_COLOURS = { early: '#0072B2', onTime: '#009E73', late: '#D55E00' } as const;

/** The heat maps' steps, light to dark (one hue: order reads without telling hues apart). */
export const HEAT_STEPS = ['#deebf7', '#9ecae1', '#4292c6', '#2171b5', '#08306b'] as const;
/** Text on a step: dark on the three light ones, white on the dark ones (4.5:1 either way). */
export const heatTextColour = (step: number): string => (step < 3 ? '#1a1b1e' : '#ffffff');
/** A cell with nothing (0) and a cell that could hold nothing (closed). */
export const HEAT_ZERO = '#f8f9fa';
export const HEAT_CLOSED = 'repeating-linear-gradient(45deg, #e9ecef 0 3px, #ffffff 3px 6px)';

/** The step of a value 0–max: 0 has none (-1), anything above 0 at least the first. */
export function heatStep(value: number, max: number): number {
  if (value <= 0 || max <= 0) return -1;
  return Math.min(HEAT_STEPS.length - 1, Math.floor((value / max) * HEAT_STEPS.length - 1e-9));
}
