import {
  IconBuildingSkyscraper,
  IconChartBar,
  IconFileInvoice,
  IconLayoutDashboard,
  IconListDetails,
  IconSettings,
  IconShieldLock,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '../../components/ui/page-loader';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { toast } from '../../lib/toast';
import { paths } from '../paths';
import { AreaShell, type AreaNavItem } from './area-shell';

/** The platform user's own account security: two-factor sign-in (decision 018). */
export const SUPERADMIN_SECURITY_PATH = '/superadmin/security';

const navItems: AreaNavItem[] = [
  { label: 'Dashboard', to: paths.superadmin.dashboard, icon: <IconLayoutDashboard size={18} aria-hidden /> },
  { label: 'Organizations', to: paths.superadmin.organizations, icon: <IconBuildingSkyscraper size={18} aria-hidden /> },
  { label: 'Plans & Billing', to: paths.superadmin.plans, icon: <IconFileInvoice size={18} aria-hidden /> },
  { label: 'Usage Analytics', to: paths.superadmin.usage, icon: <IconChartBar size={18} aria-hidden /> },
  { label: 'Audit Log', to: paths.superadmin.audit, icon: <IconListDetails size={18} aria-hidden /> },
  { label: 'Settings', to: paths.superadmin.settings, icon: <IconSettings size={18} aria-hidden /> },
  { label: 'Security', to: SUPERADMIN_SECURITY_PATH, icon: <IconShieldLock size={18} aria-hidden /> },
];

/**
 * /superadmin/*: platform administrators only. While the platform requires two-factor sign-in and
 * this account has not set it up, only the security screen opens (the server refuses the rest).
 * When an impersonation has just ended, this is where the platform session comes back: it returns
 * to the organization's page.
 */
export function SuperAdminLayout() {
  const currentUser = useCurrentUser();
  const { endedImpersonation, acknowledgeEndedImpersonation } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (!endedImpersonation) return;
    acknowledgeEndedImpersonation();
    toast.info(
      endedImpersonation.outcome === 'expired' ? 'Impersonation expired' : 'Impersonation ended',
      `You are no longer acting as ${endedImpersonation.email}.`,
    );
    navigate(paths.superadmin.organization(endedImpersonation.orgId), { replace: true });
  }, [endedImpersonation, acknowledgeEndedImpersonation, navigate]);

  if (currentUser.isLoading) return <PageLoader minHeight="100vh" />;
  if (currentUser.data?.mfa.enrolmentRequired && location.pathname !== SUPERADMIN_SECURITY_PATH) {
    return <Navigate to={SUPERADMIN_SECURITY_PATH} replace />;
  }
  return (
    <AreaShell
      areaName="Super Admin"
      homePath={paths.superadmin.dashboard}
      loginPath={paths.superadmin.login}
      navItems={navItems}
    />
  );
}
