import type { OperatingHours } from '../../../domain/constants';
import type { Database } from '../../db/client';

// The organization's booking rules as the portal's hot path reads them (book-slot-fast.ts): its
// active sites' time zone, hours, interval, advance and horizon, and the plan's monthly limit, kept
// per organization in memory. The copy carries the organization's config_version: the one
// statement refuses a stale copy (no row), and the caller reloads it (`fresh`) and takes the full path.

export type SiteRules = {
  id: string;
  name: string;
  /** The site's address (the SSC API's location answer); a change moves config_version like any site change. */
  address?: string | null;
  timeZone: string;
  operatingHours: OperatingHours;
  slotIntervalMin: number;
  minAdvanceMin: number;
  bookingHorizonDays: number;
};

export type OrgRules = {
  orgId: string;
  orgName: string;
  configVersion: number;
  sites: SiteRules[];
  /**
   * The plan's bookings-per-month limit, null when unlimited (or no plan). Assigning a plan or
   * changing its limit moves config_version (migration 0009), so a stale copy is refused like stale
   * site rules. With a limit, bookings take the full path, which counts them under a lock.
   */
  bookingLimit: number | null;
};


/** Per database, per organization: the rules the last booking read. */
const rulesCache = new WeakMap<Database, Map<string, OrgRules>>();

type RulesRow = {
  org_name: string;
  config_version: string | number;
  booking_limit: number | null;
  id: string | null;
  name: string;
  address: string | null;
  time_zone: string;
  operating_hours: OperatingHours;
  slot_interval_min: number;
  min_advance_min: number;
  booking_horizon_days: number;
};

/** Loads (or reuses) the organization's active sites' rules; null when the organization cannot take bookings. */
export async function orgRules(database: Database, orgId: string, fresh = false): Promise<OrgRules | null> {
  let byOrg = rulesCache.get(database);
  if (!byOrg) rulesCache.set(database, (byOrg = new Map()));
  const cached = byOrg.get(orgId);
  if (cached && !fresh) return cached;
  const rows = await database.query<RulesRow>(
    `select o.name as org_name, o.config_version, p.max_bookings_per_month as booking_limit, s.id, s.name, s.address, s.time_zone,
            s.operating_hours, s.slot_interval_min, s.min_advance_min, s.booking_horizon_days
       from organizations o left join sites s on s.org_id = o.id and s.active
       left join billing bl on bl.org_id = o.id left join plans p on p.id = bl.plan_id
      where o.id = $1 and o.active and o.status = 'active'
      order by s.name`,
    [orgId],
  );
  if (rows.length === 0) {
    byOrg.delete(orgId);
    return null;
  }
  const rules: OrgRules = {
    orgId,
    orgName: rows[0]!.org_name,
    configVersion: Number(rows[0]!.config_version),
    bookingLimit: rows[0]!.booking_limit === null ? null : Number(rows[0]!.booking_limit),
    sites: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        name: r.name,
        address: r.address,
        timeZone: r.time_zone,
        operatingHours: r.operating_hours,
        slotIntervalMin: r.slot_interval_min,
        minAdvanceMin: r.min_advance_min,
        bookingHorizonDays: r.booking_horizon_days,
      })),
  };
  if (byOrg.size > 10_000) byOrg.clear();
  byOrg.set(orgId, rules);
  return rules;
}
