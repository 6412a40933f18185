import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sites } from '../db/schema';
import type { AuditActor } from '../audit/write-audit';
import { requireAuth, requireOrgAccess } from './auth';
import { AppError, notFound } from './errors';

/**
 * The scope of a gate route (`/api/sites/:siteId/...`): which site, of which organization, who is
 * asking and as what. Dock staff (org admins, dockmasters, security staff) of the site's
 * organization pass; anyone else gets 404, anonymous callers 401. Platform staff read the gate and
 * change nothing (403, see requireOrgAccess). `role` tells the gate what the caller may do there
 * (security staff check vehicles in and out, nothing more).
 */
export type SiteScope = {
  siteId: string;
  orgId: string;
  userId: string;
  /** 'org_admin' (platform admins act as org admins), 'dockmaster' or 'security'. */
  role: 'org_admin' | 'dockmaster' | 'security';
  isPlatformAdmin: boolean;
  auditActor: AuditActor;
};

declare module 'fastify' {
  interface FastifyRequest {
    siteScope: SiteScope | null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GATE_ROLES = ['org_admin', 'dockmaster', 'security'] as const;

/** Registers the site scope for every route of `app` (an encapsulated plugin with the prefix `/api/sites/:siteId`). */
export function registerSiteScope(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('siteScope', null);
  app.addHook('onRequest', async (request) => {
    const auth = requireAuth(request);
    const { siteId } = request.params as { siteId?: string };
    if (!siteId || !UUID.test(siteId)) throw notFound('Site');
    const [site] = await ctx.database.db.select({ orgId: sites.orgId, active: sites.active }).from(sites).where(eq(sites.id, siteId));
    if (!site) throw notFound('Site');
    // The organization's tenant rule (plugins/auth.ts), including platform staff's read-only
    // access; only its "not found" is reworded for the site.
    const access = await requireOrgAccess(ctx, request, site.orgId).catch((error: unknown) => {
      throw error instanceof AppError && error.statusCode === 404 ? notFound('Site') : error;
    });
    const role = access.isPlatformAdmin ? 'org_admin' : access.role;
    if (!(GATE_ROLES as readonly string[]).includes(role)) throw notFound('Site');
    request.siteScope = {
      siteId,
      orgId: site.orgId,
      userId: auth.user.id,
      role: role as SiteScope['role'],
      isPlatformAdmin: access.isPlatformAdmin,
      auditActor: { id: auth.user.id, email: auth.user.email, role: access.role },
    };
  });
}

/** The scope set by registerSiteScope (a route outside the scoped plugin has none: a bug). */
export function siteScope(request: FastifyRequest): SiteScope {
  if (!request.siteScope) throw new Error('siteScope: route is not under the site scope');
  return request.siteScope;
}
