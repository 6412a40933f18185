import { Badge } from '@mantine/core';
import { IconLayoutDashboard, IconListNumbers, IconScan } from '@tabler/icons-react';
import { STORAGE_KEYS } from '../../../domain/constants';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { useRealtimeInvalidation } from '../../lib/realtime';
import { readJson } from '../../lib/storage';
import { paths } from '../paths';
import { AreaShell, type AreaNavItem } from './area-shell';

const navItems: AreaNavItem[] = [
  { label: 'Dashboard', to: paths.dockmaster.dashboard, icon: <IconLayoutDashboard size={18} aria-hidden /> },
  { label: 'Plate Scanner', to: paths.dockmaster.scan, icon: <IconScan size={18} aria-hidden /> },
  { label: 'Gate Queue', to: paths.dockmaster.queue, icon: <IconListNumbers size={18} aria-hidden /> },
];

/**
 * /dockmaster/*: site operations. The site chosen at sign-in is shown in the header, and the area
 * is named for who staffs it: "Dock Master", or "Security" for security staff.
 */
export function DockmasterLayout() {
  const { role } = useAuth();
  const site = readJson<{ id: string; name: string }>(STORAGE_KEYS.selectedSite);
  const org = readJson<{ id: string; name: string }>(STORAGE_KEYS.selectedOrg);
  // Live updates: booking, bay and site events of the organization refresh the gate's queries.
  useRealtimeInvalidation(org?.id, site?.id);
  return (
    <AreaShell
      areaName={role === 'security' ? 'Security' : 'Dock Master'}
      homePath={paths.dockmaster.dashboard}
      loginPath={paths.dockmaster.login}
      navItems={navItems}
      headerControls={
        site ? (
          <Badge variant="light" size="lg" radius="sm">
            Site: {site.name}
          </Badge>
        ) : undefined
      }
    />
  );
}
