import type { z } from 'zod';
import {
  QUOTE_ALREADY_CONTACTED,
  QUOTE_ALREADY_CONVERTED,
  SUPPORT_CANNOT_CREATE,
  canManageOrganizations,
  type ConvertedQuote,
  type createOrganizationSchema,
  type QuoteList,
  type QuoteRequestItem,
  type QuoteStatus,
} from '../../../domain/platform-admin';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import { createOrganization } from '../platform-admin/platform-admin.service';
import * as repo from './quote-requests.repo';

// The quote-request inbox (/superadmin/organizations › Quote requests): newest first by status;
// mark one contacted, or convert it into an organization (created and marked in one transaction).
// Reading is open to every platform role; changing is for super admins and platform owners.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toItem(row: repo.QuoteRow): QuoteRequestItem {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    sites: row.sites,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    contactedAt: row.contactedAt ? row.contactedAt.toISOString() : null,
    convertedOrg: row.convertedOrgId && row.convertedOrgName ? { id: row.convertedOrgId, name: row.convertedOrgName } : null,
    handledByEmail: row.handledByEmail,
  };
}

export async function listQuotes(ctx: AppContext, query: { status?: QuoteStatus; page: number; pageSize: number }): Promise<QuoteList> {
  const { db } = ctx.database;
  const [rows, counts] = await Promise.all([repo.listQuotes(db, query), repo.countByStatus(db)]);
  const byStatus = { new: counts.new ?? 0, contacted: counts.contacted ?? 0, converted: counts.converted ?? 0 };
  const total = query.status ? byStatus[query.status] : Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { total, counts: byStatus, items: rows.map(toItem) };
}

export async function getQuote(ctx: AppContext, quoteId: string): Promise<QuoteRequestItem> {
  if (!UUID.test(quoteId)) throw notFound('Quote request');
  const row = await repo.findQuote(ctx.database.db, quoteId);
  if (!row) throw notFound('Quote request');
  return toItem(row);
}

function requireManager(auth: AuthContext) {
  if (!canManageOrganizations(auth.user.platformRole)) throw forbidden(SUPPORT_CANNOT_CREATE);
}

/** A new quote request becomes contacted (who, when); audited. A contacted or converted one answers 409. */
export async function markContacted(ctx: AppContext, auth: AuthContext, quoteId: string, ip: string | null): Promise<QuoteRequestItem> {
  requireManager(auth);
  if (!UUID.test(quoteId)) throw notFound('Quote request');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const quote = await repo.lockQuote(tx, quoteId);
    if (!quote) throw notFound('Quote request');
    if (quote.status === 'converted') throw conflict('quote_converted', QUOTE_ALREADY_CONVERTED);
    if (quote.status === 'contacted') throw conflict('quote_contacted', QUOTE_ALREADY_CONTACTED);
    await repo.markContacted(tx, quoteId, auth.user.id, now);
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
      action: 'quote.contacted',
      resourceType: 'quote_request',
      resourceId: quoteId,
      details: { company: quote.company, email: quote.email, previousStatus: quote.status },
      ip,
    });
  });
  return getQuote(ctx, quoteId);
}

/**
 * Creates the organization the quote request asked for (the create form's answers, usually
 * prefilled from it) and marks the request converted with the organization's id — one
 * transaction: if either fails, neither happens. A converted request answers 409.
 */
export async function convertQuote(
  ctx: AppContext,
  auth: AuthContext,
  quoteId: string,
  input: z.output<typeof createOrganizationSchema>,
  ip: string | null,
): Promise<ConvertedQuote> {
  requireManager(auth);
  if (!UUID.test(quoteId)) throw notFound('Quote request');
  // Checked before the organization is made, and again under the lock inside its transaction.
  const before = await repo.findQuote(ctx.database.db, quoteId);
  if (!before) throw notFound('Quote request');
  if (before.status === 'converted') throw conflict('quote_converted', QUOTE_ALREADY_CONVERTED);
  const now = ctx.clock.now();
  const created = await createOrganization(ctx, auth, input, ip, {
    auditDetails: { quote_request_id: quoteId },
    alsoInTransaction: async (tx, org) => {
      const quote = await repo.lockQuote(tx, quoteId);
      if (!quote) throw notFound('Quote request');
      if (quote.status === 'converted') throw conflict('quote_converted', QUOTE_ALREADY_CONVERTED);
      await repo.markConverted(tx, quoteId, org.orgId, auth.user.id, now);
      await writeAudit(tx, {
        actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
        action: 'quote.converted',
        resourceType: 'quote_request',
        resourceId: quoteId,
        orgId: org.orgId,
        details: { company: quote.company, email: quote.email, previousStatus: quote.status, organization: org.name },
        ip,
      });
    },
  });
  return { ...created, quote: await getQuote(ctx, quoteId) };
}
