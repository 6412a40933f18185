import { eq } from 'drizzle-orm';
import { AT_BAY_STATUSES, CONFIRMED_BOOKING_STATUSES, LIVE_BOOKING_STATUSES, ON_SITE_STATUSES } from '../../../domain/booking-lifecycle';
import { UPCOMING_HOURS, type GateBooking, type GateOverview, type GateQueue } from '../../../domain/gate';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import { notFound } from '../../plugins/errors';
import type { GateActor } from './gate-actions';
import { emergencyStateOf, siteDay, toGateBooking } from './gate-view';
import * as repo from './gate.repo';

// What the gate's screens read: the site's day at a glance (overview) and the vehicles waiting to
// be called to a bay (queue). Nothing here writes.

const MINUTE_MS = 60_000;

/** The gate's screen: today's counters, the live list, upcoming arrivals, the bays, the emergency state. */
export async function overview(ctx: AppContext, actor: GateActor): Promise<GateOverview> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const site = await repo.findSite(db, actor);
  if (!site) throw notFound('Site');
  const day = siteDay(site.timeZone, now);
  const [liveRows, upcomingRows, bays, blackedOut] = await Promise.all([
    repo.listGateBookings(db, actor, repo.liveCondition(day.start, day.end)),
    repo.listGateBookings(db, actor, repo.upcomingCondition(now, new Date(now.getTime() + UPCOMING_HOURS * 3_600_000))),
    repo.listActiveBays(db, actor),
    repo.blackedOutBayIds(db, site.id, now),
  ]);
  const isStopped = site.emergencyAt !== null;
  const live = liveRows.map((r) => toGateBooking(r, actor.role, now, isStopped));
  const upcoming = upcomingRows.map((r) => toGateBooking(r, actor.role, now, isStopped));
  const isToday = (b: GateBooking) => b.startTime >= day.start.toISOString() && b.startTime < day.end.toISOString();
  const count = (list: GateBooking[], test: (b: GateBooking) => boolean) => list.filter(test).length;
  const atBay = new Map(live.filter((b) => AT_BAY_STATUSES.includes(b.status)).map((b) => [b.bayId, b]));
  return {
    siteId: site.id,
    siteName: site.name,
    timeZone: site.timeZone,
    date: day.date,
    counters: {
      expectedToday: count(live, (b) => isToday(b) && CONFIRMED_BOOKING_STATUSES.includes(b.status)),
      onSite: count(live, (b) => ON_SITE_STATUSES.includes(b.status)),
      waiting: count(live, (b) => b.status === 'checked_in'),
      atBay: count(live, (b) => b.status === 'in_progress'),
      late: count(upcoming, (b) => b.isLate),
      overstay: count(live, (b) => b.status === 'overstay'),
    },
    // The list is what staff still act on: today's finished visits count above, not here.
    live: live.filter((b) => LIVE_BOOKING_STATUSES.includes(b.status)),
    upcoming,
    bays: bays.map((bay) => {
      const booking = atBay.get(bay.id) ?? null;
      const state = site.emergencyAt
        ? 'stopped'
        : booking?.status === 'overstay'
          ? 'overstay'
          : booking
            ? 'occupied'
            : blackedOut.has('*') || blackedOut.has(bay.id)
              ? 'blacked_out'
              : 'available';
      return { id: bay.id, name: bay.name, state, booking };
    }),
    emergency: emergencyStateOf(site),
  };
}

/** Vehicles that arrived (checked in), first come first, with their bay's state and the free compatible bays. */
export async function queue(ctx: AppContext, actor: GateActor): Promise<GateQueue> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const site = await repo.findSite(db, actor);
  if (!site) throw notFound('Site');
  const rows = await repo.listGateBookings(db, actor, eq(bookings.status, 'checked_in'), 'arrival');
  const items = await Promise.all(
    rows.map(async (row) => {
      const stopped = site.emergencyAt !== null;
      const [isFree, free] = stopped
        ? [false, []]
        : await Promise.all([repo.isBayFreeNow(db, row.bayId, row.id, now), repo.freeBaysForBooking(db, row.id, now)]);
      return {
        ...toGateBooking(row, actor.role, now, stopped),
        waitingMinutes: row.checkedInAt ? Math.max(0, Math.floor((now.getTime() - row.checkedInAt.getTime()) / MINUTE_MS)) : 0,
        isExpectedBayFree: isFree,
        freeBays: free,
      };
    }),
  );
  return { siteName: site.name, timeZone: site.timeZone, emergency: emergencyStateOf(site), items };
}
