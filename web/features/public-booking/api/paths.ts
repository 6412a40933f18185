// Every public booking endpoint, in one place.

export const publicBookingPaths = {
  organizations: () => '/api/public/organizations',
  bookingInfo: () => '/api/public/booking-info',
  availability: () => '/api/public/availability',
  bookings: () => '/api/public/bookings',
  managedBooking: (token: string) => `/api/public/manage/${encodeURIComponent(token)}`,
  managedCancel: (token: string) => `/api/public/manage/${encodeURIComponent(token)}/cancel`,
  managedAvailability: (token: string) => `/api/public/manage/${encodeURIComponent(token)}/availability`,
  managedReschedule: (token: string) => `/api/public/manage/${encodeURIComponent(token)}/reschedule`,
} as const;

/** Query keys, so mutations can invalidate by prefix. */
export const publicBookingKeys = {
  all: ['public-booking'] as const,
  organizations: () => [...publicBookingKeys.all, 'organizations'] as const,
  bookingInfo: () => [...publicBookingKeys.all, 'booking-info'] as const,
  availability: () => [...publicBookingKeys.all, 'availability'] as const,
  managedBooking: (token: string) => [...publicBookingKeys.all, 'manage', token] as const,
  managedAvailability: (token: string) => [...publicBookingKeys.all, 'manage', token, 'availability'] as const,
};
