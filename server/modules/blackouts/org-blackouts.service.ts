import type { z } from 'zod';
import {
  BLACKOUT_KINDS,
  describeRecurrence,
  parseRrule,
  type BlackoutItem,
  type BlackoutKind,
  type BlackoutList,
  type BlackoutOptions,
  type BlackoutSeries,
  type blackoutListQuerySchema,
} from '../../../domain/org-blackouts';
import { localDateOf, localTimeOf, todayIn } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { requireUuid } from './blackout-writes';
import * as repo from './org-blackouts.repo';

// Blackouts of the organization's sites and bays: one-offs (one-off-blackouts.service.ts),
// recurring series expanded into ordinary rows (blackout-series.service.ts) and, read-only here,
// the holiday closures the site's hours carry. Org admins write, dockmasters read. A write over
// live bookings needs the admin's choice first (409 affected_bookings); with it, the change and
// the choice commit together. This file reads.

function statusOf(start: Date, end: Date, now: Date): BlackoutItem['status'] {
  if (end.getTime() <= now.getTime()) return 'past';
  return start.getTime() > now.getTime() ? 'upcoming' : 'current';
}

function toItem(row: repo.BlackoutRow, now: Date): BlackoutItem {
  const tz = row.timeZone;
  return {
    id: row.id,
    kind: (BLACKOUT_KINDS as readonly string[]).includes(row.kind) ? (row.kind as BlackoutKind) : 'blackout',
    siteId: row.siteId,
    siteName: row.siteName,
    timeZone: tz,
    bayId: row.bayId,
    bayName: row.bayId ? row.bayName : null,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    startDate: localDateOf(row.startTime, tz),
    startLocal: localTimeOf(row.startTime, tz),
    endDate: localDateOf(row.endTime, tz),
    endLocal: localTimeOf(row.endTime, tz),
    reason: row.reason,
    series:
      row.seriesId && row.seriesRrule
        ? {
            id: row.seriesId,
            summary: summaryOf({ rrule: row.seriesRrule, startsOn: row.seriesStartsOn!, startLocal: row.seriesStartLocal!, durationMin: row.seriesDurationMin! }),
          }
        : null,
    status: statusOf(row.startTime, row.endTime, now),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function summaryOf(series: { rrule: string; startsOn: string; startLocal: string; durationMin: number }): string {
  try {
    return describeRecurrence(parseRrule(series.rrule), series);
  } catch {
    return `Repeats (${series.rrule})`;
  }
}

function toSeries(row: repo.SeriesRow): BlackoutSeries {
  const s = row.series;
  const recurrence = parseRrule(s.rrule);
  return {
    id: s.id,
    siteId: s.siteId,
    siteName: row.siteName,
    timeZone: row.timeZone,
    bayId: s.bayId,
    bayName: s.bayId ? row.bayName : null,
    frequency: recurrence.frequency,
    interval: recurrence.interval,
    weekdays: recurrence.weekdays,
    startsOn: s.startsOn,
    startLocal: s.startLocal,
    durationMin: s.durationMin,
    until: s.until,
    reason: s.reason,
    summary: describeRecurrence(recurrence, s),
    rrule: s.rrule,
    expandedUntil: s.expandedUntil,
    upcomingCount: row.upcomingCount,
    nextStart: row.nextStart ? new Date(row.nextStart).toISOString() : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export async function listBlackouts(ctx: AppContext, scope: OrgScope, query: z.output<typeof blackoutListQuerySchema>): Promise<BlackoutList> {
  const now = ctx.clock.now();
  const { rows, total } = await repo.listBlackouts(ctx.database.db, scope.orgId, query, now);
  return { items: rows.map((r) => toItem(r, now)), total, page: query.page, pageSize: query.pageSize };
}

export async function listSeries(ctx: AppContext, scope: OrgScope, siteId: string | undefined) {
  const rows = await repo.listSeries(ctx.database.db, scope.orgId, siteId, ctx.clock.now());
  return { items: rows.map(toSeries) };
}

export async function getSeries(ctx: AppContext, scope: OrgScope, id: string): Promise<BlackoutSeries> {
  requireUuid(id, 'Blackout series');
  const row = await repo.findSeries(ctx.database.db, scope.orgId, id, ctx.clock.now());
  if (!row) throw notFound('Blackout series');
  return toSeries(row);
}

export async function getItem(ctx: AppContext, scope: OrgScope, id: string): Promise<BlackoutItem> {
  const row = await repo.findBlackout(ctx.database.db, scope.orgId, id);
  if (!row) throw notFound('Blackout');
  return toItem(row, ctx.clock.now());
}

export async function getOptions(ctx: AppContext, scope: OrgScope): Promise<BlackoutOptions> {
  const rows = await repo.listSitesWithBays(ctx.database.db, scope.orgId);
  const now = ctx.clock.now();
  const sites = new Map<string, BlackoutOptions['sites'][number]>();
  for (const r of rows) {
    let site = sites.get(r.siteId);
    if (!site) {
      site = { id: r.siteId, name: r.siteName, timeZone: r.timeZone, active: r.siteActive, today: todayIn(r.timeZone, now), bays: [] };
      sites.set(r.siteId, site);
    }
    if (r.bayId) site.bays.push({ id: r.bayId, name: r.bayName!, active: r.bayActive! });
  }
  return { sites: [...sites.values()] };
}
