import { TZDate } from '@date-fns/tz';
import type { QuoteRequestInput } from '../../../domain/quote-request';
import type { AppContext } from '../../context';
import { notFound } from '../../plugins/errors';
import { writeAudit } from '../audit/audit.service';
import * as repo from './public.repo';

// The signed-out screens: organization and site pickers, login-page figures, quote requests.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listOrganizations(ctx: AppContext) {
  return repo.listVisibleOrganizations(ctx.database.db);
}

export function listSites(ctx: AppContext) {
  return repo.listVisibleSites(ctx.database.db);
}

/** Start and end of `now`'s calendar day in `timeZone`, as instants. */
export function localDayBounds(now: Date, timeZone: string): { start: Date; end: Date } {
  const local = new TZDate(now.getTime(), timeZone);
  const start = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), timeZone);
  const end = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + 1, timeZone);
  return { start: new Date(start.getTime()), end: new Date(end.getTime()) };
}

/**
 * Dockmaster login figures for one site, today in the site's time zone:
 * expectedToday: live bookings (not declined, cancelled or no-show) starting today;
 * checkedIn: those of them that have arrived at the gate;
 * bays / baysAvailable: active bays, and those with no vehicle at them and no blackout now.
 */
export async function siteStatus(ctx: AppContext, siteId: string) {
  const { db } = ctx.database;
  if (!UUID.test(siteId)) throw notFound('Site');
  const site = await repo.findVisibleSite(db, siteId);
  if (!site) throw notFound('Site');
  const now = ctx.clock.now();
  const day = localDayBounds(now, site.timeZone);
  const [today, bayCounts] = await Promise.all([
    repo.countSiteBookingsBetween(db, site.id, day.start, day.end),
    repo.countSiteBays(db, site.id, now),
  ]);
  return {
    expectedToday: today.expected,
    checkedIn: today.checkedIn,
    bays: bayCounts.total,
    baysAvailable: bayCounts.available,
  };
}

/** A plan's price per month in whole currency units (yearly plans count a twelfth). */
export function monthlyPrice(plan: { priceCents: number; interval: string }): number {
  const perMonthCents = plan.interval === 'year' ? plan.priceCents / 12 : plan.priceCents;
  return perMonthCents / 100;
}

/**
 * The super-admin login page's figures, real: active organizations, active users, seconds since
 * this node started, and monthly recurring revenue in USD (every plan is priced in USD).
 */
export async function platformStats(ctx: AppContext) {
  const { db } = ctx.database;
  const [organizations, users, subscriptions] = await Promise.all([
    repo.countVisibleOrganizations(db),
    repo.countActiveUsers(db),
    repo.listActiveSubscriptionPlans(db),
  ]);
  const mrr = subscriptions.reduce((sum, plan) => sum + monthlyPrice(plan), 0);
  return {
    organizations,
    users,
    uptimeSeconds: Math.max(0, Math.floor((ctx.clock.now().getTime() - ctx.startedAt.getTime()) / 1000)),
    mrr: Math.round(mrr * 100) / 100,
  };
}

/** The org-admin login page's "Today's Overview", over every active organization. */
export function overview(ctx: AppContext) {
  return repo.overviewCounts(ctx.database.db, ctx.clock.now());
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
