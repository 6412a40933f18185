import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sites } from '../db/schema';
import { checkOrgAccess } from '../plugins/auth';
import { AppError } from '../plugins/errors';
import { verifyAccessToken } from '../auth/tokens';
import type { RealtimeFilter } from './hub';

export type SubscriptionDecision =
  | { outcome: 'granted'; filter: RealtimeFilter }
  /** The session was signed out or expired since the socket opened. */
  | { outcome: 'signed_out' }
  | { outcome: 'not_found'; message: string };

/**
 * The same tenant rule as every org route (requireOrgAccess): no active membership and not a
 * platform admin reads as "does not exist". The token is verified again, so a sign-out in the
 * meantime ends the socket instead of letting it follow another organization.
 */
export async function authorizeSubscription(
  ctx: AppContext,
  token: string,
  request: { orgId: string; siteId: string | null },
): Promise<SubscriptionDecision> {
  const auth = await verifyAccessToken(ctx, token);
  if (!auth) return { outcome: 'signed_out' };
  try {
    await checkOrgAccess(ctx, auth, request.orgId);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return { outcome: 'not_found', message: error.message };
    throw error;
  }
  if (request.siteId && !(await siteBelongsTo(ctx, request.siteId, request.orgId))) {
    return { outcome: 'not_found', message: 'Site not found' };
  }
  return { outcome: 'granted', filter: { orgId: request.orgId, siteId: request.siteId } };
}

async function siteBelongsTo(ctx: AppContext, siteId: string, orgId: string): Promise<boolean> {
  const [row] = await ctx.database.db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.orgId, orgId)));
  return row !== undefined;
}
