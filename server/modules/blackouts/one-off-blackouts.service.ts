import type { z } from 'zod';
import { blackoutFormSchema, type BlackoutWriteResult, type createBlackoutSchema, type updateBlackoutSchema } from '../../../domain/org-blackouts';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { publishResolved } from '../bookings/affected-bookings';
import {
  affectedFor,
  fieldError,
  localSpan,
  publish,
  requireBay,
  requireSite,
  requireUuid,
  resolve,
  toInstants,
  validateWith,
  where,
  type Site,
} from './blackout-writes';
import { getItem } from './org-blackouts.service';
import * as repo from './org-blackouts.repo';

// One-off blackouts: a span of one site or one bay. Changing or deleting one occurrence of a
// series goes through here too: changed, it leaves its series; deleted, the series will not
// write it again.

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
