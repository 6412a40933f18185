import type { BookingRequest } from '../../../domain/booking-request';
import { OUTSIDE_OPERATING_HOURS_MESSAGE, slotUnavailableMessage } from '../../../domain/slot-grid';
import { NO_COMPATIBLE_BAY } from '../../../domain/booking-messages';
import type { Tx } from '../../db/client';
import { AppError, conflict } from '../../plugins/errors';
import { getDayAvailability, type Candidate } from '../availability/availability.service';
import { noAvailableBay } from './booking-errors';

// The full path: the day's grid decides the slot and its free bays (precise refusal messages), then
// claimBay takes the first bay the database accepts. Used by the portal's slow path (documents,
// stale rules), the manage link, staff reschedules and admin-created bookings.

/** The slot's free bays, best fit first, or the reason the slot cannot be booked. */
export async function candidatesFor(
  tx: Tx,
  now: Date,
  request: Pick<BookingRequest, 'orgId' | 'date' | 'slot' | 'expectedDurationMin' | 'vehicleHeightM' | 'vehicleLengthM' | 'specialAccessNeeds'> & { siteId?: string | null },
  excludeBookingId?: string,
  options: { ignoreMinAdvance?: boolean } = {},
): Promise<Candidate[]> {
  const day = await getDayAvailability(
    tx,
    {
      orgId: request.orgId,
      siteId: request.siteId ?? null,
      date: request.date,
      durationMin: request.expectedDurationMin,
      vehicleHeightM: request.vehicleHeightM,
      vehicleLengthM: request.vehicleLengthM ?? null,
      specialAccessNeeds: request.specialAccessNeeds ?? [],
    },
    now,
    { excludeBookingId, ignoreMinAdvance: options.ignoreMinAdvance },
  );
  if (day.compatibleBays === 0) throw new AppError(422, 'no_compatible_bay', day.notice ?? NO_COMPATIBLE_BAY);
  if (day.status === 'beyond_horizon') throw new AppError(400, 'beyond_horizon', day.notice!);
  if (day.isEmergencyStop) throw conflict('site_emergency', day.notice!);
  const slot = day.slots.find((s) => s.time === request.slot);
  if (!slot) {
    throw new AppError(400, 'invalid_slot', OUTSIDE_OPERATING_HOURS_MESSAGE);
  }
  if (!slot.bookable) throw new AppError(400, 'slot_unavailable', slotUnavailableMessage(slot.reason as never));
  if (slot.candidates.length === 0) throw noAvailableBay();
  return slot.candidates;
}

type MovableBooking = {
  id: string;
  orgId: string;
  expectedDurationMin: number;
  vehicleHeightM: number;
  vehicleLengthM: number | null;
  specialAccessNeeds: string[] | null;
};

/** The free bays for moving an existing booking to another day and slot: its own vehicle and duration, its own time not counted as busy. */
export function candidatesToMove(tx: Tx, now: Date, booking: MovableBooking, target: { date: string; slot: string }): Promise<Candidate[]> {
  return candidatesFor(
    tx,
    now,
    {
      orgId: booking.orgId,
      date: target.date,
      slot: target.slot,
      expectedDurationMin: booking.expectedDurationMin,
      vehicleHeightM: booking.vehicleHeightM,
      vehicleLengthM: booking.vehicleLengthM ?? undefined,
      specialAccessNeeds: (booking.specialAccessNeeds ?? []) as BookingRequest['specialAccessNeeds'],
    },
    booking.id,
  );
}
