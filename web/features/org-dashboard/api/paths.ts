// The dashboard's query keys (its endpoints are named by their contract keys). The keys start with
// ['org', orgId, 'dashboard'] so live updates (web/lib/realtime.ts) can invalidate them by prefix.

export const orgDashboardKeys = {
  all: (orgId: string) => ['org', orgId, 'dashboard'] as const,
  dashboard: (orgId: string, siteId: string | null) => ['org', orgId, 'dashboard', siteId] as const,
};

/** The bookings workspace's prefix: a move made here refreshes its lists too. */
export const orgBookingsKey = (orgId: string) => ['org', orgId, 'bookings'] as const;
