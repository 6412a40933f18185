import { SPECIAL_ACCESS_LABELS, type SpecialAccessNeed } from './enums';
import { formatMinutes } from './slot-grid';

// Why a day has nothing to offer, in words a haulier can act on. The slot grid shows it where the
// slots would be; the server answers with the same words when a booking is refused for that reason.

export type DayStatus = 'no_bays' | 'no_compatible_bay' | 'past' | 'beyond_horizon' | 'closed' | 'too_soon' | 'full' | 'month_full';

const DAY_MS = 86_400_000;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'YYYY-MM-DD' plus whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 'Mon 24 Nov' / with year: '21 Jan 2027'. */
export function formatDay(date: string, withYear = false): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return withYear ? `${day} ${d.getUTCFullYear()}` : `${WEEKDAY_NAMES[d.getUTCDay()]!.slice(0, 3)} ${day}`;
}

export type VehicleNeeds = { heightM: number; lengthM: number | null; specialAccessNeeds: readonly string[] };
export type BayLimits = { bays: number; maxClearanceM: number | null; maxLengthM: number | null; hasUnlimitedLength: boolean; features: string[] };

/** Why no bay of the organization can take the vehicle, naming the limit it passes. */
export function noCompatibleBayMessage(orgName: string, vehicle: VehicleNeeds, limits: BayLimits): string {
  if (limits.bays === 0) return `${orgName} has no bays open for booking at the moment.`;
  if (limits.maxClearanceM !== null && vehicle.heightM > limits.maxClearanceM) {
    return `No bay at ${orgName} can take this vehicle: it is ${vehicle.heightM} m tall and the highest clearance is ${limits.maxClearanceM} m.`;
  }
  if (vehicle.lengthM !== null && !limits.hasUnlimitedLength && limits.maxLengthM !== null && vehicle.lengthM > limits.maxLengthM) {
    return `No bay at ${orgName} can take this vehicle: it is ${vehicle.lengthM} m long and the longest bay is ${limits.maxLengthM} m.`;
  }
  const missing = vehicle.specialAccessNeeds.filter((need) => !limits.features.includes(need));
  if (missing.length > 0) {
    const names = missing.map((need) => SPECIAL_ACCESS_LABELS[need as SpecialAccessNeed] ?? need).join(', ');
    return `No bay at ${orgName} offers ${names}.`;
  }
  return `No single bay at ${orgName} fits this vehicle's height, length and special access needs together.`;
}

export const pastDayMessage = (siteName: string, siteToday: string) =>
  `This date has passed at ${siteName} (today there is ${formatDay(siteToday)}).`;

export const beyondHorizonMessage = (horizonDays: number, lastBookableDate: string) =>
  `Bookings open up to ${horizonDays} days ahead: choose a date on or before ${formatDay(lastBookableDate, true)}.`;

export const closedDayMessage = (siteName: string, date: string) =>
  `${siteName} is closed on ${WEEKDAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]}s.`;

export const tooSoonMessage = (siteName: string, minAdvanceMin: number) =>
  `Bookings must be made at least ${formatMinutes(minAdvanceMin)} in advance: no time is left on this day at ${siteName}.`;

export const fullDayMessage = 'Every compatible bay is booked or closed for the whole of this day. Please choose another date.';

/**
 * The portal's answer once the organization's monthly booking cap is reached (issue 22 item 13):
 * neutral — the haulier is not told about plans or limits.
 */
export const monthFullMessage = 'This site is not taking more bookings this month.';
