import {
  canManageBilling,
  invoiceAlreadyPaid,
  invoiceAlreadyVoid,
  invoiceIsVoid,
  invoicePaidCannotVoid,
  isOverdue,
  type Invoice,
  type InvoiceList,
} from '../../../domain/billing';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { conflict, notFound } from '../../plugins/errors';
import { actorOf, existingOrganization, requireId, requireManager } from './billing-access';
import * as repo from './billing.repo';
import { invoiceFileName, renderInvoicePdf } from './invoice-pdf';
import { getPlatformConfig } from '../../platform-config';
import { invoiceSellerOf } from '../../../domain/platform-settings';

// Invoices and their payments: the list, marking one paid by hand, voiding one, and its PDF.

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function toInvoice(row: repo.InvoiceRow, now: Date): Invoice {
  const i = row.invoice;
  const dueAt = iso(i.dueAt);
  return {
    id: i.id,
    number: i.number,
    orgId: i.orgId,
    orgName: row.orgName,
    planName: row.planName,
    status: i.status,
    currency: i.currency,
    amountDue: Number(i.amountDue),
    amountPaid: Number(i.amountPaid),
    periodKey: i.periodKey,
    periodStart: iso(i.periodStart),
    periodEnd: iso(i.periodEnd),
    issuedAt: i.issuedAt.toISOString(),
    dueAt,
    paidAt: iso(i.paidAt),
    paymentMethod: i.paymentMethod,
    paymentRef: i.paymentRef,
    lineItems: (i.lineItems ?? []).map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unitAmount: Number(item.unitAmount),
      amount: Number(item.amount),
    })),
    isOverdue: isOverdue({ status: i.status, dueAt }, now),
  };
}

export async function listInvoices(
  ctx: AppContext,
  auth: AuthContext,
  query: { status?: string; orgId?: string; page: number; pageSize: number },
): Promise<InvoiceList> {
  if (query.orgId) await existingOrganization(ctx, query.orgId);
  const { rows, total } = await repo.listInvoicesAnyOrg(ctx.database.db, query);
  const now = ctx.clock.now();
  return { total, items: rows.map((r) => toInvoice(r, now)), canManage: canManageBilling(auth.user.platformRole) };
}

async function invoiceView(ctx: AppContext, invoiceId: string): Promise<Invoice> {
  const row = await repo.findInvoiceAnyOrg(ctx.database.db, invoiceId);
  if (!row) throw notFound('Invoice');
  return toInvoice(row, ctx.clock.now());
}

/** Marks an open invoice paid by hand (a bank transfer, a cheque), with the payment's reference; audited. */
export async function markInvoicePaid(ctx: AppContext, auth: AuthContext, invoiceId: string, reference: string, ip: string | null): Promise<Invoice> {
  requireManager(auth);
  requireId(invoiceId, 'Invoice');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const row = await repo.findInvoiceAnyOrg(tx, invoiceId, true);
    if (!row) throw notFound('Invoice');
    const { invoice } = row;
    if (invoice.status === 'paid') throw conflict('invoice_already_paid', invoiceAlreadyPaid(invoice.number));
    if (invoice.status === 'void') throw conflict('invoice_void', invoiceIsVoid(invoice.number));
    await repo.updateInvoice(tx, invoice, { status: 'paid', amountPaid: invoice.amountDue, paidAt: now, paymentMethod: 'manual', paymentRef: reference });
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'invoice.marked_paid',
      resourceType: 'invoice',
      resourceId: invoiceId,
      orgId: invoice.orgId,
      details: { number: invoice.number, amountUsd: Number(invoice.amountDue), method: 'manual', reference },
      ip,
    });
  });
  return invoiceView(ctx, invoiceId);
}

/** Voids an open invoice (issued by mistake, or waived); a paid one cannot be voided. Audited with the reason. */
export async function voidInvoice(ctx: AppContext, auth: AuthContext, invoiceId: string, reason: string, ip: string | null): Promise<Invoice> {
  requireManager(auth);
  requireId(invoiceId, 'Invoice');
  await ctx.database.db.transaction(async (tx) => {
    const row = await repo.findInvoiceAnyOrg(tx, invoiceId, true);
    if (!row) throw notFound('Invoice');
    const { invoice } = row;
    if (invoice.status === 'paid') throw conflict('invoice_already_paid', invoicePaidCannotVoid(invoice.number));
    if (invoice.status === 'void') throw conflict('invoice_void', invoiceAlreadyVoid(invoice.number));
    await repo.updateInvoice(tx, invoice, { status: 'void' });
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'invoice.voided',
      resourceType: 'invoice',
      resourceId: invoiceId,
      orgId: invoice.orgId,
      details: { number: invoice.number, amountUsd: Number(invoice.amountDue), reason },
      ip,
    });
  });
  return invoiceView(ctx, invoiceId);
}

/** The invoice as a PDF, with the file name to give it. */
export async function invoicePdf(ctx: AppContext, invoiceId: string): Promise<{ fileName: string; pdf: Buffer }> {
  requireId(invoiceId, 'Invoice');
  const row = await repo.findInvoiceAnyOrg(ctx.database.db, invoiceId);
  if (!row) throw notFound('Invoice');
  const invoice = toInvoice(row, ctx.clock.now());
  const seller = invoiceSellerOf(await getPlatformConfig(ctx.database.db));
  const pdf = await renderInvoicePdf({ invoice, billTo: { name: row.orgName, email: row.orgEmail, address: row.orgAddress }, seller });
  return { fileName: invoiceFileName(invoice.number), pdf };
}
