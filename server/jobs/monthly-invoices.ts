import { previousPeriodKey, type IssueInvoicesResult } from '../../domain/billing';
import type { AppContext } from '../context';
import { issueInvoices } from '../modules/billing/invoice-run.service';

// The monthly invoice run (issue 12), scheduled by the job runner on the 1st of each month: every
// organization on a paid plan gets its invoice for the calendar month (UTC) that just ended, as
// the actor `system`. Idempotent: the unique (org_id, period_key) index lets a second run, or a
// run on another node, write nothing (modules/billing/invoice-run.service.ts issueInvoices).

export async function issueMonthlyInvoices(ctx: AppContext): Promise<IssueInvoicesResult> {
  const result = await issueInvoices(ctx, previousPeriodKey(ctx.clock.now()), null);
  ctx.log.info(
    { period: result.period, issued: result.issued, alreadyIssued: result.alreadyIssued, skipped: result.skipped.length },
    'monthly invoices issued',
  );
  return result;
}
