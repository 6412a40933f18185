import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { AFFECTED_BOOKINGS_CODE, type AffectedBooking, type AffectedOutcome, type AffectedResolution } from '../../../domain/affected-bookings';
import type { OperatingHours } from '../../../domain/constants';
import {
  fitsOpeningHours,
  holidayDates,
  HOLIDAY_MAX_YEARS_AHEAD,
  HOLIDAY_TOO_FAR_MESSAGE,
  holidayInstants,
  SITE_NAME_TAKEN_MESSAGE,
  type createSiteSchema,
  type deactivateSiteSchema,
  type DeactivateSiteResult,
  type CreateHolidayResult,
  type Holiday,
  type holidayInputSchema,
  type OrgSite,
  type updateSiteSchema,
  type UpdateSiteResult,
} from '../../../domain/org-sites';
import type { RealtimeEntity } from '../../../domain/realtime';
import { addDays, formatDay } from '../../../domain/day-notice';
import { todayIn } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { activeBaysOfSite, assertWithinPlanLimit } from '../billing/plan-limits';
import { findAffectedBookings, publishResolved, resolveAffectedInTx, type ResolvedChange } from '../bookings/affected-bookings';
import * as repo from './org-sites.repo';

// The organization's sites: created, edited, deactivated and reactivated by its admins, read by
// its dockmasters. A change of hours or time zone never moves a booking: it is saved, and the
// bookings it leaves outside opening hours come back with the answer for the admin to act on.
// Holiday closures are site-wide blackouts (kind 'holiday') over whole local days.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Enough for any real site; the 409 lists at most this many. */
const AFFECTED_LIMIT = 10_000;

type CreateSiteBody = z.output<typeof createSiteSchema>;
type UpdateSiteBody = z.output<typeof updateSiteSchema>;
type DeactivateBody = z.output<typeof deactivateSiteSchema>;
type HolidayBody = z.output<typeof holidayInputSchema>;

function requireSiteId(siteId: string): void {
  if (!UUID.test(siteId)) throw notFound('Site');
}

function toOrgSite(row: repo.SiteWithCounts): OrgSite {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    address: row.address,
    timeZone: row.timeZone,
    operatingHours: row.operatingHours,
    slotIntervalMin: row.slotIntervalMin,
    minAdvanceMin: row.minAdvanceMin,
    bookingHorizonDays: row.bookingHorizonDays,
    contactPhone: row.contactPhone,
    contactEmail: row.contactEmail,
    emergencyContacts: row.emergencyContacts ?? [],
    active: row.active,
    activeBays: row.activeBays,
    upcomingBookings: row.upcomingBookings,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toHoliday(row: repo.HolidayRow, timeZone: string): Holiday {
  return {
    id: row.id,
    siteId: row.siteId,
    name: row.reason ?? 'Holiday',
    ...holidayDates(row.startTime, row.endTime, timeZone),
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

const nameTaken = () => badRequest(SITE_NAME_TAKEN_MESSAGE, [{ path: 'name', message: SITE_NAME_TAKEN_MESSAGE }]);

/** A unique violation of the name index (two admins saving the same name at once) is the same field error. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

async function withNameCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) && isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

function publish(ctx: AppContext, entity: RealtimeEntity, action: string, id: string, orgId: string, siteId: string): void {
  ctx.realtime?.publish({ entity, action, id, orgId, siteId, at: ctx.clock.now().toISOString() });
}

/** 409 affected_bookings for a site-wide change: keep or cancel (no bay of another site can take them). */
function siteAffectedConflict(affected: AffectedBooking[], what: string): AppError {
  const n = affected.length;
  return conflict(
    AFFECTED_BOOKINGS_CODE,
    `${n} upcoming booking${n === 1 ? '' : 's'} ${n === 1 ? 'is' : 'are'} affected by ${what}. Choose whether to keep or cancel ${n === 1 ? 'it' : 'them'}.`,
    { affected },
  );
}

const toOutcomes = (outcomes: AffectedOutcome[]) => outcomes.map((o) => ({ id: o.id, tsrNumber: o.tsrNumber, outcome: o.outcome, message: o.message }));

async function siteOrThrow(ctx: AppContext, scope: OrgScope, siteId: string): Promise<OrgSite> {
  const row = await repo.findSiteWithCounts(ctx.database.db, scope.orgId, siteId, ctx.clock.now());
  if (!row) throw notFound('Site');
  return toOrgSite(row);
}

// ── Sites ─────────────────────────────────────────────────────────────────────────────────────

export async function listSites(ctx: AppContext, scope: OrgScope) {
  const rows = await repo.listSites(ctx.database.db, scope.orgId, ctx.clock.now());
  return { items: rows.map(toOrgSite) };
}

export async function getSite(ctx: AppContext, scope: OrgScope, siteId: string): Promise<OrgSite> {
  requireSiteId(siteId);
  return siteOrThrow(ctx, scope, siteId);
}

export async function createSite(ctx: AppContext, scope: OrgScope, input: CreateSiteBody, ip: string | null): Promise<OrgSite> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const id = await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      if (await repo.findSiteNamed(tx, scope.orgId, input.name)) throw nameTaken();
      await assertWithinPlanLimit(tx, scope.orgId, 'sites', { now });
      const { id } = await repo.insertSite(tx, {
        orgId: scope.orgId,
        name: input.name,
        address: input.address ?? null,
        timeZone: input.timeZone,
        operatingHours: input.operatingHours,
        slotIntervalMin: input.slotIntervalMin,
        minAdvanceMin: input.minAdvanceMin,
        bookingHorizonDays: input.bookingHorizonDays,
        contactPhone: input.contactPhone ?? null,
        contactEmail: input.contactEmail ?? null,
        active: true,
        createdAt: now,
        updatedAt: now,
      });
      await writeAudit(tx, {
        actor: scope.auditActor,
        action: 'site.created',
        resourceType: 'site',
        resourceId: id,
        orgId: scope.orgId,
        siteId: id,
        details: { name: input.name, time_zone: input.timeZone },
        ip,
      });
      return id;
    }),
  );
  publish(ctx, 'site', 'created', id, scope.orgId, id);
  return siteOrThrow(ctx, scope, id);
}

type Rules = { timeZone: string; operatingHours: OperatingHours; holidays: { start: Date; end: Date }[] };

/** Inside one opening window of its day, and not in a holiday closure. */
function fitsRules(booking: { startTime: Date; endTime: Date }, rules: Rules): boolean {
  const inHoliday = rules.holidays.some((h) => booking.startTime < h.end && booking.endTime > h.start);
  return !inHoliday && fitsOpeningHours(booking.startTime, booking.endTime, rules.timeZone, rules.operatingHours);
}

const sameHours = (a: OperatingHours, b: OperatingHours) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Saves the changed fields. New hours or a new time zone are saved whatever bookings they leave
 * outside: those that fitted before and no longer do are returned in `outsideHours` (never moved).
 * A new time zone keeps holiday closures on their local dates (moved to the new zone's midnights).
 */
export async function updateSite(ctx: AppContext, scope: OrgScope, siteId: string, input: UpdateSiteBody, ip: string | null): Promise<UpdateSiteResult> {
  requireOrgAdmin(scope);
  requireSiteId(siteId);
  const now = ctx.clock.now();
  const { outsideHours, holidaysMoved, isChanged } = await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      const current = await repo.lockSite(tx, scope.orgId, siteId);
      if (!current) throw notFound('Site');
      if (input.name !== undefined && (await repo.findSiteNamed(tx, scope.orgId, input.name, siteId))) throw nameTaken();

      const changes: Partial<repo.SiteRow> = {};
      const fields = ['name', 'address', 'timeZone', 'operatingHours', 'slotIntervalMin', 'minAdvanceMin', 'bookingHorizonDays', 'contactPhone', 'contactEmail'] as const;
      for (const field of fields) {
        const value = input[field];
        if (value === undefined) continue;
        const differs = field === 'operatingHours' ? !sameHours(value as OperatingHours, current.operatingHours) : value !== current[field];
        if (differs) (changes as Record<string, unknown>)[field] = value;
      }
      if (Object.keys(changes).length === 0) return { outsideHours: [] as AffectedBooking[], holidaysMoved: 0, isChanged: false };

      const next = { ...current, ...changes };
      const rulesChanged = changes.timeZone !== undefined || changes.operatingHours !== undefined;
      await repo.updateSite(tx, scope.orgId, siteId, { ...changes, updatedAt: now });

      let outside: AffectedBooking[] = [];
      let moved = 0;
      if (rulesChanged) {
        const holidays = await repo.listHolidays(tx, scope.orgId, siteId, now);
        const before: Rules = { timeZone: current.timeZone, operatingHours: current.operatingHours, holidays: holidays.map((h) => ({ start: h.startTime, end: h.endTime })) };
        let after: Rules = { ...before, timeZone: next.timeZone, operatingHours: next.operatingHours };
        if (changes.timeZone !== undefined) {
          // Holidays are local dates: the same dates at the new zone's midnights.
          const reanchored = holidays.map((h) => {
            const dates = holidayDates(h.startTime, h.endTime, current.timeZone);
            return { id: h.id, ...holidayInstants(dates.fromDate, dates.toDate, next.timeZone) };
          });
          for (const h of reanchored) await repo.moveHoliday(tx, scope.orgId, h.id, h.start, h.end, now);
          moved = reanchored.length;
          after = { ...after, holidays: reanchored };
        }
        const upcoming = await repo.listUpcomingBookingTimes(tx, scope.orgId, siteId, now);
        const ids = upcoming.filter((b) => fitsRules(b, before) && !fitsRules(b, after)).map((b) => b.id);
        if (ids.length > 0) {
          outside = await findAffectedBookings(tx, scope.orgId, now, sql`k.id = any(${`{${ids.join(',')}}`}::uuid[])`, { limit: AFFECTED_LIMIT });
        }
      }

      const details: Record<string, unknown> = { name: next.name, changed: Object.keys(changes) };
      if (changes.timeZone !== undefined) details.time_zone = { from: current.timeZone, to: next.timeZone };
      if (changes.operatingHours !== undefined) details.operating_hours = { from: current.operatingHours, to: next.operatingHours };
      if (rulesChanged) details.outside_hours = outside.map((b) => b.tsrNumber);
      await writeAudit(tx, { actor: scope.auditActor, action: 'site.updated', resourceType: 'site', resourceId: siteId, orgId: scope.orgId, siteId, details, ip });
      return { outsideHours: outside, holidaysMoved: moved, isChanged: true };
    }),
  );
  if (isChanged) publish(ctx, 'site', 'updated', siteId, scope.orgId, siteId);
  if (holidaysMoved > 0) publish(ctx, 'blackout', 'updated', siteId, scope.orgId, siteId);
  return { site: await siteOrThrow(ctx, scope, siteId), outsideHours };
}

/**
 * Closes a site to new bookings (the portal, availability and the booking statement read active
 * sites only). Its upcoming live bookings are listed first (409 affected_bookings) and then kept
 * or cancelled as the admin chose, in the same transaction.
 */
export async function deactivateSite(ctx: AppContext, scope: OrgScope, siteId: string, input: DeactivateBody, ip: string | null): Promise<DeactivateSiteResult> {
  requireOrgAdmin(scope);
  requireSiteId(siteId);
  const now = ctx.clock.now();
  const result = await ctx.database.db.transaction(async (tx) => {
    const site = await repo.lockSite(tx, scope.orgId, siteId);
    if (!site) throw notFound('Site');
    if (!site.active) return null;
    const affected = await findAffectedBookings(tx, scope.orgId, now, sql`k.site_id = ${siteId}`, { forUpdate: true, limit: AFFECTED_LIMIT });
    if (affected.length > 0 && !input.resolution) throw siteAffectedConflict(affected, `deactivating ${site.name}`);
    await repo.updateSite(tx, scope.orgId, siteId, { active: false, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'site.deactivated',
      resourceType: 'site',
      resourceId: siteId,
      orgId: scope.orgId,
      siteId,
      details: { name: site.name, upcoming_bookings: affected.length, resolution: input.resolution?.action ?? null },
      ip,
    });
    return resolveIfAny(ctx, tx, scope, affected, input.resolution, ip, `Site ${site.name} closed`);
  });
  if (result) {
    publishResolved(ctx, result.publish);
    publish(ctx, 'site', 'deactivated', siteId, scope.orgId, siteId);
  }
  return { site: await siteOrThrow(ctx, scope, siteId), outcomes: toOutcomes(result?.outcomes ?? []) };
}

async function resolveIfAny(
  ctx: AppContext,
  tx: Tx,
  scope: OrgScope,
  affected: AffectedBooking[],
  resolution: AffectedResolution | undefined,
  ip: string | null,
  cause: string,
): Promise<{ outcomes: AffectedOutcome[]; publish: ResolvedChange }> {
  if (affected.length === 0 || !resolution) return { outcomes: [], publish: { views: [], actions: [] } };
  return resolveAffectedInTx(ctx, tx, scope, affected, resolution, ip, cause);
}

/** Opens a deactivated site to bookings again. */
export async function reactivateSite(ctx: AppContext, scope: OrgScope, siteId: string, ip: string | null): Promise<OrgSite> {
  requireOrgAdmin(scope);
  requireSiteId(siteId);
  const now = ctx.clock.now();
  const changed = await ctx.database.db.transaction(async (tx) => {
    const site = await repo.lockSite(tx, scope.orgId, siteId);
    if (!site) throw notFound('Site');
    if (site.active) return false;
    // Its active bays count again with it (plan limits, decision 022).
    await assertWithinPlanLimit(tx, scope.orgId, 'sites', { now });
    await assertWithinPlanLimit(tx, scope.orgId, 'bays', { now, adding: activeBaysOfSite(siteId) });
    await repo.updateSite(tx, scope.orgId, siteId, { active: true, updatedAt: now });
    await writeAudit(tx, { actor: scope.auditActor, action: 'site.reactivated', resourceType: 'site', resourceId: siteId, orgId: scope.orgId, siteId, details: { name: site.name }, ip });
    return true;
  });
  if (changed) publish(ctx, 'site', 'reactivated', siteId, scope.orgId, siteId);
  return siteOrThrow(ctx, scope, siteId);
}

// ── Holiday closures ──────────────────────────────────────────────────────────────────────────

function requireHolidayId(id: string): void {
  if (!UUID.test(id)) throw notFound('Holiday closure');
}

/** The site's holiday closures that have not ended, in date order. */
export async function listHolidays(ctx: AppContext, scope: OrgScope, siteId: string) {
  requireSiteId(siteId);
  const db = ctx.database.db;
  const site = await repo.findSiteWithCounts(db, scope.orgId, siteId, ctx.clock.now());
  if (!site) throw notFound('Site');
  const rows = await repo.listHolidays(db, scope.orgId, siteId, ctx.clock.now());
  return { items: rows.map((r) => toHoliday(r, site.timeZone)) };
}

const fieldError = (path: string, message: string) => badRequest(message, [{ path, message }]);

/**
 * Closes the whole site from the first day's local midnight to the midnight after the last day.
 * Live bookings in those days are listed first (409 affected_bookings), then kept or cancelled in
 * the same transaction as the closure.
 */
export async function createHoliday(ctx: AppContext, scope: OrgScope, siteId: string, input: HolidayBody, ip: string | null): Promise<CreateHolidayResult> {
  requireOrgAdmin(scope);
  requireSiteId(siteId);
  const now = ctx.clock.now();
  const { holiday, resolved } = await ctx.database.db.transaction(async (tx) => {
    const site = await repo.lockSite(tx, scope.orgId, siteId);
    if (!site) throw notFound('Site');
    const today = todayIn(site.timeZone, now);
    if (input.toDate < today) throw fieldError('toDate', 'This closure is over already: choose today or a later day');
    if (input.fromDate > addDays(today, HOLIDAY_MAX_YEARS_AHEAD * 366)) throw fieldError('fromDate', HOLIDAY_TOO_FAR_MESSAGE);
    const { start, end } = holidayInstants(input.fromDate, input.toDate, site.timeZone);
    const overlapping = await repo.findOverlappingHoliday(tx, scope.orgId, siteId, start, end);
    if (overlapping) {
      const dates = holidayDates(overlapping.startTime, overlapping.endTime, site.timeZone);
      const span = dates.fromDate === dates.toDate ? formatDay(dates.fromDate, true) : `${formatDay(dates.fromDate, true)} – ${formatDay(dates.toDate, true)}`;
      throw fieldError('fromDate', `Overlaps the closure “${overlapping.reason ?? 'Holiday'}” (${span})`);
    }
    const affected = await findAffectedBookings(
      tx,
      scope.orgId,
      now,
      sql`k.site_id = ${siteId} and k.start_time < ${end.toISOString()}::timestamptz and k.end_time > ${start.toISOString()}::timestamptz`,
      { forUpdate: true, limit: AFFECTED_LIMIT },
    );
    if (affected.length > 0 && !input.resolution) throw siteAffectedConflict(affected, `closing ${site.name} for ${input.name}`);
    const row = await repo.insertHoliday(tx, { orgId: scope.orgId, siteId, name: input.name, start, end, createdBy: scope.userId, now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'site.holiday_created',
      resourceType: 'blackout',
      resourceId: row.id,
      orgId: scope.orgId,
      siteId,
      details: { name: input.name, from_date: input.fromDate, to_date: input.toDate, affected_bookings: affected.length, resolution: input.resolution?.action ?? null },
      ip,
    });
    const resolved = await resolveIfAny(ctx, tx, scope, affected, input.resolution, ip, `${site.name} closed: ${input.name}`);
    return { holiday: toHoliday(row, site.timeZone), resolved };
  });
  publishResolved(ctx, resolved.publish);
  publish(ctx, 'blackout', 'created', holiday.id, scope.orgId, siteId);
  publish(ctx, 'site', 'updated', siteId, scope.orgId, siteId);
  return { holiday, outcomes: toOutcomes(resolved.outcomes) };
}

export async function deleteHoliday(ctx: AppContext, scope: OrgScope, siteId: string, holidayId: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  requireSiteId(siteId);
  requireHolidayId(holidayId);
  await ctx.database.db.transaction(async (tx) => {
    const site = await repo.lockSite(tx, scope.orgId, siteId);
    if (!site) throw notFound('Site');
    const row = await repo.findHoliday(tx, scope.orgId, siteId, holidayId);
    if (!row) throw notFound('Holiday closure');
    await repo.deleteHoliday(tx, scope.orgId, siteId, holidayId);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'site.holiday_deleted',
      resourceType: 'blackout',
      resourceId: holidayId,
      orgId: scope.orgId,
      siteId,
      details: { name: row.reason, ...holidayDates(row.startTime, row.endTime, site.timeZone) },
      ip,
    });
  });
  publish(ctx, 'blackout', 'deleted', holidayId, scope.orgId, siteId);
  publish(ctx, 'site', 'updated', siteId, scope.orgId, siteId);
}
