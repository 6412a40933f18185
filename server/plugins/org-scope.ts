import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrgRole } from '../../domain/enums';
import type { LifecycleActor } from '../../domain/booking-lifecycle';
import type { AppContext } from '../context';
import type { AuditActor } from '../audit/write-audit';
import { requireAuth, requireOrgAccess } from './auth';
import { forbidden, notFound } from './errors';

/**
 * The tenant scope of an organization route: which organization, who is asking and as what. Every
 * route under `/api/orgs/:orgId/` gets it from the session before its handler runs; repositories
 * take it instead of a bare id, so a query cannot forget the organization.
 */
export type OrgScope = {
  orgId: string;
  userId: string;
  role: string;
  isPlatformAdmin: boolean;
  /**
   * How the lifecycle table knows this caller: platform staff read as organization admins (their
   * writes never get this far: requireOrgAccess answers 403 first).
   */
  actor: Extract<LifecycleActor, 'org_admin' | 'dockmaster'>;
  /** For the audit log. */
  auditActor: AuditActor;
};

declare module 'fastify' {
  interface FastifyRequest {
    orgScope: OrgScope | null;
  }
}

/** Roles that see an organization's workspace; security staff have no admin area (404, as for strangers). */
const WORKSPACE_ROLES: OrgRole[] = ['org_admin', 'dockmaster'];

/**
 * Registers the scope for every route of `app` (an encapsulated plugin registered with the prefix
 * `/api/orgs/:orgId`): anonymous or expired → 401; not a member of an active organization (or
 * security staff) → 404, never data; platform staff read, and any change they send answers 403
 * (requireOrgAccess: they change an organization only by acting as a member). Runs before
 * validation, so a stranger learns nothing from a 400 either, and a refused write runs nothing.
 */
export function registerOrgScope(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('orgScope', null);
  app.addHook('onRequest', async (request) => {
    const auth = requireAuth(request);
    const { orgId } = request.params as { orgId?: string };
    const access = await requireOrgAccess(ctx, request, orgId ?? '');
    if (!access.isPlatformAdmin && !WORKSPACE_ROLES.includes(access.role as OrgRole)) throw notFound('Organization');
    request.orgScope = {
      orgId: access.orgId,
      userId: auth.user.id,
      role: access.role,
      isPlatformAdmin: access.isPlatformAdmin,
      actor: access.isPlatformAdmin || access.role === 'org_admin' ? 'org_admin' : 'dockmaster',
      auditActor: { id: auth.user.id, email: auth.user.email, role: access.role },
    };
  });
}

/** Writes to the organization's setup are for its admins: others get 403. */
export function requireOrgAdmin(scope: OrgScope): void {
  if (scope.actor !== 'org_admin') throw forbidden('Only organization admins can make this change');
}

/** The scope set by registerOrgScope (a route outside the scoped plugin has none: a bug). */
export function orgScope(request: FastifyRequest): OrgScope {
  if (!request.orgScope) throw new Error('orgScope: route is not under the organization scope');
  return request.orgScope;
}
