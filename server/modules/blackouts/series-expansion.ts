import { sql, type SQL } from 'drizzle-orm';
import { expandSeries, type Occurrence, type SeriesRule } from '../../../domain/org-blackouts';
import type { Tx } from '../../db/client';
import type { blackoutSeries } from '../../db/schema';
import * as repo from './org-blackouts.repo';

// A series becomes ordinary blackout rows (series_id set): written here for the API and for the
// daily job that keeps every series written up to the horizon.

export type Interval = { start: Date; end: Date };
export type Target = { siteId: string; bayId: string | null; intervals: Interval[] };

const timestamps = (dates: Date[]) => `{${dates.map((d) => d.toISOString()).join(',')}}`;

/**
 * The live bookings a blackout over `target` would hit, for findAffectedBookings (alias `k`): at
 * that site, on that bay (any bay when the whole site closes), overlapping any of the intervals.
 */
export function overlapCondition(target: Target): SQL {
  if (target.intervals.length === 0) return sql`false`;
  return sql`(k.site_id = ${target.siteId}
    and (${target.bayId}::uuid is null or k.bay_id = ${target.bayId}::uuid)
    and exists (select 1 from unnest(${timestamps(target.intervals.map((i) => i.start))}::timestamptz[],
                                     ${timestamps(target.intervals.map((i) => i.end))}::timestamptz[]) as iv(s, e)
                 where k.start_time < iv.e and k.end_time > iv.s))`;
}

/** Bookings the change newly affects: under the new blackout and not already under the old one (asked about before). */
export function newlyAffectedCondition(next: Target, previous: Target | null): SQL {
  return previous ? sql`(${overlapCondition(next)} and not ${overlapCondition(previous)})` : overlapCondition(next);
}

type SeriesRecord = typeof blackoutSeries.$inferSelect;

export const ruleOf = (series: Pick<SeriesRecord, 'rrule' | 'startsOn' | 'startLocal' | 'durationMin' | 'until'>): SeriesRule => ({
  rrule: series.rrule,
  startsOn: series.startsOn,
  startLocal: series.startLocal,
  durationMin: series.durationMin,
  until: series.until,
});

/** Inserts the occurrences of `series` as blackout rows; returns how many were written. */
export async function insertOccurrences(tx: Tx, series: SeriesRecord, occurrences: Occurrence[], now: Date): Promise<number> {
  if (occurrences.length === 0) return 0;
  const ids = await repo.insertBlackouts(
    tx,
    occurrences.map((o) => ({
      orgId: series.orgId,
      siteId: series.siteId,
      bayId: series.bayId,
      startTime: o.start,
      endTime: o.end,
      reason: series.reason,
      seriesId: series.id,
      kind: 'blackout',
      createdBy: series.createdBy,
      createdAt: now,
      updatedAt: now,
    })),
  );
  return ids.length;
}

/**
 * Writes a series' occurrences on local dates [from, to], none starting before `notBefore`, the
 * `except` dates left out, and records how far it got (expanded_until).
 */
export async function expandInto(
  tx: Tx,
  series: SeriesRecord,
  timeZone: string,
  range: { from: string; to: string; notBefore: Date; except?: ReadonlySet<string> },
  now: Date,
): Promise<{ written: number; occurrences: Occurrence[]; coveredUntil: string }> {
  const { occurrences, coveredUntil } = expandSeries(ruleOf(series), { timeZone, ...range });
  const written = await insertOccurrences(tx, series, occurrences, now);
  await repo.updateSeries(tx, series.orgId, series.id, { expandedUntil: coveredUntil });
  return { written, occurrences, coveredUntil };
}
