import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AffectedBooking, AffectedOutcome, AffectedResolution } from '../../../domain/affected-bookings';
import { BAY_FEATURES, type BayFeature } from '../../../domain/enums';
import {
  BAY_HAS_BOOKINGS_CODE,
  BAY_HAS_BOOKINGS_MESSAGE,
  BAY_MESSAGES,
  type BayItem,
  type BayList,
  type bayActionSchema,
  type bayCreateSchema,
  type bayListQuerySchema,
  type bayUpdateSchema,
  type BayWriteResult,
} from '../../../domain/org-bays';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { assertWithinPlanLimit, oneBayAtSite } from '../billing/plan-limits';
import {
  affectedBookingsConflict,
  findAffectedBookings,
  publishResolved,
  resolveAffectedInTx,
  type ResolvedChange,
} from '../bookings/affected-bookings';
import * as repo from './org-bays.repo';

// The organization's bays: admins add, edit, close, reopen and delete them; dockmasters read.
// A change that would leave upcoming bookings on a bay that no longer takes them (closed, lower,
// shorter, a feature gone) never happens silently: without the admin's resolution it answers 409
// affected_bookings listing them; with it, the change and the resolution (keep, move to another
// free compatible bay at the same time, cancel with a reason e-mailed to the haulier) commit in
// one transaction.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid is a bay that does not exist (404, not a database error). */
function requireBayId(bayId: string): void {
  if (!UUID.test(bayId)) throw notFound('Bay');
}

function pgCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

/** The unique index on (site, lower(name)) refused the write: a field error, nothing changed. */
function rethrowNameTaken(error: unknown): never {
  if (pgCode(error) === '23505') throw badRequest(BAY_MESSAGES.nameTaken, [{ path: 'name', message: BAY_MESSAGES.nameTaken }]);
  throw error;
}

function toItem(row: repo.BayRow): BayItem {
  return {
    ...row,
    heightClearanceM: Number(row.heightClearanceM),
    lengthM: row.lengthM === null ? null : Number(row.lengthM),
    features: BAY_FEATURES.filter((f) => row.features.includes(f)),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function readBay(ctx: AppContext, scope: OrgScope, bayId: string): Promise<BayItem> {
  const row = await repo.findBay(ctx.database.db, scope.orgId, bayId, ctx.clock.now());
  if (!row) throw notFound('Bay');
  return toItem(row);
}

function publishBay(ctx: AppContext, scope: OrgScope, action: string, bayId: string, siteId: string): void {
  ctx.realtime?.publish({ entity: 'bay', action, id: bayId, orgId: scope.orgId, siteId, at: ctx.clock.now().toISOString() });
}

export async function listBays(ctx: AppContext, scope: OrgScope, query: z.output<typeof bayListQuerySchema>): Promise<BayList> {
  const { rows, total } = await repo.listBays(ctx.database.db, scope.orgId, ctx.clock.now(), query);
  return { items: rows.map(toItem), total, page: query.page, pageSize: query.pageSize };
}

export async function getBay(ctx: AppContext, scope: OrgScope, bayId: string): Promise<BayItem> {
  requireBayId(bayId);
  return readBay(ctx, scope, bayId);
}

async function requireSite(tx: Tx, scope: OrgScope, siteId: string) {
  const site = await repo.findSite(tx, scope.orgId, siteId);
  if (!site) throw badRequest(BAY_MESSAGES.siteUnknown, [{ path: 'siteId', message: BAY_MESSAGES.siteUnknown }]);
  return site;
}

export async function createBay(ctx: AppContext, scope: OrgScope, input: z.output<typeof bayCreateSchema>, ip: string | null): Promise<BayWriteResult> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const values = input;
  const bayId = await ctx.database.db
    .transaction(async (tx) => {
      const site = await requireSite(tx, scope, values.siteId);
      await assertWithinPlanLimit(tx, scope.orgId, 'bays', { now, adding: oneBayAtSite(site.id) });
      const id = await repo.insertBay(tx, scope.orgId, values, now);
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'bay.created',
        resourceType: 'bay',
        resourceId: id,
        orgId: scope.orgId,
        siteId: site.id,
        details: { name: values.name, site: site.name, height_clearance_m: values.heightClearanceM, length_m: values.lengthM, features: values.features, capacity: values.capacity },
        ip,
      });
      return id;
    })
    .catch(rethrowNameTaken);
  publishBay(ctx, scope, 'created', bayId, values.siteId);
  return { bay: await readBay(ctx, scope, bayId), outcomes: [] };
}

/** The SQL condition over k (booking) and b (its bay) for bookings the bay no longer fits after the change. */
function noLongerFits(bayId: string, next: { heightClearanceM: number; lengthM: number | null; features: readonly BayFeature[] }) {
  const features = `{${next.features.join(',')}}`;
  return sql`k.bay_id = ${bayId} and (
    k.vehicle_height_m > ${next.heightClearanceM}::numeric
    or (${next.lengthM}::numeric is not null and k.vehicle_length_m is not null and k.vehicle_length_m > ${next.lengthM}::numeric)
    or not (${features}::text[] @> coalesce(k.special_access_needs, '{}'::text[])))`;
}

type Resolved = { outcomes: AffectedOutcome[]; publish: ResolvedChange };
const NOTHING_RESOLVED: Resolved = { outcomes: [], publish: { views: [], actions: [] } };

/**
 * The affected bookings of a change: none → nothing to ask; some and no resolution → 409 (the
 * transaction rolls back, nothing changed); some and a resolution → applied after `change`.
 */
async function changeWithAffected(
  ctx: AppContext,
  tx: Tx,
  scope: OrgScope,
  affected: AffectedBooking[],
  resolution: AffectedResolution | undefined,
  what: string,
  change: () => Promise<void>,
  ip: string | null,
): Promise<Resolved> {
  if (affected.length > 0 && !resolution) throw affectedBookingsConflict(affected, what);
  await change();
  if (affected.length === 0 || !resolution) return NOTHING_RESOLVED;
  return resolveAffectedInTx(ctx, tx, scope, affected, resolution, ip, what);
}

function sameFeatures(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f) => b.includes(f));
}

export async function updateBay(
  ctx: AppContext,
  scope: OrgScope,
  bayId: string,
  input: z.output<typeof bayUpdateSchema>,
  ip: string | null,
): Promise<BayWriteResult> {
  requireOrgAdmin(scope);
  requireBayId(bayId);
  const now = ctx.clock.now();
  const { resolution, ...fields } = input;
  const result = await ctx.database.db
    .transaction(async (tx) => {
      const bay = await repo.lockBay(tx, scope.orgId, bayId);
      if (!bay) throw notFound('Bay');
      const current = { ...bay, heightClearanceM: Number(bay.heightClearanceM), lengthM: bay.lengthM === null ? null : Number(bay.lengthM) };
      // Only what differs is a change (and goes into the audit entry).
      const changes: Partial<repo.BayValues> = {};
      if (fields.siteId !== undefined && fields.siteId !== current.siteId) changes.siteId = fields.siteId;
      if (fields.name !== undefined && fields.name !== current.name) changes.name = fields.name;
      if (fields.heightClearanceM !== undefined && fields.heightClearanceM !== current.heightClearanceM) changes.heightClearanceM = fields.heightClearanceM;
      if (fields.lengthM !== undefined && fields.lengthM !== current.lengthM) changes.lengthM = fields.lengthM;
      if (fields.features !== undefined && !sameFeatures(fields.features, current.features)) changes.features = fields.features;
      if (fields.capacity !== undefined && fields.capacity !== current.capacity) changes.capacity = fields.capacity;
      if (Object.keys(changes).length === 0) return { siteId: current.siteId, changed: false, ...NOTHING_RESOLVED };

      if (changes.siteId) {
        await requireSite(tx, scope, changes.siteId);
        // Its bookings belong to its site (schedule, gate, reports): a bay that has any stays there.
        if (await repo.bayHasBookings(tx, bayId)) throw badRequest(BAY_MESSAGES.siteLocked, [{ path: 'siteId', message: BAY_MESSAGES.siteLocked }]);
      }
      const next = {
        heightClearanceM: changes.heightClearanceM ?? current.heightClearanceM,
        lengthM: changes.lengthM !== undefined ? changes.lengthM : current.lengthM,
        features: (changes.features ?? current.features) as BayFeature[],
      };
      const narrows = changes.heightClearanceM !== undefined || changes.lengthM !== undefined || changes.features !== undefined;
      const affected = narrows ? await findAffectedBookings(tx, scope.orgId, now, noLongerFits(bayId, next), { forUpdate: true }) : [];
      const name = changes.name ?? current.name;
      const resolved = await changeWithAffected(
        ctx,
        tx,
        scope,
        affected,
        resolution,
        `changing bay ${name}`,
        async () => {
          await repo.updateBay(tx, scope.orgId, bayId, changes, now);
          await writeAudit(tx, {
            actor: scope.auditActor,
            action: 'bay.updated',
            resourceType: 'bay',
            resourceId: bayId,
            orgId: scope.orgId,
            siteId: changes.siteId ?? current.siteId,
            details: {
              name,
              changes: Object.fromEntries(
                Object.entries(changes).map(([key, value]) => [key, { from: current[key as keyof typeof changes], to: value }]),
              ),
              affected_bookings: affected.length,
              resolution: affected.length > 0 ? (resolution?.action ?? null) : null,
            },
            ip,
          });
        },
        ip,
      );
      return { siteId: changes.siteId ?? current.siteId, changed: true, ...resolved };
    })
    .catch(rethrowNameTaken);
  if (result.changed) publishBay(ctx, scope, 'updated', bayId, result.siteId);
  publishResolved(ctx, result.publish);
  return { bay: await readBay(ctx, scope, bayId), outcomes: result.outcomes };
}

/**
 * Closes the bay to new bookings. Its upcoming live bookings are the admin's choice first (409
 * affected_bookings without a resolution); deactivating an inactive bay changes nothing.
 */
export async function deactivateBay(
  ctx: AppContext,
  scope: OrgScope,
  bayId: string,
  input: z.output<typeof bayActionSchema>,
  ip: string | null,
): Promise<BayWriteResult> {
  requireOrgAdmin(scope);
  requireBayId(bayId);
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const bay = await repo.lockBay(tx, scope.orgId, bayId);
    if (!bay) throw notFound('Bay');
    if (!bay.active) return { siteId: bay.siteId, changed: false, ...NOTHING_RESOLVED };
    const affected = await findAffectedBookings(tx, scope.orgId, now, sql`k.bay_id = ${bayId}`, { forUpdate: true });
    const resolved = await changeWithAffected(
      ctx,
      tx,
      scope,
      affected,
      input.resolution,
      `closing bay ${bay.name}`,
      async () => {
        await repo.updateBay(tx, scope.orgId, bayId, { active: false }, now);
        await writeAudit(tx, {
          actor: scope.auditActor,
          action: 'bay.deactivated',
          resourceType: 'bay',
          resourceId: bayId,
          orgId: scope.orgId,
          siteId: bay.siteId,
          details: {
            name: bay.name,
            affected_bookings: affected.length,
            resolution: affected.length > 0 ? (input.resolution?.action ?? null) : null,
          },
          ip,
        });
      },
      ip,
    );
    return { siteId: bay.siteId, changed: true, ...resolved };
  });
  if (result.changed) publishBay(ctx, scope, 'deactivated', bayId, result.siteId);
  publishResolved(ctx, result.publish);
  return { bay: await readBay(ctx, scope, bayId), outcomes: result.outcomes };
}

/** Opens the bay to bookings again (the portal offers it at once). */
export async function reactivateBay(ctx: AppContext, scope: OrgScope, bayId: string, ip: string | null): Promise<BayWriteResult> {
  requireOrgAdmin(scope);
  requireBayId(bayId);
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const bay = await repo.lockBay(tx, scope.orgId, bayId);
    if (!bay) throw notFound('Bay');
    if (bay.active) return { siteId: bay.siteId, changed: false };
    await assertWithinPlanLimit(tx, scope.orgId, 'bays', { now, adding: oneBayAtSite(bay.siteId) });
    await repo.updateBay(tx, scope.orgId, bayId, { active: true }, now);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'bay.reactivated',
      resourceType: 'bay',
      resourceId: bayId,
      orgId: scope.orgId,
      siteId: bay.siteId,
      details: { name: bay.name },
      ip,
    });
    return { siteId: bay.siteId, changed: true };
  });
  if (result.changed) publishBay(ctx, scope, 'reactivated', bayId, result.siteId);
  return { bay: await readBay(ctx, scope, bayId), outcomes: [] };
}

const bayHasBookings = () => conflict(BAY_HAS_BOOKINGS_CODE, BAY_HAS_BOOKINGS_MESSAGE);

/** Deletes a bay that never had a booking; one that had any is kept for its history (409: deactivate it). */
export async function deleteBay(ctx: AppContext, scope: OrgScope, bayId: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  requireBayId(bayId);
  const siteId = await ctx.database.db
    .transaction(async (tx) => {
      const bay = await repo.lockBay(tx, scope.orgId, bayId);
      if (!bay) throw notFound('Bay');
      if (await repo.bayHasBookings(tx, bayId)) throw bayHasBookings();
      await repo.deleteBay(tx, scope.orgId, bayId);
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'bay.deleted',
        resourceType: 'bay',
        resourceId: bayId,
        orgId: scope.orgId,
        siteId: bay.siteId,
        details: { name: bay.name, height_clearance_m: Number(bay.heightClearanceM), features: bay.features },
        ip,
      });
      return bay.siteId;
    })
    .catch((error: unknown) => {
      // A booking that arrived between the check and the delete: the foreign key refuses it.
      if (!(error instanceof AppError) && pgCode(error) === '23503') throw bayHasBookings();
      throw error;
    });
  publishBay(ctx, scope, 'deleted', bayId, siteId);
}
