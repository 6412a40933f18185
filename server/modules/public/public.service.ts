import { TZDate } from '@date-fns/tz';
import type { QuoteRequestInput } from '../../../domain/quote-request';
import { hoursOn, localDateOf, localTimeOf } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import * as repo from './public.repo';
import { measuredUptimePercent } from './uptime';

// The signed-out screens: organization and site pickers, login-page figures, quote requests.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listOrganizations(ctx: AppContext) {
  return repo.listVisibleOrganizations(ctx.database.db);
}

export function listSites(ctx: AppContext) {
  return repo.listVisibleSitesAnyOrg(ctx.database.db);
}

/** Start and end of `now`'s calendar day in `timeZone`, as instants. */
export function localDayBounds(now: Date, timeZone: string): { start: Date; end: Date } {
  const local = new TZDate(now.getTime(), timeZone);
  const start = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), timeZone);
  const end = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + 1, timeZone);
  return { start: new Date(start.getTime()), end: new Date(end.getTime()) };
}

/**
 * What a driver at the gate (and the dockmaster sign-in page) needs of a site: whether it is open
 * now and its hours today, in the site's own time zone. No booking or occupancy figures: those
 * are for signed-in staff.
 */
export async function siteStatus(ctx: AppContext, siteId: string) {
  if (!UUID.test(siteId)) throw notFound('Site');
  const site = await repo.findVisibleSiteAnyOrg(ctx.database.db, siteId);
  if (!site) throw notFound('Site');
  const now = ctx.clock.now();
  const today = localDateOf(now, site.timeZone);
  const hours = hoursOn(today, site.operatingHours);
  const localTime = localTimeOf(now, site.timeZone);
  return {
    siteName: site.name,
    timeZone: site.timeZone,
    localTime,
    hoursToday: hours,
    isOpenNow: hours.some((window) => localTime >= window.open && localTime < window.close),
  };
}

/**
 * The super-admin sign-in page's figures, for anonymous visitors: only what is harmless — active
 * organizations, active users and the uptime measured from the heartbeat history. No revenue, no
 * per-organization figures.
 */
export async function platformStats(ctx: AppContext) {
  const { db } = ctx.database;
  const [organizations, users, uptimePercent] = await Promise.all([
    repo.countVisibleOrganizations(db),
    repo.countActiveUsers(db),
    measuredUptimePercent(ctx),
  ]);
  return { organizations, users, uptimePercent };
}

const emptyToNull = (value: string | null | undefined) => (value ? value : null);

/** Stores a landing-page quote request for the platform admins, audited in the same transaction. */
export async function createQuoteRequest(ctx: AppContext, input: QuoteRequestInput, meta: { ip: string | null }) {
  return ctx.database.db.transaction(async (tx) => {
    const values = {
      name: input.name,
      company: input.company,
      email: input.email,
      phone: emptyToNull(input.phone),
      sites: input.sites ?? null,
      message: emptyToNull(input.message),
    };
    const id = await repo.insertQuoteRequest(tx, values);
    await writeAudit(tx, {
      actor: null,
      action: 'quote.requested',
      resourceType: 'quote_request',
      resourceId: id,
      details: { name: values.name, company: values.company, email: values.email, sites: values.sites },
      ip: meta.ip,
    });
    return { id };
  });
}
