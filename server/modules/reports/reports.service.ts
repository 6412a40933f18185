import type { z } from 'zod';
import type { OperatingHours } from '../../../domain/constants';
import { addDays } from '../../../domain/day-notice';
import { BOOKING_TYPE_LABELS, BOOKING_TYPES, VEHICLE_TYPE_LABELS, WEEKDAYS, type BookingType, type VehicleType } from '../../../domain/enums';
import { datesInRange } from '../../../domain/org-schedule';
import {
  DWELL_DIMENSIONS,
  LATE_MINUTE_BUCKETS,
  NO_SHOW_DIMENSIONS,
  PUNCTUALITY_DIMENSIONS,
  REPORT_MAX_RANGE_DAYS,
  REPORT_MESSAGES,
  reportRangeDays,
  resolveReportRange,
  VOLUME_SOURCES,
  type DwellFigures,
  type DwellReport,
  type DwellRow,
  type DwellStats,
  type NoShowFigures,
  type NoShowReport,
  type NoShowRow,
  type PunctualityFigures,
  type PunctualityReport,
  type PunctualityRow,
  type ReportDimension,
  type ReportOptions,
  type ReportRange,
  type ReportSite,
  type reportQuerySchema,
  type UtilisationFigures,
  type UtilisationReport,
  type VolumeFigures,
  type VolumeReport,
  type VolumeSource,
} from '../../../domain/reports';
import { isValidTimeZone, openMinutesOn, todayIn, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import * as repo from './reports.repo';

// The reports of an organization (or one of its sites) over site-local dates: who may see what,
// the calendar of each site, and the figures shaped for the charts and tables. The figures are
// aggregated in SQL (reports.repo.ts); here they are only labelled, sorted and turned into rates.

export type ReportQueryInput = z.output<typeof reportQuerySchema>;

/**
 * Who is asking: the organization scope, and the site the caller signed in at (the dock sign-in
 * binds a session to one site; null for an e-mail sign-in or a session of another organization).
 */
export type ReportAccess = { scope: OrgScope; sessionSiteId: string | null };

type SiteInfo = ReportSite & { operatingHours: OperatingHours };

/** The sites a request covers, its range, and the slice the queries read. */
type Resolved = {
  siteId: string | null;
  sites: SiteInfo[];
  range: ReportRange;
  slice: repo.ReportSlice;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const timeZoneOf = (zone: string) => (isValidTimeZone(zone) ? zone : 'UTC');

async function listSites(ctx: AppContext, orgId: string): Promise<SiteInfo[]> {
  const rows = await repo.listSites(ctx.database.query, orgId);
  return rows.map((s) => ({ id: s.id, name: s.name, timeZone: timeZoneOf(s.time_zone), operatingHours: s.operating_hours as OperatingHours }));
}

/**
 * What the caller may report on (docs/decisions/013-reports.md): organization admins (and platform
 * admins) every site together or any one; a dockmaster one site at a time — the site they signed
 * in at when the session has one, otherwise any site of the organization.
 */
function accessOf(access: ReportAccess, sites: SiteInfo[]) {
  const isAdmin = access.scope.actor === 'org_admin';
  const lockedSiteId = !isAdmin && access.sessionSiteId && sites.some((s) => s.id === access.sessionSiteId) ? access.sessionSiteId : null;
  return { isAdmin, lockedSiteId };
}

/** GET /reports: the sites the caller may choose, whether "All sites" is one of them, and the default range. */
export async function getReportOptions(ctx: AppContext, access: ReportAccess): Promise<ReportOptions> {
  const now = ctx.clock.now();
  const all = await listSites(ctx, access.scope.orgId);
  const { isAdmin, lockedSiteId } = accessOf(access, all);
  const sites = lockedSiteId ? all.filter((s) => s.id === lockedSiteId) : all;
  const defaultSiteId = isAdmin ? null : (lockedSiteId ?? sites[0]?.id ?? null);
  const zone = (defaultSiteId ? sites.find((s) => s.id === defaultSiteId) : sites[0])?.timeZone ?? 'UTC';
  const today = todayIn(zone, now);
  return {
    sites: sites.map((s) => ({ id: s.id, name: s.name, timeZone: s.timeZone, today: todayIn(s.timeZone, now) })),
    allSitesAllowed: isAdmin,
    lockedSiteId,
    defaultSiteId,
    today,
    defaultRange: resolveReportRange('last_30_days', today)!,
    maxRangeDays: REPORT_MAX_RANGE_DAYS,
  };
}

/** Checks the caller may see the site(s) asked for and fills in the range; nothing is counted before this passes. */
async function resolve(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<Resolved> {
  const all = await listSites(ctx, access.scope.orgId);
  const { isAdmin, lockedSiteId } = accessOf(access, all);
  let sites: SiteInfo[];
  const asked = query.siteId;
  if (asked !== undefined) {
    const site = UUID.test(asked) ? all.find((s) => s.id === asked.toLowerCase()) : undefined;
    if (!site) throw notFound('Site');
    if (lockedSiteId && site.id !== lockedSiteId) throw forbidden(REPORT_MESSAGES.ownSiteOnly);
    sites = [site];
  } else if (isAdmin) {
    sites = all;
  } else if (lockedSiteId) {
    sites = all.filter((s) => s.id === lockedSiteId);
  } else {
    throw forbidden(REPORT_MESSAGES.allSitesForAdmins);
  }
  // Without dates: the last 30 days up to today where the figures are dated (the first site's zone).
  const range = query.from && query.to ? { from: query.from, to: query.to } : resolveReportRange('last_30_days', todayIn(sites[0]?.timeZone ?? 'UTC', ctx.clock.now()))!;
  // Each site's local midnights from the first day to the one after the last (slot-grid rules).
  const boundaries = [...datesInRange(range.from, range.to), addDays(range.to, 1)];
  const withDays = sites.map((s) => ({ id: s.id, timeZone: s.timeZone, dayStarts: boundaries.map((date) => zonedTimeToUtc(date, 0, s.timeZone)) }));
  // (An organization without sites has nothing to count: its bounds are only placeholders.)
  const firsts = withDays.length ? withDays.map((s) => s.dayStarts[0]!.getTime()) : [zonedTimeToUtc(range.from, 0, 'UTC').getTime()];
  const lasts = withDays.length ? withDays.map((s) => s.dayStarts.at(-1)!.getTime()) : firsts;
  return {
    siteId: sites.length === 1 && query.siteId !== undefined ? sites[0]!.id : (lockedSiteId ?? null),
    sites,
    range,
    slice: {
      orgId: access.scope.orgId,
      sites: withDays,
      from: range.from,
      days: boundaries.length - 1,
      lo: new Date(Math.min(...firsts)),
      hi: new Date(Math.max(...lasts)),
    },
  };
}

/** Each site's opening windows on each local day of the range, as instants (slot-grid rules, DST included). */
function windowsOf(sites: SiteInfo[], range: ReportRange): repo.ReportWindows {
  const windows: repo.ReportWindows = [];
  for (const site of sites) {
    for (const date of datesInRange(range.from, range.to)) {
      for (const window of openMinutesOn(date, site.operatingHours)) {
        const start = zonedTimeToUtc(date, window.open, site.timeZone);
        const end = zonedTimeToUtc(date, window.close, site.timeZone);
        if (end > start) windows.push({ siteId: site.id, date, start, end });
      }
    }
  }
  return windows;
}

function header(ctx: AppContext, resolved: Resolved) {
  return {
    generatedAt: ctx.clock.now().toISOString(),
    range: { ...resolved.range, days: reportRangeDays(resolved.range) },
    siteId: resolved.siteId,
    sites: resolved.sites.map((s) => ({ id: s.id, name: s.name, timeZone: s.timeZone })),
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const shareOf = (part: number, whole: number) => (whole > 0 ? round4(part / whole) : null);
const minutesOrNull = (n: number | null) => (n === null || !Number.isFinite(n) ? null : round1(n));

// ── Bay utilisation ─────────────────────────────────────────────────────────────────────────────

type Sums = { open: number; booked: number; occupied: number };
const emptySums = (): Sums => ({ open: 0, booked: 0, occupied: 0 });
function addTo(map: Map<string, Sums>, key: string, cell: Sums): void {
  const sums = map.get(key) ?? emptySums();
  sums.open += cell.open;
  sums.booked += cell.booked;
  sums.occupied += cell.occupied;
  map.set(key, sums);
}
function figures(s: Sums): UtilisationFigures {
  return {
    openMinutes: round1(s.open),
    bookedMinutes: round1(s.booked),
    occupiedMinutes: round1(s.occupied),
    bookedRate: shareOf(s.booked, s.open),
    occupiedRate: shareOf(s.occupied, s.open),
  };
}

export async function getUtilisation(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<UtilisationReport> {
  const resolved = await resolve(ctx, access, query);
  const siteIds = resolved.sites.map((s) => s.id);
  const [cells, bays] = await Promise.all([
    siteIds.length ? repo.utilisationCells(ctx.database.query, resolved.slice, windowsOf(resolved.sites, resolved.range), ctx.clock.now()) : [],
    siteIds.length ? repo.listBays(ctx.database.query, access.scope.orgId, siteIds) : [],
  ]);
  const siteName = new Map(resolved.sites.map((s) => [s.id, s.name]));
  const bayOrder = new Map(bays.map((b, i) => [b.id, i]));
  const siteOrder = new Map(resolved.sites.map((s, i) => [s.id, i]));
  const byBay = new Map<string, Sums>();
  const bySiteDay = new Map<string, Sums>();
  const bySite = new Map<string, Sums>();
  const total = emptySums();
  for (const cell of cells) {
    const sums = { open: cell.open_min, booked: cell.booked_min, occupied: cell.occupied_min };
    addTo(byBay, cell.bay_id, sums);
    addTo(bySiteDay, `${cell.site_id}|${cell.day}`, sums);
    addTo(bySite, cell.site_id, sums);
    total.open += sums.open;
    total.booked += sums.booked;
    total.occupied += sums.occupied;
  }
  const dates = datesInRange(resolved.range.from, resolved.range.to);
  // The bays in service at some time in the range (each has cells), a deactivated one included.
  const activeBays = bays.filter((b) => byBay.has(b.id));
  return {
    ...header(ctx, resolved),
    bays: activeBays.map((b) => ({
      bayId: b.id,
      bayName: b.name,
      isActive: b.active,
      siteId: b.site_id,
      siteName: siteName.get(b.site_id) ?? '',
      ...figures(byBay.get(b.id) ?? emptySums()),
    })).sort((a, b) => (siteOrder.get(a.siteId)! - siteOrder.get(b.siteId)!) || (bayOrder.get(a.bayId)! - bayOrder.get(b.bayId)!)),
    cells: cells
      .map((c) => ({ bayId: c.bay_id, date: c.day, ...figures({ open: c.open_min, booked: c.booked_min, occupied: c.occupied_min }) }))
      .sort((a, b) => (bayOrder.get(a.bayId)! - bayOrder.get(b.bayId)!) || a.date.localeCompare(b.date)),
    siteDays: resolved.sites.flatMap((s) => dates.map((date) => ({ siteId: s.id, date, ...figures(bySiteDay.get(`${s.id}|${date}`) ?? emptySums()) }))),
    siteTotals: resolved.sites.map((s) => ({ siteId: s.id, siteName: s.name, ...figures(bySite.get(s.id) ?? emptySums()) })),
    total: figures(total),
  };
}

// ── Grouped reports: labels and order ───────────────────────────────────────────────────────────

type Labeller = (row: repo.GroupKeys) => { key: string; label: string };

async function labellerFor(ctx: AppContext, resolved: Resolved, withBays: boolean): Promise<Labeller> {
  const siteName = new Map(resolved.sites.map((s) => [s.id, s.name]));
  const [bays, tenants] = await Promise.all([
    withBays && resolved.sites.length ? repo.listBays(ctx.database.query, resolved.slice.orgId, resolved.sites.map((s) => s.id)) : [],
    repo.listTenantNames(ctx.database.query, resolved.slice.orgId),
  ]);
  const tenantName = new Map(tenants.map((t) => [t.id, t.name]));
  const bayLabel = new Map(bays.map((b) => [b.id, resolved.sites.length > 1 ? `${b.name} (${siteName.get(b.site_id) ?? ''})` : b.name]));
  return (row) => {
    switch (row.dimension) {
      case 'site':
        return { key: row.site_id ?? '', label: siteName.get(row.site_id ?? '') ?? '' };
      case 'bay':
        return { key: row.bay_id ?? '', label: bayLabel.get(row.bay_id ?? '') ?? '' };
      case 'tenant':
        // A linked tenant by its name in the tenant list; otherwise the name typed on its bookings.
        return { key: row.tenant_key ?? '', label: tenantName.get(row.tenant_key ?? '') ?? row.tenant_label ?? '' };
      case 'vehicle_type':
        return { key: row.vehicle_type ?? '', label: VEHICLE_TYPE_LABELS[row.vehicle_type as VehicleType] ?? row.vehicle_type ?? '' };
      case 'booking_type':
        return { key: row.booking_type ?? '', label: BOOKING_TYPE_LABELS[row.booking_type as BookingType] ?? row.booking_type ?? '' };
      default:
        return { key: '', label: '' };
    }
  };
}

/** Rows by the report's dimension order, then the biggest count first, then by label. */
function sortRows<Row extends { dimension: ReportDimension; label: string }>(rows: Row[], order: readonly ReportDimension[], size: (row: Row) => number): Row[] {
  return rows.sort(
    (a, b) => order.indexOf(a.dimension) - order.indexOf(b.dimension) || size(b) - size(a) || a.label.localeCompare(b.label) || 0,
  );
}

// ── Punctuality ─────────────────────────────────────────────────────────────────────────────────

function punctualityFigures(row: repo.PunctualityGroupRow | undefined): PunctualityFigures {
  const arrivals = row?.arrivals ?? 0;
  return {
    arrivals,
    early: row?.early ?? 0,
    onTime: row?.on_time ?? 0,
    late: row?.late ?? 0,
    earlyRate: shareOf(row?.early ?? 0, arrivals),
    onTimeRate: shareOf(row?.on_time ?? 0, arrivals),
    lateRate: shareOf(row?.late ?? 0, arrivals),
    medianLateMinutes: minutesOrNull(row?.median_late ?? null),
    p90LateMinutes: minutesOrNull(row?.p90_late ?? null),
    lateByBucket: LATE_MINUTE_BUCKETS.map((_, i) => row?.late_buckets[i] ?? 0),
  };
}

export async function getPunctuality(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<PunctualityReport> {
  const resolved = await resolve(ctx, access, query);
  const [groups, label] = await Promise.all([
    resolved.sites.length ? repo.punctualityGroups(ctx.database.query, resolved.slice) : [],
    labellerFor(ctx, resolved, false),
  ]);
  const rows: PunctualityRow[] = groups
    .filter((g) => g.dimension !== 'total')
    .map((g) => ({ dimension: g.dimension as ReportDimension, ...label(g), ...punctualityFigures(g) }));
  return {
    ...header(ctx, resolved),
    total: punctualityFigures(groups.find((g) => g.dimension === 'total')),
    rows: sortRows(rows, PUNCTUALITY_DIMENSIONS, (r) => r.arrivals),
  };
}

// ── Dwell and turn time ─────────────────────────────────────────────────────────────────────────

function dwellStats(stats: repo.DwellGroupRow['gate_wait'] | undefined): DwellStats {
  return {
    count: stats?.n ?? 0,
    medianMinutes: minutesOrNull(stats?.median ?? null),
    p90Minutes: minutesOrNull(stats?.p90 ?? null),
    maxMinutes: minutesOrNull(stats?.max ?? null),
  };
}

function dwellFigures(row: repo.DwellGroupRow | undefined): DwellFigures {
  return {
    visits: row?.visits ?? 0,
    overstays: row?.overstays ?? 0,
    gateWait: dwellStats(row?.gate_wait),
    atBay: dwellStats(row?.at_bay),
    onSite: dwellStats(row?.on_site),
  };
}

export async function getDwell(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<DwellReport> {
  const resolved = await resolve(ctx, access, query);
  const [groups, label] = await Promise.all([
    resolved.sites.length ? repo.dwellGroups(ctx.database.query, resolved.slice, ctx.clock.now()) : [],
    labellerFor(ctx, resolved, true),
  ]);
  const rows: DwellRow[] = groups
    .filter((g) => g.dimension !== 'total')
    .map((g) => ({ dimension: g.dimension as ReportDimension, ...label(g), ...dwellFigures(g) }));
  return {
    ...header(ctx, resolved),
    total: dwellFigures(groups.find((g) => g.dimension === 'total')),
    rows: sortRows(rows, DWELL_DIMENSIONS, (r) => r.visits),
  };
}

// ── No-shows and cancellations ──────────────────────────────────────────────────────────────────

function noShowFigures(row: { bookings: number; no_shows: number; cancellations: number } | undefined): NoShowFigures {
  const bookings = row?.bookings ?? 0;
  return {
    bookings,
    noShows: row?.no_shows ?? 0,
    cancellations: row?.cancellations ?? 0,
    noShowRate: shareOf(row?.no_shows ?? 0, bookings),
    cancellationRate: shareOf(row?.cancellations ?? 0, bookings),
  };
}

export async function getNoShows(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<NoShowReport> {
  const resolved = await resolve(ctx, access, query);
  const [groups, label] = await Promise.all([
    resolved.sites.length ? repo.noShowGroups(ctx.database.query, resolved.slice) : [],
    labellerFor(ctx, resolved, false),
  ]);
  const rows: NoShowRow[] = groups
    .filter((g) => g.dimension === 'tenant' || g.dimension === 'site')
    .map((g) => ({ dimension: g.dimension as ReportDimension, ...label(g as repo.GroupKeys), ...noShowFigures(g) }));
  const byDay = new Map(groups.filter((g) => g.dimension === 'day').map((g) => [g.day!, g]));
  return {
    ...header(ctx, resolved),
    total: noShowFigures(groups.find((g) => g.dimension === 'total')),
    rows: sortRows(rows, NO_SHOW_DIMENSIONS, (r) => r.bookings),
    trend: datesInRange(resolved.range.from, resolved.range.to).map((date) => ({ date, ...noShowFigures(byDay.get(date)) })),
  };
}

// ── Volume ──────────────────────────────────────────────────────────────────────────────────────

function emptyVolume(): VolumeFigures {
  return {
    bookings: 0,
    byType: Object.fromEntries(BOOKING_TYPES.map((t) => [t, 0])) as VolumeFigures['byType'],
    bySource: Object.fromEntries(VOLUME_SOURCES.map((s) => [s, 0])) as VolumeFigures['bySource'],
  };
}

export async function getVolume(ctx: AppContext, access: ReportAccess, query: ReportQueryInput): Promise<VolumeReport> {
  const resolved = await resolve(ctx, access, query);
  const groups = resolved.sites.length ? await repo.volumeGroups(ctx.database.query, resolved.slice) : [];
  const total = emptyVolume();
  const days = new Map(datesInRange(resolved.range.from, resolved.range.to).map((date) => [date, emptyVolume()]));
  const hours = new Map<string, number>();
  const isType = (t: string | null): t is BookingType => (BOOKING_TYPES as readonly string[]).includes(t ?? '');
  const isSource = (s: string | null): s is VolumeSource => (VOLUME_SOURCES as readonly string[]).includes(s ?? '');
  for (const g of groups) {
    const day = g.day ? days.get(g.day) : undefined;
    switch (g.dimension) {
      case 'total':
        total.bookings = g.bookings;
        break;
      case 'type':
        if (isType(g.booking_type)) total.byType[g.booking_type] = g.bookings;
        break;
      case 'source':
        if (isSource(g.source)) total.bySource[g.source] = g.bookings;
        break;
      case 'day':
        if (day) day.bookings = g.bookings;
        break;
      case 'day_type':
        if (day && isType(g.booking_type)) day.byType[g.booking_type] = g.bookings;
        break;
      case 'day_source':
        if (day && isSource(g.source)) day.bySource[g.source] = g.bookings;
        break;
      case 'weekday_hour':
        hours.set(`${g.isodow}|${g.hour}`, g.bookings);
        break;
    }
  }
  return {
    ...header(ctx, resolved),
    total,
    days: [...days].map(([date, figures]) => ({ date, ...figures })),
    weekdayHours: WEEKDAYS.flatMap((weekday, i) =>
      Array.from({ length: 24 }, (_, hour) => ({ weekday, hour, bookings: hours.get(`${i + 1}|${hour}`) ?? 0 })),
    ),
  };
}
