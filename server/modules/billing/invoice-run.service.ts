import { INVOICE_CURRENCY, INVOICE_DUE_DAYS, PERIOD_NOT_ENDED, periodBounds, subscriptionLine, type IssueInvoicesResult } from '../../../domain/billing';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { actorOf, requireManager } from './billing-access';
import * as repo from './billing.repo';

// The monthly invoice run: scheduled on the 1st (jobs/monthly-invoices.ts), or started by a
// platform administrator for a month that has ended.

const DAY_MS = 86_400_000;

/**
 * Issues each organization's invoice for the calendar month `period` ('YYYY-MM', UTC), once:
 * organizations on a plan with a price, active (a suspended or closed one is skipped), whose
 * billing is active and that existed before the month ended. One line item: the plan's monthly
 * subscription (the plan it is on when the invoice is issued), prorated in the month it joined.
 * Due INVOICE_DUE_DAYS after issue. Each invoice is its own transaction with its
 * audit entry; the unique (org_id, period_key) index makes a second run — or a run on another
 * node at the same time — write nothing. `actor` null: the scheduled job (audited as 'system').
 */
export async function issueInvoices(ctx: AppContext, period: string, actor: AuditActor, ip: string | null = null): Promise<IssueInvoicesResult> {
  const now = ctx.clock.now();
  const { start, end } = periodBounds(period);
  if (end.getTime() > now.getTime()) throw badRequest(PERIOD_NOT_ENDED, [{ path: 'period', message: PERIOD_NOT_ENDED }]);
  const result: IssueInvoicesResult = { period, issued: 0, alreadyIssued: 0, skipped: [] };
  for (const org of await repo.billableOrganizationsAnyOrg(ctx.database.db)) {
    const skip = (reason: string) => result.skipped.push({ orgId: org.orgId, orgName: org.orgName, reason });
    if (org.orgCreatedAt.getTime() >= end.getTime()) continue; // not a customer yet that month
    if (org.orgStatus !== 'active' || !org.orgActive) {
      skip(org.orgStatus === 'suspended' ? 'Suspended' : 'Not active');
      continue;
    }
    if (org.billingStatus !== 'active') {
      skip(`Billing ${org.billingStatus}`);
      continue;
    }
    const item = subscriptionLine(org.planName, org.priceCents, period, org.orgCreatedAt);
    const amount = item.amount;
    const created = await ctx.database.db.transaction(async (tx) => {
      const row = await repo.insertInvoiceOnce(tx, {
        orgId: org.orgId,
        planId: org.planId,
        periodKey: period,
        periodStart: start,
        periodEnd: end,
        amountDue: amount,
        currency: org.currency || INVOICE_CURRENCY,
        lineItems: [item],
        issuedAt: now,
        dueAt: new Date(now.getTime() + INVOICE_DUE_DAYS * DAY_MS),
      });
      if (!row) return false;
      await repo.advancePeriodEnd(tx, org.orgId, new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 1)));
      await writeAudit(tx, {
        actor,
        anonymousRole: 'system',
        action: 'invoice.issued',
        resourceType: 'invoice',
        resourceId: row.id,
        orgId: org.orgId,
        details: { number: row.number, period, plan: org.planName, amountUsd: Number(amount) },
        ip,
      });
      return true;
    });
    if (created) result.issued += 1;
    else if (await repo.hasInvoiceFor(ctx.database.db, org.orgId, period)) result.alreadyIssued += 1;
    else skip('Not issued: the invoice number was taken'); // cannot happen with the sequence; never silent
  }
  return result;
}

/** "Issue invoices now" of a platform administrator: the run, and one audit entry for it (even when it issued nothing). */
export async function issueInvoicesNow(ctx: AppContext, auth: AuthContext, period: string, ip: string | null): Promise<IssueInvoicesResult> {
  requireManager(auth);
  const result = await issueInvoices(ctx, period, actorOf(auth), ip);
  await writeAudit(ctx.database.db, {
    actor: actorOf(auth),
    action: 'invoices.issue_run',
    resourceType: 'invoice_run',
    resourceId: period,
    details: { period, issued: result.issued, alreadyIssued: result.alreadyIssued, skipped: result.skipped.length },
    ip,
  });
  return result;
}
