import { isPlatformRole, ORG_ROLES } from '../../../domain/enums';
import type { Area } from '../paths';

const isOrgRole = (role: string | null) => !!role && (ORG_ROLES as readonly string[]).includes(role);

/**
 * Who may enter each area: platform roles everywhere; organization roles (org_admin, dockmaster,
 * security) in the organization and dockmaster areas. The server enforces the same per route;
 * this only spares people a screen full of errors.
 */
export function canEnterArea(area: Area, role: string | null): boolean {
  if (isPlatformRole(role)) return true;
  if (area === 'superadmin') return false;
  return isOrgRole(role);
}
