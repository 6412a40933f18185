import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq } from 'drizzle-orm';
import { MFA_ENROLMENT_REQUIRED } from '../../domain/auth-schemas';
import { isPlatformRole, type OrgRole, type PlatformRole } from '../../domain/enums';
import { isReadMethod, PLATFORM_READ_ONLY_CODE, PLATFORM_READ_ONLY_MESSAGE } from '../../domain/tenant-access';
import type { AppContext } from '../context';
import { organizations, orgMemberships } from '../db/schema';
import { AppError, notFound, unauthorized } from './errors';
import { runWithRequestActor } from '../audit/actor-context';
import { verifyAccessToken } from '../auth/tokens';

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
  /** When the session ends (an impersonation's 30 minutes, or the refresh-token lifetime). */
  sessionExpiresAt: Date;
  /** The platform user acting as `user` (impersonation, decision 017), if any. */
  impersonator: { id: string; email: string } | null;
  /**
   * A platform user who has not enrolled in two-factor sign-in while the platform requires it
   * (decision 018): the session reaches the enrolment routes and nothing else.
   */
  mfaEnrolmentRequired: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const IMPERSONATION_FORBIDDEN = 'Not available while acting as another user. End the impersonation first.';

/** What a session that must enrol in two-factor sign-in may still reach (besides public routes). */
const ENROLMENT_ROUTES = new Set([
  'GET /api/auth/user',
  'POST /api/auth/logout',
  'POST /api/rpc/get_current_user_role',
  'GET /api/auth/settings',
]);

/** Routes an impersonation session may not use: the platform's, and the account's own credentials. */
function isClosedToImpersonation(method: string, route: string): boolean {
  return route.startsWith('/api/platform/') || route.startsWith('/api/auth/mfa') || (method === 'PUT' && route === '/api/auth/user');
}

function isOpenDuringEnrolment(method: string, route: string): boolean {
  return (
    ENROLMENT_ROUTES.has(`${method} ${route}`) ||
    route.startsWith('/api/auth/mfa') ||
    route.startsWith('/api/public/') ||
    route === '/api/health'
  );
}

/**
 * Reads `Authorization: Bearer <access token>` on every request, verifies the JWT and that its
 * session is still live (sign-out revokes at once), and sets request.auth. Routes decide with the
 * guards below; two kinds of session are limited here, for every route at once:
 * - an impersonation session never reaches /api/platform/* nor the account's password and
 *   two-factor settings (403), and its handler runs with the platform user in the audit context;
 * - a platform user who must enrol in two-factor sign-in reaches the enrolment routes only (403).
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.toLowerCase().startsWith('bearer ')) return;
    const auth = await verifyAccessToken(opts.ctx, header.slice(7).trim());
    request.auth = auth;
    if (!auth) return;
    const route = request.routeOptions.url ?? request.url.split('?')[0]!;
    if (auth.impersonator && isClosedToImpersonation(request.method, route)) {
      throw new AppError(403, 'impersonation_forbidden', IMPERSONATION_FORBIDDEN);
    }
    if (auth.mfaEnrolmentRequired && !isOpenDuringEnrolment(request.method, route)) {
      throw new AppError(403, 'mfa_enrolment_required', MFA_ENROLMENT_REQUIRED);
    }
  });
  // The handler (and all it awaits) runs with the impersonator in the audit context, so every
  // entry it writes names both users. A callback hook: `done` continues the chain inside run().
  app.addHook('preHandler', (request, _reply, done) => {
    const impersonator = request.auth?.impersonator;
    if (impersonator) runWithRequestActor({ impersonator }, done);
    else done();
  });
});

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function requirePlatformAdmin(request: FastifyRequest, roles?: PlatformRole[]): AuthContext {
  const auth = requireAuth(request);
  const role = auth.user.platformRole;
  if (auth.impersonator) throw new AppError(403, 'impersonation_forbidden', IMPERSONATION_FORBIDDEN);
  if (auth.mfaEnrolmentRequired) throw new AppError(403, 'mfa_enrolment_required', MFA_ENROLMENT_REQUIRED);
  if (!isPlatformRole(role) || (roles && !roles.includes(role))) {
    throw new AppError(403, 'forbidden', 'Platform administrator access required');
  }
  return auth;
}

export type OrgAccess = { orgId: string; role: OrgRole | PlatformRole; isPlatformAdmin: boolean };

/**
 * Tenant scope: the caller must hold an active membership (optionally one of `roles`) in an
 * active, not suspended organization. Anything else answers 404, so another tenant's data is
 * indistinguishable from data that does not exist.
 *
 * Platform roles read any organization that exists, and change none (decision 029): a request
 * that is not a read (GET, HEAD, OPTIONS) answers 403 `platform_read_only` before anything runs.
 * A platform user changes an organization only by acting as one of its members (an impersonation
 * session is the member's, so it takes the membership path below). This is the one place the rule
 * lives: the organization scope (plugins/org-scope.ts), the site scope (plugins/site-scope.ts)
 * and the few organization routes outside them all come through here.
 */
export async function requireOrgAccess(
  ctx: AppContext,
  request: FastifyRequest,
  orgId: string,
  roles?: OrgRole[],
): Promise<OrgAccess> {
  const access = await checkOrgAccess(ctx, requireAuth(request), orgId, roles);
  if (access.isPlatformAdmin && !isReadMethod(request.method)) {
    throw new AppError(403, PLATFORM_READ_ONLY_CODE, PLATFORM_READ_ONLY_MESSAGE);
  }
  return access;
}

/**
 * requireOrgAccess for a caller already authenticated outside a request: the realtime socket,
 * which only reads (a platform role may follow any organization's events).
 */
export async function checkOrgAccess(ctx: AppContext, auth: AuthContext, orgId: string, roles?: OrgRole[]): Promise<OrgAccess> {
  if (!/^[0-9a-f-]{36}$/i.test(orgId)) throw notFound('Organization');
  // A platform session that must enrol in two-factor sign-in first reaches no organization (HTTP
  // requests are refused with 403 by the hook above; this covers the realtime socket too).
  if (auth.mfaEnrolmentRequired) throw notFound('Organization');
  // An impersonation covers the one organization it was started for.
  if (auth.impersonator && auth.orgId !== orgId) throw notFound('Organization');
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
