import {
  IconBuildingSkyscraper,
  IconChartBar,
  IconFileInvoice,
  IconLayoutDashboard,
  IconListDetails,
  IconSettings,
} from '@tabler/icons-react';
import { paths } from '../paths';
import { AreaShell, type AreaNavItem } from './area-shell';

const navItems: AreaNavItem[] = [
  { label: 'Dashboard', to: paths.superadmin.dashboard, icon: <IconLayoutDashboard size={18} aria-hidden /> },
  { label: 'Organizations', to: paths.superadmin.organizations, icon: <IconBuildingSkyscraper size={18} aria-hidden /> },
  { label: 'Plans & Billing', to: paths.superadmin.plans, icon: <IconFileInvoice size={18} aria-hidden /> },
  { label: 'Usage Analytics', to: paths.superadmin.usage, icon: <IconChartBar size={18} aria-hidden /> },
  { label: 'Audit Log', to: paths.superadmin.audit, icon: <IconListDetails size={18} aria-hidden /> },
  { label: 'Settings', to: paths.superadmin.settings, icon: <IconSettings size={18} aria-hidden /> },
];

/** /superadmin/*: platform administrators only. */
export function SuperAdminLayout() {
  return (
    <AreaShell
      areaName="Super Admin"
      homePath={paths.superadmin.dashboard}
      loginPath={paths.superadmin.login}
      navItems={navItems}
    />
  );
}
