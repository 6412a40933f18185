import { BILLING_SUPPORT_READ_ONLY, canManageBilling } from '../../../domain/billing';
import type { AuditActor } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { forbidden, notFound } from '../../plugins/errors';
import * as repo from './billing.repo';

// Plans, organizations' plans, invoices and revenue for the platform's administrators (issue 12;
// docs/decisions/022-billing.md): plans.service.ts, organization-plan.service.ts,
// invoices.service.ts, invoice-run.service.ts, revenue.service.ts. Every platform role reads;
// super admins and platform owners write. Every write is one transaction with its audit entry.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const actorOf = (auth: AuthContext): AuditActor => ({ id: auth.user.id, email: auth.user.email, role: auth.user.platformRole });

/** Writes are for super admins and platform owners; platform support reads. */
export function requireManager(auth: AuthContext): void {
  if (!canManageBilling(auth.user.platformRole)) throw forbidden(BILLING_SUPPORT_READ_ONLY);
}

/** An id that is not a uuid names nothing (404, not a database error). */
export function requireId(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

export async function existingOrganization(ctx: AppContext, orgId: string) {
  requireId(orgId, 'Organization');
  const org = await repo.findOrganization(ctx.database.db, orgId);
  if (!org) throw notFound('Organization');
  return org;
}
