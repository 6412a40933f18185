import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq } from 'drizzle-orm';
import { isPlatformRole, type OrgRole, type PlatformRole } from '../../domain/enums';
import type { AppContext } from '../context';
import { organizations, orgMemberships } from '../db/schema';
import { AppError, notFound, unauthorized } from './errors';
import { verifyAccessToken } from '../modules/auth/tokens';

export type AuthUser = {
  id: string;
  email: string;
  fullName: string | null;
  platformRole: PlatformRole | null;
};

export type AuthContext = {
  user: AuthUser;
  sessionId: string;
  /** Organization and site chosen at sign-in (org admin / dockmaster logins), if any. */
  orgId: string | null;
  siteId: string | null;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * Reads `Authorization: Bearer <access token>` on every request, verifies the JWT and that its
 * session is still live (sign-out revokes at once), and sets request.auth. Never throws:
 * routes decide with the guards below.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.toLowerCase().startsWith('bearer ')) return;
    request.auth = await verifyAccessToken(opts.ctx, header.slice(7).trim());
  });
});

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function requirePlatformAdmin(request: FastifyRequest, roles?: PlatformRole[]): AuthContext {
  const auth = requireAuth(request);
  const role = auth.user.platformRole;
  if (!isPlatformRole(role) || (roles && !roles.includes(role))) {
    throw new AppError(403, 'forbidden', 'Platform administrator access required');
  }
  return auth;
}

export type OrgAccess = { orgId: string; role: OrgRole | PlatformRole; isPlatformAdmin: boolean };

/**
 * Tenant scope: the caller must hold an active membership (optionally one of `roles`) in an
 * active, not suspended organization. Platform admins pass for any organization. Anything else answers 404,
 * so another tenant's data is indistinguishable from data that does not exist.
 */
export async function requireOrgAccess(
  ctx: AppContext,
  request: FastifyRequest,
  orgId: string,
  roles?: OrgRole[],
): Promise<OrgAccess> {
  return checkOrgAccess(ctx, requireAuth(request), orgId, roles);
}

/** requireOrgAccess for a caller already authenticated outside a request (the realtime socket). */
export async function checkOrgAccess(ctx: AppContext, auth: AuthContext, orgId: string, roles?: OrgRole[]): Promise<OrgAccess> {
  if (!/^[0-9a-f-]{36}$/i.test(orgId)) throw notFound('Organization');
  if (isPlatformRole(auth.user.platformRole)) {
    const [org] = await ctx.database.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    if (!org) throw notFound('Organization');
    return { orgId, role: auth.user.platformRole, isPlatformAdmin: true };
  }
  const [row] = await ctx.database.db
    .select({ role: orgMemberships.role })
    .from(orgMemberships)
    .innerJoin(organizations, eq(organizations.id, orgMemberships.orgId))
    .where(
      and(
        eq(orgMemberships.orgId, orgId),
        eq(orgMemberships.userId, auth.user.id),
        eq(orgMemberships.active, true),
        eq(organizations.active, true),
        // A suspended (or otherwise not active) organization is closed to its members, whatever session they hold (issue 12).
        eq(organizations.status, 'active'),
      ),
    );
  if (!row) throw notFound('Organization');
  if (roles && !roles.includes(row.role as OrgRole)) {
    throw new AppError(403, 'forbidden', 'Your role does not allow this action');
  }
  return { orgId, role: row.role as OrgRole, isPlatformAdmin: false };
}
