import type { z } from 'zod';
import type { AffectedOutcome, AffectedResolution } from '../../../domain/affected-bookings';
import { localDateOf, localTimeOf, parseTimeOfDay, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { badRequest, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { affectedBookingsConflict, findAffectedBookings, resolveAffectedInTx, type ResolvedChange } from '../bookings/affected-bookings';
import * as repo from './org-blackouts.repo';
import { newlyAffectedCondition, type Interval, type Target } from './series-expansion';

// What writing a one-off blackout and a series have in common: the site and bay checks, the
// site-local times, and the live bookings a change newly covers — none → go on; some and no
// resolution → 409 with the list (nothing written); some and a resolution → resolved in the same
// transaction (the admin's choice).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid names nothing (404, not a database error). */
export function requireUuid(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

export type Site = { id: string; name: string; timeZone: string };
type Bay = { id: string; name: string; siteId: string };
const NO_CHANGE: ResolvedChange = { views: [], actions: [] };

export async function requireSite(tx: Tx, scope: OrgScope, siteId: string): Promise<Site> {
  const site = await repo.findSite(tx, scope.orgId, siteId);
  if (!site) throw notFound('Site');
  return site;
}

/** A bay of the organization (else 404) at this site (else a 400 on the field). */
export async function requireBay(tx: Tx, scope: OrgScope, site: Site, bayId: string): Promise<Bay> {
  const bay = await repo.findBay(tx, scope.orgId, bayId);
  if (!bay) throw notFound('Bay');
  if (bay.siteId !== site.id) {
    const message = `Bay ${bay.name} is not at ${site.name}: choose one of its bays, or the whole site`;
    throw badRequest(message, [{ path: 'bayId', message }]);
  }
  return bay;
}

/** A merged (patched) value checked with the form's own schema: its messages, on its fields. */
export function validateWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw badRequest(details.map((d) => d.message).join(', '), details);
}

export const fieldError = (path: string, message: string) => badRequest(message, [{ path, message }]);

export function publish(ctx: AppContext, orgId: string, id: string, siteId: string, action: string): void {
  ctx.realtime?.publish({ entity: 'blackout', action, id, orgId, siteId, at: ctx.clock.now().toISOString() });
}

/** The site-local wall-clock span → instants, the end after the start. */
export function toInstants(span: { startDate: string; startTime: string; endDate: string; endTime: string }, timeZone: string): Interval {
  const start = zonedTimeToUtc(span.startDate, parseTimeOfDay(span.startTime)!, timeZone);
  const end = zonedTimeToUtc(span.endDate, parseTimeOfDay(span.endTime)!, timeZone);
  // Compared as text already; a span inside a clock change can still come out empty.
  if (end.getTime() <= start.getTime()) throw fieldError('endTime', 'The end must be after the start');
  return { start, end };
}

export function where(bay: { name: string } | null, site: Site): string {
  return bay ? `bay ${bay.name}` : `the whole of ${site.name}`;
}

export function localSpan(interval: Interval, timeZone: string): string {
  return `${localDateOf(interval.start, timeZone)} ${localTimeOf(interval.start, timeZone)}–${localDateOf(interval.end, timeZone)} ${localTimeOf(interval.end, timeZone)}`;
}

/**
 * The live bookings the change newly affects: none → go on; some and no resolution → 409 with the
 * list (nothing written); some and a resolution → locked, to be resolved after the write.
 */
export async function affectedFor(tx: Tx, scope: OrgScope, now: Date, next: Target, previous: Target | null, resolution: AffectedResolution | undefined, what: string) {
  const affected = await findAffectedBookings(tx, scope.orgId, now, newlyAffectedCondition(next, previous), { forUpdate: !!resolution });
  if (affected.length > 0 && !resolution) throw affectedBookingsConflict(affected, what);
  return affected;
}

export async function resolve(
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
