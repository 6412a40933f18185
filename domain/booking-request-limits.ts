import { DEFAULT_DURATION_MIN } from './constants';

// The booking request's plain limits and rules, without the schema (domain/booking-request.ts): the
// public form imports these at once and loads the schema (zod) only when it first checks an answer.

export const MAX_VEHICLE_HEIGHT_M = 10;
export const MAX_VEHICLE_LENGTH_M = 60;

/**
 * The duration input's rule (spec §5): a value that is not a number falls back to 30.
 * The form applies it on every change; the API schema instead rejects a non-number it is sent.
 */
export function normalizeDuration(value: unknown): number {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? Math.trunc(parsed) : DEFAULT_DURATION_MIN;
}
