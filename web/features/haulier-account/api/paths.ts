// A haulier's account endpoints are named by their contract keys (domain/contract/haulier-accounts.contract.ts).

/** Query keys, so mutations can invalidate by prefix; everything under `all` is the signed-in haulier's. */
export const haulierAccountKeys = {
  all: ['haulier-account'] as const,
  me: () => [...haulierAccountKeys.all, 'me'] as const,
  bookings: (scope: 'upcoming' | 'past', page: number) => [...haulierAccountKeys.all, 'bookings', scope, page] as const,
  rebook: (bookingId: string) => [...haulierAccountKeys.all, 'rebook', bookingId] as const,
  vehicles: () => [...haulierAccountKeys.all, 'vehicles'] as const,
  contacts: () => [...haulierAccountKeys.all, 'contacts'] as const,
  standing: () => [...haulierAccountKeys.all, 'standing'] as const,
  places: () => ['haulier-standing-places'] as const,
};
