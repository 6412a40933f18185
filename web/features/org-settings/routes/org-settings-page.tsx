import { Stack, Tabs, Title } from '@mantine/core';
import { IconBuilding, IconBuildingWarehouse, IconHistory, IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title';
import { ActivitySection } from '../components/activity/activity-section';
import { OrganizationSection } from '../components/organization/organization-section';
import { PolicySection } from '../components/organization/policy-section';
import { SitesSection } from '../components/sites/sites-section';
import { TeamSection } from '../components/team/team-section';

// /org/settings: the organization runs itself from here. One tab per area, the tab in the address
// (?tab=sites) so a link can open it and the back button works.

const TABS = [
  { value: 'organization', label: 'Organization', icon: IconBuilding, Section: OrganizationSection },
  { value: 'sites', label: 'Sites & hours', icon: IconBuildingWarehouse, Section: SitesSection },
  { value: 'team', label: 'Team', icon: IconUsers, Section: TeamSection },
  { value: 'policy', label: 'Booking policy & notifications', icon: IconShieldCheck, Section: PolicySection },
  { value: 'activity', label: 'Activity', icon: IconHistory, Section: ActivitySection },
] as const;
type TabValue = (typeof TABS)[number]['value'];

export default function OrgSettingsPage() {
  usePageTitle('Settings');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'organization';
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Settings
      </Title>
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => {
          const next = new URLSearchParams(params);
          next.set('tab', value ?? 'organization');
          setParams(next, { replace: true });
        }}
      >
        <Tabs.List>
          {TABS.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} aria-hidden />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(({ value, Section }) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Section />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
