import {
  IconBan,
  IconBuildingWarehouse,
  IconCalendarEvent,
  IconChartBar,
  IconClipboardList,
  IconRepeat,
  IconLayoutDashboard,
  IconActivity,
  IconScan,
  IconSettings,
  IconUsersGroup,
  IconLicense,
} from '@tabler/icons-react';
import { OrgSelectionBanner } from '../../features/org/components/org-selection-banner';
import { OrgSiteSelectors } from '../../features/org/components/org-site-selectors';
import { OrgSelectionProvider } from '../../features/org/hooks/org-selection-provider';
import { useOrgSelection } from '../../features/org/hooks/use-org-selection';
import { useRealtimeInvalidation } from '../../lib/realtime';
import { paths } from '../paths';
import { AreaShell, type AreaNavItem } from './area-shell';

const icon = { size: 18, 'aria-hidden': true } as const;

const navItems: AreaNavItem[] = [
  { label: 'Dashboard', to: paths.org.dashboard, icon: <IconLayoutDashboard {...icon} /> },
  { label: 'Schedule', to: paths.org.schedule, icon: <IconCalendarEvent {...icon} /> },
  { label: 'Bookings', to: paths.org.bookings, icon: <IconClipboardList {...icon} /> },
  { label: 'Standing bookings', to: paths.org.standingBookings, icon: <IconRepeat {...icon} /> },
  { label: 'Bays', to: paths.org.bays, icon: <IconBuildingWarehouse {...icon} /> },
  { label: 'Blackouts', to: paths.org.blackouts, icon: <IconBan {...icon} /> },
  { label: 'Tenants', to: paths.org.tenants, icon: <IconUsersGroup {...icon} /> },
  { label: 'Live Operations', to: paths.org.opsLive, icon: <IconActivity {...icon} /> },
  { label: 'Plate Scanner', to: paths.org.opsScan, icon: <IconScan {...icon} /> },
  { label: 'Reports', to: paths.org.reports, icon: <IconChartBar {...icon} /> },
  { label: 'Settings', to: paths.org.settings, icon: <IconSettings {...icon} /> },
  { label: 'Number Plates', to: paths.org.numberPlates, icon: <IconLicense {...icon} /> },
];

/** Every screen of the area stays live: changes pushed by the server refetch what they touch. */
function LiveUpdates() {
  const { selectedOrg } = useOrgSelection();
  // The whole organization: screens filter by site themselves, and the dashboard shows all sites.
  useRealtimeInvalidation(selectedOrg?.id);
  return null;
}

/** /org/* and /orgadmin/*: the organization area, with organization and site selectors. */
export function OrgLayout() {
  return (
    <OrgSelectionProvider>
      <LiveUpdates />
      <AreaShell
        areaName="Organization"
        homePath={paths.org.dashboard}
        loginPath={paths.orgadmin.login}
        navItems={navItems}
        headerControls={<OrgSiteSelectors />}
        banner={<OrgSelectionBanner />}
      />
    </OrgSelectionProvider>
  );
}
