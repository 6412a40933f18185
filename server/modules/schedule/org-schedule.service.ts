import type { z } from 'zod';
import type { BookingStatus } from '../../../domain/enums';
import { addDays } from '../../../domain/day-notice';
import type { Schedule, scheduleQuerySchema } from '../../../domain/org-schedule';
import { isValidTimeZone, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import * as repo from './org-schedule.repo';

/**
 * One site's schedule over site-local days `from`..`to`: its active bays, the bookings that hold a
 * bay and the blackouts overlapping those days. A site of another organization is a 404.
 */
export async function getSchedule(ctx: AppContext, scope: OrgScope, query: z.output<typeof scheduleQuerySchema>): Promise<Schedule> {
  const db = ctx.database.db;
  const site = await repo.findSite(db, scope, query.siteId);
  if (!site) throw notFound('Site');
  const timeZone = isValidTimeZone(site.timeZone) ? site.timeZone : 'UTC';
  // From the first day's local midnight to the local midnight after the last day.
  const range = { start: zonedTimeToUtc(query.from, 0, timeZone), end: zonedTimeToUtc(addDays(query.to, 1), 0, timeZone) };
  const [bays, bookings, blackouts] = await Promise.all([
    repo.listBays(db, scope, site.id),
    repo.listBookings(db, scope, site.id, range),
    repo.listBlackouts(db, scope, site.id, range),
  ]);
  return {
    site: { id: site.id, name: site.name, timeZone, operatingHours: site.operatingHours, slotIntervalMin: site.slotIntervalMin },
    bays: bays.map((b) => ({ ...b, features: b.features ?? [] })),
    bookings: bookings.map((b) => ({
      ...b,
      status: b.status as BookingStatus,
      startTime: b.startTime.toISOString(),
      endTime: b.endTime.toISOString(),
    })),
    blackouts: blackouts.map((b) => ({ ...b, start: b.start.toISOString(), end: b.end.toISOString() })),
  };
}
