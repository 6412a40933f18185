import type { OperatingHours } from '../../../domain/constants';
import type { BookingStatus } from '../../../domain/enums';
import {
  NEXT_ARRIVALS_LIMIT,
  RECENT_REQUESTS_LIMIT,
  type DashboardBooking,
  type DashboardSite,
  type OrgDashboard,
  type OrgDashboardQuery,
} from '../../../domain/org-dashboard';
import { openMinutesOn, todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import * as repo from './org-dashboard.repo';

const MINUTE_MS = 60_000;

/** 'YYYY-MM-DD' one calendar day later. */
function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/** A site's today: its calendar date, the instants it starts and ends, and its opening windows (none when closed). */
export function siteDay(timeZone: string, operatingHours: OperatingHours, now: Date) {
  const date = todayIn(timeZone, now);
  const start = zonedTimeToUtc(date, 0, timeZone);
  const end = zonedTimeToUtc(nextDate(date), 0, timeZone);
  const windows = openMinutesOn(date, operatingHours).map((w) => ({
    open: zonedTimeToUtc(date, w.open, timeZone),
    close: zonedTimeToUtc(date, w.close, timeZone),
  }));
  return { date, start, end, windows };
}

/** Minutes of [start, end) inside [from, to). */
function overlapMinutes(start: Date, end: Date, from: Date, to: Date): number {
  const ms = Math.min(end.getTime(), to.getTime()) - Math.max(start.getTime(), from.getTime());
  return ms > 0 ? ms / MINUTE_MS : 0;
}

/** booked ÷ capacity as a whole percentage; 0 without capacity. */
export function percentOf(booked: number, capacity: number): number {
  return capacity > 0 ? Math.round((booked / capacity) * 100) : 0;
}

function toDto(row: repo.DashboardBookingRow): DashboardBooking {
  return {
    ...row,
    status: row.status as BookingStatus,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The organization's (or one site's) figures now: pending requests, today's bookings, vehicles on
 * site, late arrivals, today's utilisation per site and overall, the latest requests, live
 * operations and the sites overview.
 */
export async function getDashboard(ctx: AppContext, scope: OrgScope, query: OrgDashboardQuery): Promise<OrgDashboard> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const siteId = query.siteId ?? null;

  const allSites = await repo.listSites(db, scope, siteId);
  if (siteId && allSites.length === 0) throw notFound('Site');
  const days = new Map(allSites.map((s) => [s.id, siteDay(s.timeZone, s.operatingHours, now)]));

  const earliest = new Date(Math.min(...[...days.values()].map((d) => d.start.getTime())));
  const latest = new Date(Math.max(...[...days.values()].map((d) => d.end.getTime())));
  const dayEnds = allSites.map((s) => ({ siteId: s.id, end: days.get(s.id)!.end }));

  const [counts, startingToday, recent, onSite, upcoming, stops] = await Promise.all([
    repo.countPendingAndLate(db, scope, siteId, now),
    allSites.length > 0 ? repo.listLiveStartingBetween(db, scope, siteId, earliest, latest) : Promise.resolve([]),
    repo.listRecent(db, scope, siteId, RECENT_REQUESTS_LIMIT),
    repo.listOnSite(db, scope, siteId),
    repo.listUpcoming(db, scope, siteId, now, dayEnds, NEXT_ARRIVALS_LIMIT),
    repo.listEmergencyStops(db, scope, siteId),
  ]);

  // Each booking counts for its own site's day.
  const today = startingToday.filter((b) => {
    const day = days.get(b.siteId);
    return !!day && b.startTime >= day.start && b.startTime < day.end;
  });

  const siteRows: DashboardSite[] = allSites
    .filter((s) => s.active)
    .map((s) => {
      const day = days.get(s.id)!;
      const mine = today.filter((b) => b.siteId === s.id);
      const openMinutes = day.windows.reduce((sum, w) => sum + (w.close.getTime() - w.open.getTime()) / MINUTE_MS, 0);
      const capacityMinutes = s.activeBays * openMinutes;
      const bookedMinutes = mine
        .filter((b) => b.bayActive)
        .reduce((sum, b) => sum + day.windows.reduce((inWindows, w) => inWindows + overlapMinutes(b.startTime, b.endTime, w.open, w.close), 0), 0);
      const occupied = new Set(onSite.filter((b) => b.siteId === s.id).map((b) => b.bayId));
      return {
        id: s.id,
        name: s.name,
        timeZone: s.timeZone,
        today: day.date,
        activeBays: s.activeBays,
        occupiedBays: occupied.size,
        todaysBookings: mine.length,
        isOpenToday: day.windows.length > 0,
        bookedMinutes: Math.round(bookedMinutes),
        capacityMinutes: Math.round(capacityMinutes),
        utilisationPercent: percentOf(bookedMinutes, capacityMinutes),
      };
    });

  const totalBooked = siteRows.reduce((sum, s) => sum + s.bookedMinutes, 0);
  const totalCapacity = siteRows.reduce((sum, s) => sum + s.capacityMinutes, 0);

  return {
    generatedAt: now.toISOString(),
    siteId,
    stats: {
      pendingRequests: counts.pending,
      todaysBookings: today.length,
      onSiteNow: onSite.length,
      lateArrivals: counts.late,
      utilisationPercent: percentOf(totalBooked, totalCapacity),
    },
    recentRequests: recent.map(toDto),
    liveOperations: { onSite: onSite.map(toDto), nextArrivals: upcoming.map(toDto) },
    sites: siteRows,
    emergencyStops: stops.map((s) => ({ ...s, since: s.since!.toISOString() })),
  };
}
