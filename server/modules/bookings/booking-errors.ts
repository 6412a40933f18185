import { NO_AVAILABLE_BAY, NO_COMPATIBLE_BAY } from '../../../domain/booking-messages';
import { AppError, conflict } from '../../plugins/errors';

// The refusals both booking paths share, and the PostgreSQL errors they read: a lost race for a
// bay (23P01 on the bay's exclusion constraint), the same vehicle booked twice (23P01 on
// bookings_vehicle_no_overlap), a deadlock victim (40P01).

export const noAvailableBay = () => conflict('no_available_bay', NO_AVAILABLE_BAY);
export const noCompatibleBay = () => new AppError(422, 'no_compatible_bay', NO_COMPATIBLE_BAY);
export const vehicleAlreadyBooked = (registration: string) =>
  conflict(
    'vehicle_already_booked',
    `Vehicle ${registration} already has a booking at an overlapping time. Choose another time or cancel the other booking first.`,
  );

export function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

function pgConstraint(error: unknown): string | undefined {
  const e = error as { constraint?: string; cause?: { constraint?: string } };
  return e?.constraint ?? e?.cause?.constraint;
}

/** The vehicle-overlap constraint fired: the same vehicle is already booked at that time. */
export const isVehicleOverlap = (error: unknown) =>
  pgCode(error) === '23P01' && pgConstraint(error) === 'bookings_vehicle_no_overlap';
