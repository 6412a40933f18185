import {
  emptyBySource,
  emptyFigures,
  limitPercent,
  NEAREST_LIMITS_SHOWN,
  startOfUtcMonth,
  usageSourceOf,
  usageWindow,
  type LimitStanding,
  type PlanLimit,
  type UsageDay,
  type UsageFigures,
  type UsageOrganization,
  type UsagePeriodDays,
  type UsageReport,
  type UsageSortKey,
} from '../../../domain/usage';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import * as repo from './usage.repo';

// The usage screen's figures (issue 12): per organization and in total over the last 7, 30 or 90
// UTC days, per day for the charts, and the organizations nearest their plan limits. Platform
// administrators only (the routes check the role first). Definitions: domain/usage.ts.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UsageRequest = {
  days: UsagePeriodDays;
  orgId?: string;
  q?: string;
  sort: UsageSortKey;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

/** A named organization must exist: a malformed or unknown id is a 404 (nothing is computed). */
async function checkOrganization(ctx: AppContext, orgId: string | undefined): Promise<void> {
  if (orgId === undefined) return;
  if (!UUID.test(orgId) || !(await repo.organizationExists(ctx.database.db, orgId))) throw notFound('Organization');
}

type StandingRow = Awaited<ReturnType<typeof repo.planStandings>>[number];

/** Each limit's use and percentage; highestPercent is -1 when the plan sets no limit at all. */
function toStanding(row: StandingRow): LimitStanding {
  const limits: PlanLimit[] = (
    [
      ['sites', row.sites, row.max_sites],
      ['bays', row.bays, row.max_bays],
      ['users', row.users, row.max_users],
      ['bookings', row.bookings, row.max_bookings],
    ] as const
  ).map(([kind, used, limit]) => ({ kind, used: Number(used), limit, percent: limitPercent(Number(used), limit) }));
  const percents = limits.map((l) => l.percent).filter((p): p is number => p !== null);
  return { orgId: row.org_id, name: row.name, status: row.status, planName: row.plan_name, highestPercent: percents.length ? Math.max(...percents) : -1, limits };
}

type Computed = { totals: UsageFigures; daily: UsageDay[]; organizations: UsageOrganization[]; nearestLimits: LimitStanding[]; from: Date; to: Date };

/** Every figure of the window, for every organization (or the one named), unsorted and unpaged. */
async function compute(ctx: AppContext, days: UsagePeriodDays, orgId: string | undefined): Promise<Computed> {
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const window = usageWindow(now, days);
  const range: repo.UsageRange = { from: window.from, to: window.to, fromDay: window.dates[0]!, toDay: window.dates.at(-1)! };
  const [orgs, bookings, signIns, signInDays, signInTotal, active, activeTotal, docs, counters, standings] = await Promise.all([
    repo.listOrganizations(db, orgId),
    repo.bookingsCreated(db, range, orgId),
    repo.signInsPerOrganization(db, range, orgId),
    repo.signInsPerDay(db, range, orgId),
    repo.signInsTotal(db, range, orgId),
    repo.activeUsersPerOrganization(db, range, orgId),
    repo.activeUsersTotal(db, range, orgId),
    repo.documents(db, range, orgId),
    repo.counters(db, range, orgId),
    repo.planStandings(db, startOfUtcMonth(now), now, orgId),
  ]);

  const byOrg = new Map<string, UsageOrganization>(
    orgs.map((o) => [o.id, { orgId: o.id, name: o.name, slug: o.slug, status: o.status, planName: o.plan_name, ...emptyFigures() }]),
  );
  const daily = new Map<string, UsageDay>(
    window.dates.map((date) => [date, { date, bookingsCreated: 0, bookingsBySource: emptyBySource(), signIns: 0, apiCalls: 0, webhookCalls: 0 }]),
  );
  const totals = emptyFigures();

  for (const row of bookings) {
    const n = Number(row.n);
    const source = usageSourceOf(row.source);
    const org = byOrg.get(row.org_id);
    if (org) {
      org.bookingsCreated += n;
      org.bookingsBySource[source] += n;
    }
    totals.bookingsCreated += n;
    totals.bookingsBySource[source] += n;
    const day = daily.get(row.day);
    if (day) {
      day.bookingsCreated += n;
      day.bookingsBySource[source] += n;
    }
  }
  for (const row of signIns) {
    const org = byOrg.get(row.org_id);
    if (org) org.signIns = Number(row.n);
  }
  for (const row of signInDays) {
    const day = daily.get(row.day);
    if (day) day.signIns = Number(row.n);
  }
  totals.signIns = signInTotal;
  for (const row of active) {
    const org = byOrg.get(row.org_id);
    if (org) org.activeUsers = Number(row.n);
  }
  totals.activeUsers = activeTotal;
  for (const row of docs) {
    const org = byOrg.get(row.org_id);
    const figures = { stored: Number(row.stored), storedBytes: Number(row.stored_bytes), added: Number(row.added), addedBytes: Number(row.added_bytes) };
    if (org) {
      org.documentsStored = figures.stored;
      org.documentBytesStored = figures.storedBytes;
      org.documentsAdded = figures.added;
      org.documentBytesAdded = figures.addedBytes;
    }
    totals.documentsStored += figures.stored;
    totals.documentBytesStored += figures.storedBytes;
    totals.documentsAdded += figures.added;
    totals.documentBytesAdded += figures.addedBytes;
  }
  for (const row of counters) {
    const n = Number(row.n);
    const key = row.kind === 'api_call' ? 'apiCalls' : row.kind === 'webhook_call' ? 'webhookCalls' : null;
    if (!key) continue;
    const org = byOrg.get(row.org_id);
    if (org) org[key] += n;
    totals[key] += n;
    const day = daily.get(row.day);
    if (day) day[key] += n;
  }

  const nearestLimits = standings
    .map(toStanding)
    .filter((s) => s.highestPercent >= 0)
    .sort((a, b) => b.highestPercent - a.highestPercent || a.name.localeCompare(b.name) || a.orgId.localeCompare(b.orgId))
    .slice(0, NEAREST_LIMITS_SHOWN);

  return { totals, daily: [...daily.values()], organizations: [...byOrg.values()], nearestLimits, from: window.from, to: window.to };
}

function compareBy(sort: UsageSortKey, order: 'asc' | 'desc') {
  const direction = order === 'asc' ? 1 : -1;
  return (a: UsageOrganization, b: UsageOrganization) => {
    const primary = sort === 'name' ? a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) : a[sort] - b[sort];
    // Ties: by name, then id, whatever the direction (stable pages).
    return primary * direction || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.orgId.localeCompare(b.orgId);
  };
}

/** GET /api/platform/usage: totals, per day, one page of organizations, and the nearest plan limits. */
export async function usageReport(ctx: AppContext, query: UsageRequest): Promise<UsageReport> {
  await checkOrganization(ctx, query.orgId);
  const computed = await compute(ctx, query.days, query.orgId);
  const needle = query.q?.toLowerCase();
  const matching = needle
    ? computed.organizations.filter((o) => o.name.toLowerCase().includes(needle) || o.slug.toLowerCase().includes(needle))
    : computed.organizations;
  const sorted = [...matching].sort(compareBy(query.sort, query.order));
  const start = (query.page - 1) * query.pageSize;
  return {
    days: query.days,
    from: computed.from.toISOString(),
    to: computed.to.toISOString(),
    totals: computed.totals,
    daily: computed.daily,
    organizations: { total: sorted.length, items: sorted.slice(start, start + query.pageSize) },
    nearestLimits: computed.nearestLimits,
    generatedAt: ctx.clock.now().toISOString(),
  };
}

/** Every organization's row (by name) and the total row, for the CSV. */
export async function usageRows(ctx: AppContext, days: UsagePeriodDays, orgId?: string): Promise<{ rows: UsageOrganization[]; now: Date }> {
  await checkOrganization(ctx, orgId);
  const computed = await compute(ctx, days, orgId);
  const rows = [...computed.organizations].sort(compareBy('name', 'asc'));
  const total: UsageOrganization = { orgId: '', name: 'All organizations', slug: '', status: '', planName: null, ...computed.totals };
  return { rows: orgId ? rows : [...rows, total], now: ctx.clock.now() };
}

/** One organization's standing against its plan now (the organization page), or null without a plan. */
export async function planStanding(ctx: AppContext, orgId: string): Promise<LimitStanding | null> {
  const now = ctx.clock.now();
  const [row] = await repo.planStandings(ctx.database.db, startOfUtcMonth(now), now, orgId);
  return row ? toStanding(row) : null;
}
