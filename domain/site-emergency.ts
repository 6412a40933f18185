import type { BookingStatus } from './enums';

// The emergency stop's hold on the gate (issue 22 item 6), in one place: the server refuses these
// moves with this message, and the screens that would offer them show the same words instead.

/** Whether a move lets a vehicle in or sends it to a bay: check-in, start at the bay (a call to a bay). */
export function letsVehicleIn(from: BookingStatus, to: BookingStatus): boolean {
  return to === 'checked_in' || (from === 'checked_in' && to === 'in_progress');
}

/** Why such a move is refused while the site is stopped (the server's 409 `site_emergency`). */
export function siteEmergencyHoldMessage(siteName: string, reason: string | null): string {
  return `Operations at ${siteName} are stopped (emergency${reason ? `: ${reason}` : ''}). Check-in and calling vehicles to bays are on hold until the site resumes.`;
}
