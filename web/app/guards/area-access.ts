import { canUseScreen, firstScreenFor, screenOf } from '../../../domain/area-permissions';
import { homePathForRole, isPlatformRole } from '../../../domain/enums';
import { loginPathForArea, type Area } from '../paths';

/**
 * Who may enter each area: platform roles the super-admin area only; organization roles the
 * organization and dock areas where they may use at least one screen (domain/area-permissions.ts,
 * the same table the server's permissions follow). This only spares people screens they cannot use.
 */
export function canEnterArea(area: Area, role: string | null): boolean {
  if (area === 'superadmin') return isPlatformRole(role);
  return firstScreenFor(role, area) !== null;
}

/**
 * Where a signed-in user asking for `pathname` should go instead, or null when they may stay:
 * anyone without a platform role asking for a super-admin screen goes to /superadmin, the
 * super-admin sign-in (spec §2 "Super admin dashboard"; it is outside the guard, so no loop);
 * other areas send a stranger home, and a screen of the area they may not use to the first one
 * they may.
 */
export function redirectFor(area: Area, role: string | null, pathname: string): string | null {
  if (area === 'superadmin') return canEnterArea(area, role) ? null : loginPathForArea.superadmin;
  if (!canEnterArea(area, role)) return homePathForRole(role);
  const screen = screenOf(pathname);
  if (!screen || canUseScreen(role, screen)) return null;
  return firstScreenFor(role, area);
}
