import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/ui/page-loader';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { loginPathForArea, type Area } from '../paths';
import { redirectFor } from './area-access';

/**
 * Route guard: signed-out visitors go to the area's login; a signed-in user whose role does not
 * belong in the area goes to their own home.
 */
export function RequireArea({ area }: { area: Area }) {
  const { isLoading, session, role, isRoleLoading } = useAuth();
  const location = useLocation();
  if (isLoading || (session && isRoleLoading)) return <PageLoader minHeight="100vh" />;
  if (!session) {
    return <Navigate to={loginPathForArea[area]} replace state={{ from: location.pathname + location.search }} />;
  }
  const redirect = redirectFor(area, role, location.pathname);
  if (redirect && redirect !== location.pathname) return <Navigate to={redirect} replace />;
  return <Outlet />;
}
