import type { z } from 'zod';
import {
  RecurrenceError,
  addDays,
  buildRrule,
  describeRecurrence,
  expandSeries,
  expansionEnd,
  parseRrule,
  seriesFormSchema,
  type Occurrence,
  type SeriesWriteResult,
  type createSeriesSchema,
  type updateSeriesSchema,
} from '../../../domain/org-blackouts';
import { WEEKDAYS } from '../../../domain/enums';
import { todayIn } from '../../../domain/slot-grid';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { findAffectedBookings, publishResolved } from '../bookings/affected-bookings';
import { affectedFor, fieldError, publish, requireBay, requireSite, requireUuid, resolve, validateWith, where } from './blackout-writes';
import { getSeries, summaryOf } from './org-blackouts.service';
import * as repo from './org-blackouts.repo';
import { expandInto, insertOccurrences, overlapCondition, ruleOf, type Interval } from './series-expansion';

// Recurring blackouts: a series (an RFC 5545 rule at a site or bay) written as ordinary rows up
// to 730 days ahead (the longest booking horizon), or its last date. Changing a series writes its
// occurrences from now on again; ending it keeps those already started as plain blackouts.

type SeriesValues = z.output<typeof seriesFormSchema>;

/** The occurrences a series has from now on, written to the horizon (or its until). */
function plan(values: SeriesValues, rrule: string, timeZone: string, now: Date, except?: ReadonlySet<string>) {
  const today = todayIn(timeZone, now);
  try {
    return expandSeries(
      { rrule, startsOn: values.startsOn, startLocal: values.startLocal, durationMin: values.durationMin, until: values.until ?? null },
      { timeZone, from: values.startsOn > today ? values.startsOn : today, to: expansionEnd(today, values.until ?? null), notBefore: now, except },
    );
  } catch (error) {
    if (error instanceof RecurrenceError) throw fieldError('frequency', error.message);
    throw error;
  }
}

const recurrenceOf = (values: SeriesValues) => ({
  frequency: values.frequency,
  interval: values.interval ?? 1,
  weekdays: values.frequency === 'weekly' ? WEEKDAYS.filter((d) => (values.weekdays ?? []).includes(d)) : [],
});

const intervalsOf = (occurrences: Occurrence[]): Interval[] => occurrences.map((o) => ({ start: o.start, end: o.end }));

export async function createSeries(ctx: AppContext, scope: OrgScope, input: z.output<typeof createSeriesSchema>, ip: string | null): Promise<SeriesWriteResult> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const site = await requireSite(tx, scope, input.siteId);
    const bay = input.bayId ? await requireBay(tx, scope, site, input.bayId) : null;
    if (input.startsOn < todayIn(site.timeZone, now)) throw fieldError('startsOn', 'The start date cannot be in the past');
    const recurrence = recurrenceOf(input);
    const rrule = buildRrule(recurrence);
    const summary = describeRecurrence(recurrence, input);
    const { occurrences, coveredUntil } = plan(input, rrule, site.timeZone, now);
    if (occurrences.length === 0) throw fieldError('until', 'No blackout falls between the start date and the last date: check the days and dates');
    const what = `closing ${where(bay, site)} ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
    const affected = await affectedFor(tx, scope, now, { siteId: site.id, bayId: bay?.id ?? null, intervals: intervalsOf(occurrences) }, null, input.resolution, what);
    const series = await repo.insertSeries(tx, {
      orgId: scope.orgId,
      siteId: site.id,
      bayId: bay?.id ?? null,
      rrule,
      startsOn: input.startsOn,
      startLocal: input.startLocal,
      durationMin: input.durationMin,
      until: input.until ?? null,
      reason: input.reason || null,
      createdBy: scope.userId,
      createdAt: now,
      updatedAt: now,
      expandedUntil: coveredUntil,
    });
    const written = await insertOccurrences(tx, series, occurrences, now);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'blackout_series.created',
      resourceType: 'blackout_series',
      resourceId: series.id,
      orgId: scope.orgId,
      siteId: site.id,
      details: {
        site: site.name,
        bay: bay?.name ?? null,
        summary,
        rrule,
        starts_on: input.startsOn,
        until: input.until ?? null,
        reason: input.reason || null,
        occurrences: written,
        affected_bookings: affected.length,
        resolution: input.resolution?.action ?? null,
      },
      ip,
    });
    const resolved = await resolve(ctx, tx, scope, affected, input.resolution, ip, input.resolution?.reason ?? `Blackout: ${what}`);
    return { id: series.id, siteId: site.id, written, ...resolved };
  });
  publishResolved(ctx, result.publish);
  publish(ctx, scope.orgId, result.id, result.siteId, 'created');
  return { series: await getSeries(ctx, scope, result.id), occurrences: result.written, outcomes: result.outcomes };
}

/**
 * Changes a series: its occurrences from now on are written again under the new rule (those
 * already started stay as they were); dates whose occurrence was deleted or changed alone stay
 * exceptions when the new rule still has them.
 */
export async function updateSeries(
  ctx: AppContext,
  scope: OrgScope,
  id: string,
  input: z.output<typeof updateSeriesSchema>,
  ip: string | null,
): Promise<SeriesWriteResult> {
  requireOrgAdmin(scope);
  requireUuid(id, 'Blackout series');
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const current = await repo.lockSeries(tx, scope.orgId, id);
    if (!current) throw notFound('Blackout series');
    const site = (await repo.findSite(tx, scope.orgId, current.siteId))!;
    const tz = site.timeZone;
    const bayId = input.bayId !== undefined ? input.bayId : current.bayId;
    const bay = bayId ? await requireBay(tx, scope, site, bayId) : null;
    const old = parseRrule(current.rrule);
    const frequency = input.frequency ?? old.frequency;
    const values = validateWith(seriesFormSchema, {
      siteId: site.id,
      bayId: bay?.id ?? null,
      frequency,
      interval: input.interval ?? old.interval,
      weekdays: input.weekdays ?? (frequency === 'weekly' && old.weekdays.length === 0 ? [] : old.weekdays),
      startsOn: input.startsOn ?? current.startsOn,
      startLocal: input.startLocal ?? current.startLocal,
      durationMin: input.durationMin ?? current.durationMin,
      until: input.until !== undefined ? input.until : current.until,
      reason: input.reason !== undefined ? input.reason : current.reason,
    });
    if (values.startsOn !== current.startsOn && values.startsOn < todayIn(tz, now)) throw fieldError('startsOn', 'The start date cannot be in the past');
    const recurrence = recurrenceOf(values);
    const rrule = buildRrule(recurrence);
    const summary = describeRecurrence(recurrence, values);

    // Exceptions: dates the old rule wrote from now on whose occurrence is gone (deleted, or changed alone).
    const existing = await repo.futureOccurrences(tx, scope.orgId, id, now);
    const existingStarts = new Set(existing.map((o) => o.startTime.getTime()));
    const today = todayIn(tz, now);
    const oldOccurrences = current.expandedUntil
      ? expandSeries(ruleOf(current), { timeZone: tz, from: today, to: current.expandedUntil, notBefore: now }).occurrences
      : [];
    const except = new Set(oldOccurrences.filter((o) => !existingStarts.has(o.start.getTime())).map((o) => o.date));

    const { occurrences, coveredUntil } = plan(values, rrule, tz, now, except);
    const what = `closing ${where(bay, site)} ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
    const affected = await affectedFor(
      tx,
      scope,
      now,
      { siteId: site.id, bayId: bay?.id ?? null, intervals: intervalsOf(occurrences) },
      { siteId: site.id, bayId: current.bayId, intervals: existing.map((o) => ({ start: o.startTime, end: o.endTime })) },
      input.resolution,
      what,
    );
    const removed = await repo.deleteFutureOccurrences(tx, scope.orgId, id, now);
    const next = {
      ...current,
      bayId: bay?.id ?? null,
      rrule,
      startsOn: values.startsOn,
      startLocal: values.startLocal,
      durationMin: values.durationMin,
      until: values.until ?? null,
      reason: values.reason || null,
      expandedUntil: coveredUntil,
      updatedAt: now,
    };
    await repo.updateSeries(tx, scope.orgId, id, {
      bayId: next.bayId,
      rrule,
      startsOn: next.startsOn,
      startLocal: next.startLocal,
      durationMin: next.durationMin,
      until: next.until,
      reason: next.reason,
      expandedUntil: coveredUntil,
      updatedAt: now,
    });
    const written = await insertOccurrences(tx, next, occurrences, now);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'blackout_series.updated',
      resourceType: 'blackout_series',
      resourceId: id,
      orgId: scope.orgId,
      siteId: site.id,
      details: {
        site: site.name,
        previous: { summary: summaryOf(current), bay: current.bayId, until: current.until, reason: current.reason, rrule: current.rrule },
        bay: bay?.name ?? null,
        summary,
        rrule,
        until: next.until,
        reason: next.reason,
        occurrences_removed: removed,
        occurrences_written: written,
        exceptions_kept: [...except].filter((d) => occurrences.every((o) => o.date !== d)).length,
        affected_bookings: affected.length,
        resolution: input.resolution?.action ?? null,
      },
      ip,
    });
    const resolved = await resolve(ctx, tx, scope, affected, input.resolution, ip, input.resolution?.reason ?? `Blackout: ${what}`);
    return { siteId: site.id, written, ...resolved };
  });
  publishResolved(ctx, result.publish);
  publish(ctx, scope.orgId, id, result.siteId, 'updated');
  return { series: await getSeries(ctx, scope, id), occurrences: result.written, outcomes: result.outcomes };
}

/** Ends a series: its occurrences from now on go; those already started stay as plain blackouts (history). */
export async function deleteSeries(ctx: AppContext, scope: OrgScope, id: string, ip: string | null) {
  requireOrgAdmin(scope);
  requireUuid(id, 'Blackout series');
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const current = await repo.lockSeries(tx, scope.orgId, id);
    if (!current) throw notFound('Blackout series');
    const deletedOccurrences = await repo.deleteFutureOccurrences(tx, scope.orgId, id, now);
    const keptOccurrences = await repo.detachOccurrences(tx, scope.orgId, id, now);
    await repo.deleteSeries(tx, scope.orgId, id);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'blackout_series.deleted',
      resourceType: 'blackout_series',
      resourceId: id,
      orgId: scope.orgId,
      siteId: current.siteId,
      details: { summary: summaryOf(current), rrule: current.rrule, bay_id: current.bayId, reason: current.reason, occurrences_deleted: deletedOccurrences, occurrences_kept: keptOccurrences },
      ip,
    });
    return { siteId: current.siteId, deletedOccurrences, keptOccurrences };
  });
  publish(ctx, scope.orgId, id, result.siteId, 'deleted');
  return { deletedOccurrences: result.deletedOccurrences, keptOccurrences: result.keptOccurrences };
}

/**
 * Writes the next dates of every series behind its horizon (the hourly job: each site's day starts
 * at its own midnight); run twice, it writes nothing the second time. Each series is extended in
 * its own transaction with the series row locked, so an admin's edit and the job never interleave.
 * Returns how many occurrences were written.
 */
export async function extendSeriesToHorizon(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let total = 0;
  for (const candidate of await repo.seriesToExtendAnyOrg(ctx.database.db)) {
    const target = expansionEnd(todayIn(candidate.timeZone, now), candidate.until);
    if (candidate.expandedUntil && candidate.expandedUntil >= target) continue;
    const written = await ctx.database.db.transaction(async (tx) => {
      const series = await repo.lockSeries(tx, candidate.orgId, candidate.id);
      // Deleted or extended by someone else since the list was read.
      if (!series || (series.expandedUntil && series.expandedUntil >= target)) return 0;
      const from = series.expandedUntil ? addDays(series.expandedUntil, 1) : series.startsOn;
      const result = await expandInto(tx, series, candidate.timeZone, { from, to: target, notBefore: now }, now);
      if (result.occurrences.length > 0) {
        // Nobody can be asked here: bookings already under the new dates stay, and are logged.
        const affected = await findAffectedBookings(
          tx,
          series.orgId,
          now,
          overlapCondition({ siteId: series.siteId, bayId: series.bayId, intervals: result.occurrences }),
          { limit: 20 },
        );
        if (affected.length > 0) {
          ctx.log.warn({ seriesId: series.id, bookings: affected.map((b) => b.id) }, 'new blackout occurrences overlap live bookings');
        }
      }
      return result.written;
    });
    if (written > 0) {
      ctx.realtime?.publish({ entity: 'blackout', action: 'updated', id: candidate.id, orgId: candidate.orgId, siteId: candidate.siteId, at: now.toISOString() });
    }
    total += written;
  }
  return total;
}
