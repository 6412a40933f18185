import type { AppContext } from '../../context';
import type { AuthContext, OrgAccess } from '../../plugins/auth';
import * as repo from './organizations.repo';

// The organization and site selectors of the signed-in areas (spec §4, §6, §7).

/**
 * The caller's organizations: active (not suspended) ones with an active membership, by name.
 * Platform admins see only organizations they are members of here; they reach the others through
 * the super-admin area. An impersonation session sees the one organization it was started for.
 */
export function listMyOrganizations(ctx: AppContext, auth: AuthContext) {
  return repo.listMemberOrganizations(ctx.database.db, auth.user.id, auth.impersonator ? auth.orgId : null);
}

/** Active sites of an organization the caller may access (checked by requireOrgAccess). */
export function listSites(ctx: AppContext, access: OrgAccess) {
  return repo.listActiveSites(ctx.database.db, access.orgId);
}
