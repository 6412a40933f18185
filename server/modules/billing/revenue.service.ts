import { REVENUE_MONTHS, amountToCents, lastMonths, periodBounds, periodLabel, type Revenue } from '../../../domain/billing';
import type { AppContext } from '../../context';
import * as repo from './billing.repo';

/**
 * Paid invoices by the calendar month (UTC) they were paid in, for the last REVENUE_MONTHS months
 * up to now — amount_paid of status 'paid', as the dashboard's revenue card sums it — and what
 * open invoices are owed.
 */
export async function revenue(ctx: AppContext): Promise<Revenue> {
  const now = ctx.clock.now();
  const months = lastMonths(now, REVENUE_MONTHS);
  const from = periodBounds(months[0]!).start;
  const [paid, open] = await Promise.all([repo.paidByMonthAnyOrg(ctx.database.db, from, now), repo.outstandingAnyOrg(ctx.database.db)]);
  const byMonth = new Map(paid.map((p) => [p.month, p]));
  const series = months.map((month) => {
    const row = byMonth.get(month);
    return { month, label: periodLabel(month), revenueUsd: amountToCents(row?.total ?? 0) / 100, invoicesPaid: row?.n ?? 0 };
  });
  return {
    months: series,
    totalUsd: amountToCents(series.reduce((sum, m) => sum + m.revenueUsd, 0)) / 100,
    outstandingUsd: amountToCents(open.total) / 100,
    openInvoices: open.n,
  };
}
