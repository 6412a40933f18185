// The public booking endpoints are named by their contract keys (domain/contract/public-bookings.contract.ts).

/** Query keys, so mutations can invalidate by prefix. */
export const publicBookingKeys = {
  all: ['public-booking'] as const,
  organizations: () => [...publicBookingKeys.all, 'organizations'] as const,
  bookingInfo: () => [...publicBookingKeys.all, 'booking-info'] as const,
  availability: () => [...publicBookingKeys.all, 'availability'] as const,
  managedBooking: (token: string) => [...publicBookingKeys.all, 'manage', token] as const,
  managedAvailability: (token: string) => [...publicBookingKeys.all, 'manage', token, 'availability'] as const,
};
