import type { z } from 'zod';
import type { AffectedOutcome, AffectedResolution } from '../../../domain/affected-bookings';
import {
  BLACKOUT_KINDS,
  RecurrenceError,
  blackoutFormSchema,
  buildRrule,
  describeRecurrence,
  expandSeries,
  expansionEnd,
  parseRrule,
  seriesFormSchema,
  type BlackoutItem,
  type BlackoutKind,
  type BlackoutList,
  type BlackoutOptions,
  type BlackoutSeries,
  type BlackoutWriteResult,
  type Occurrence,
  type SeriesWriteResult,
  type blackoutListQuerySchema,
  type createBlackoutSchema,
  type createSeriesSchema,
  type updateBlackoutSchema,
  type updateSeriesSchema,
} from '../../../domain/org-blackouts';
import { WEEKDAYS } from '../../../domain/enums';
import { localDateOf, localTimeOf, parseTimeOfDay, todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../audit/audit.service';
import { affectedBookingsConflict, findAffectedBookings, publishResolved, resolveAffectedInTx, type ResolvedChange } from '../bookings/affected-bookings';
import * as repo from './org-blackouts.repo';
import { insertOccurrences, newlyAffectedCondition, ruleOf, type Interval, type Target } from './series-expansion';

// Blackouts of the organization's sites and bays: one-offs, recurring series (expanded into
// ordinary rows) and, read-only here, the holiday closures the site's hours carry. Org admins
// write, dockmasters read. A write over live bookings needs the admin's choice first (409
// affected_bookings); with it, the change and the choice commit together.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names nothing (404, not a database error). */
function requireUuid(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

type Site = { id: string; name: string; timeZone: string };
type Bay = { id: string; name: string; siteId: string };
const NO_CHANGE: ResolvedChange = { views: [], actions: [] };

async function requireSite(tx: Tx, scope: OrgScope, siteId: string): Promise<Site> {
  const site = await repo.findSite(tx, scope.orgId, siteId);
  if (!site) throw notFound('Site');
  return site;
}

/** A bay of the organization (else 404) at this site (else a 400 on the field). */
async function requireBay(tx: Tx, scope: OrgScope, site: Site, bayId: string): Promise<Bay> {
  const bay = await repo.findBay(tx, scope.orgId, bayId);
  if (!bay) throw notFound('Bay');
  if (bay.siteId !== site.id) {
    const message = `Bay ${bay.name} is not at ${site.name}: choose one of its bays, or the whole site`;
    throw badRequest(message, [{ path: 'bayId', message }]);
  }
  return bay;
}

/** A merged (patched) value checked with the form's own schema: its messages, on its fields. */
function validateWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw badRequest(details.map((d) => d.message).join(', '), details);
}

const fieldError = (path: string, message: string) => badRequest(message, [{ path, message }]);

function publish(ctx: AppContext, orgId: string, id: string, siteId: string, action: string): void {
  ctx.realtime?.publish({ entity: 'blackout', action, id, orgId, siteId, at: ctx.clock.now().toISOString() });
}

/** The site-local wall-clock span → instants, the end after the start. */
function toInstants(span: { startDate: string; startTime: string; endDate: string; endTime: string }, timeZone: string): Interval {
  const start = zonedTimeToUtc(span.startDate, parseTimeOfDay(span.startTime)!, timeZone);
  const end = zonedTimeToUtc(span.endDate, parseTimeOfDay(span.endTime)!, timeZone);
  // Compared as text already; a span inside a clock change can still come out empty.
  if (end.getTime() <= start.getTime()) throw fieldError('endTime', 'The end must be after the start');
  return { start, end };
}

function where(bay: { name: string } | null, site: Site): string {
  return bay ? `bay ${bay.name}` : `the whole of ${site.name}`;
}

function localSpan(interval: Interval, timeZone: string): string {
  return `${localDateOf(interval.start, timeZone)} ${localTimeOf(interval.start, timeZone)}–${localDateOf(interval.end, timeZone)} ${localTimeOf(interval.end, timeZone)}`;
}

/**
 * The live bookings the change newly affects: none → go on; some and no resolution → 409 with the
 * list (nothing written); some and a resolution → locked, to be resolved after the write.
 */
async function affectedFor(tx: Tx, scope: OrgScope, now: Date, next: Target, previous: Target | null, resolution: AffectedResolution | undefined, what: string) {
  const affected = await findAffectedBookings(tx, scope.orgId, now, newlyAffectedCondition(next, previous), { forUpdate: !!resolution });
  if (affected.length > 0 && !resolution) throw affectedBookingsConflict(affected, what);
  return affected;
}

async function resolve(
  ctx: AppContext,
  tx: Tx,
  scope: OrgScope,
  affected: Awaited<ReturnType<typeof findAffectedBookings>>,
  resolution: AffectedResolution | undefined,
  ip: string | null,
  cause: string,
): Promise<{ outcomes: AffectedOutcome[]; publish: ResolvedChange }> {
  if (affected.length === 0 || !resolution) return { outcomes: [], publish: NO_CHANGE };
  return resolveAffectedInTx(ctx, tx, scope, affected, resolution, ip, cause);
}

// --- reading -----------------------------------------------------------------------------------

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

function summaryOf(series: { rrule: string; startsOn: string; startLocal: string; durationMin: number }): string {
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

async function getItem(ctx: AppContext, scope: OrgScope, id: string): Promise<BlackoutItem> {
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

// --- one-off blackouts ---------------------------------------------------------------------------

export async function createBlackout(ctx: AppContext, scope: OrgScope, input: z.output<typeof createBlackoutSchema>, ip: string | null): Promise<BlackoutWriteResult> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const site = await requireSite(tx, scope, input.siteId);
    const bay = input.bayId ? await requireBay(tx, scope, site, input.bayId) : null;
    const interval = toInstants(input, site.timeZone);
    if (interval.end.getTime() <= now.getTime()) throw fieldError('endDate', 'This time is already over: choose an end in the future');
    const what = `closing ${where(bay, site)} ${localSpan(interval, site.timeZone)}`;
    const affected = await affectedFor(tx, scope, now, { siteId: site.id, bayId: bay?.id ?? null, intervals: [interval] }, null, input.resolution, what);
    const [id] = await repo.insertBlackouts(tx, [
      {
        orgId: scope.orgId,
        siteId: site.id,
        bayId: bay?.id ?? null,
        startTime: interval.start,
        endTime: interval.end,
        reason: input.reason || null,
        kind: 'blackout',
        createdBy: scope.userId,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'blackout.created',
      resourceType: 'blackout',
      resourceId: id!,
      orgId: scope.orgId,
      siteId: site.id,
      details: {
        site: site.name,
        bay: bay?.name ?? null,
        start: interval.start.toISOString(),
        end: interval.end.toISOString(),
        reason: input.reason || null,
        affected_bookings: affected.length,
        resolution: input.resolution?.action ?? null,
      },
      ip,
    });
    const resolved = await resolve(ctx, tx, scope, affected, input.resolution, ip, input.resolution?.reason ?? `Blackout: ${what}`);
    return { id: id!, siteId: site.id, ...resolved };
  });
  publishResolved(ctx, result.publish);
  publish(ctx, scope.orgId, result.id, result.siteId, 'created');
  return { blackout: await getItem(ctx, scope, result.id), outcomes: result.outcomes };
}

function requireEditable(row: repo.BlackoutRow): void {
  if (row.kind === 'holiday') {
    throw conflict('holiday_closure', 'Holiday closures are part of the site’s opening hours: change them with the site, not here.');
  }
}

/** Changes a blackout; an occurrence changed alone leaves its series (an exception the series keeps). */
export async function updateBlackout(
  ctx: AppContext,
  scope: OrgScope,
  id: string,
  input: z.output<typeof updateBlackoutSchema>,
  ip: string | null,
): Promise<BlackoutWriteResult> {
  requireOrgAdmin(scope);
  requireUuid(id, 'Blackout');
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.lockBlackout(tx, scope.orgId, id))) throw notFound('Blackout');
    const row = (await repo.findBlackout(tx, scope.orgId, id))!;
    requireEditable(row);
    const site: Site = { id: row.siteId, name: row.siteName, timeZone: row.timeZone };
    const tz = site.timeZone;
    const bayId = input.bayId !== undefined ? input.bayId : row.bayId;
    const bay = bayId ? await requireBay(tx, scope, site, bayId) : null;
    const merged = validateWith(blackoutFormSchema, {
      siteId: site.id,
      bayId: bay?.id ?? null,
      startDate: input.startDate ?? localDateOf(row.startTime, tz),
      startTime: input.startTime ?? localTimeOf(row.startTime, tz),
      endDate: input.endDate ?? localDateOf(row.endTime, tz),
      endTime: input.endTime ?? localTimeOf(row.endTime, tz),
      reason: input.reason !== undefined ? input.reason : row.reason,
    });
    const interval = toInstants(merged, tz);
    if (interval.end.getTime() <= now.getTime() && interval.end.getTime() !== row.endTime.getTime()) {
      throw fieldError('endDate', 'This time is already over: choose an end in the future');
    }
    const what = `closing ${where(bay, site)} ${localSpan(interval, tz)}`;
    const affected = await affectedFor(
      tx,
      scope,
      now,
      { siteId: site.id, bayId: bay?.id ?? null, intervals: [interval] },
      { siteId: site.id, bayId: row.bayId, intervals: [{ start: row.startTime, end: row.endTime }] },
      input.resolution,
      what,
    );
    await repo.updateBlackout(tx, scope.orgId, id, {
      bayId: bay?.id ?? null,
      startTime: interval.start,
      endTime: interval.end,
      reason: merged.reason || null,
      seriesId: null,
      updatedAt: now,
    });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'blackout.updated',
      resourceType: 'blackout',
      resourceId: id,
      orgId: scope.orgId,
      siteId: site.id,
      details: {
        site: site.name,
        previous: { bay: row.bayId ? row.bayName : null, start: row.startTime.toISOString(), end: row.endTime.toISOString(), reason: row.reason },
        bay: bay?.name ?? null,
        start: interval.start.toISOString(),
        end: interval.end.toISOString(),
        reason: merged.reason || null,
        left_series: row.seriesId,
        affected_bookings: affected.length,
        resolution: input.resolution?.action ?? null,
      },
      ip,
    });
    const resolved = await resolve(ctx, tx, scope, affected, input.resolution, ip, input.resolution?.reason ?? `Blackout: ${what}`);
    return { siteId: site.id, ...resolved };
  });
  publishResolved(ctx, result.publish);
  publish(ctx, scope.orgId, id, result.siteId, 'updated');
  return { blackout: await getItem(ctx, scope, id), outcomes: result.outcomes };
}

/** Deletes a one-off, or one occurrence of a series (the series will not write it again). */
export async function deleteBlackout(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  requireUuid(id, 'Blackout');
  const siteId = await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.lockBlackout(tx, scope.orgId, id))) throw notFound('Blackout');
    const row = (await repo.findBlackout(tx, scope.orgId, id))!;
    requireEditable(row);
    await repo.deleteBlackout(tx, scope.orgId, id);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: row.seriesId ? 'blackout.occurrence_deleted' : 'blackout.deleted',
      resourceType: 'blackout',
      resourceId: id,
      orgId: scope.orgId,
      siteId: row.siteId,
      details: { site: row.siteName, bay: row.bayId ? row.bayName : null, start: row.startTime.toISOString(), end: row.endTime.toISOString(), reason: row.reason, series_id: row.seriesId },
      ip,
    });
    return row.siteId;
  });
  publish(ctx, scope.orgId, id, siteId, 'deleted');
}

// --- recurring series ----------------------------------------------------------------------------

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

