import { ON_SITE_STATUSES } from '../../../../domain/booking-lifecycle';
import type { GateBooking, GateOverview } from '../../../../domain/gate';

// How the live view sorts one site's gate overview into its lists. Each vehicle is listed where
// staff look for it: a late vehicle under "Late vehicles" (not also among the arrivals), an
// overstaying one under "Overstays" and, being inside the gate, under "On site" too.


export type SiteLists = {
  /** Expected in the next hours, not late yet (pending ones too: they may still be approved). */
  arrivals: GateBooking[];
  /** Checked in, at a bay, or overstaying: in the order the gate lists them. */
  onSite: GateBooking[];
  /** Past their end by the overstay threshold, still at the bay. */
  overstays: GateBooking[];
  /** Approved, past their start, not checked in. */
  late: GateBooking[];
};

export function siteLists(data: Pick<GateOverview, 'live' | 'upcoming'>): SiteLists {
  const late = new Map<string, GateBooking>();
  for (const b of [...data.upcoming, ...data.live]) if (b.isLate && !late.has(b.id)) late.set(b.id, b);
  return {
    arrivals: data.upcoming.filter((b) => !late.has(b.id)),
    // The gate's live list also holds today's other bookings: only the vehicles inside the gate here.
    onSite: data.live.filter((b) => ON_SITE_STATUSES.includes(b.status)),
    overstays: data.live.filter((b) => b.status === 'overstay'),
    late: [...late.values()].sort((a, b) => a.startTime.localeCompare(b.startTime)),
  };
}
