import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/ui/page-loader';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { homePathForRole, isPlatformRole } from '../../../domain/enums';
import { loginPathForArea, type Area } from '../paths';
import { redirectFor } from './area-access';

/**
 * Route guard: signed-out visitors go to the area's login; a signed-in user whose role does not
 * belong in the area goes to their own home.
 */
export function RequireArea({ area }: { area: Area }) {
  const { isLoading, session, role, isRoleLoading, impersonation } = useAuth();
  const location = useLocation();
  if (isLoading || (session && isRoleLoading)) return <PageLoader minHeight="100vh" />;
  if (!session) {
    return <Navigate to={loginPathForArea[area]} replace state={{ from: location.pathname + location.search }} />;
  }
  // A platform user who just started acting as a member is still on a platform screen: on to the
  // member's home, not to the platform sign-in (which a member would otherwise be sent to).
  if (area === 'superadmin' && impersonation && !isPlatformRole(role)) return <Navigate to={homePathForRole(role)} replace />;
  const redirect = redirectFor(area, role, location.pathname);
  if (redirect && redirect !== location.pathname) return <Navigate to={redirect} replace />;
  return <Outlet />;
}
