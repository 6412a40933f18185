import { Alert, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAdjustments, IconBug } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePlatformSettings } from '../api/platform-settings-api';
import { ErrorMonitoringSection } from '../components/error-monitoring-section';
import { PlatformConfigForm } from '../components/platform-config-form';

// /superadmin/settings (issue 12): the platform configuration, and error monitoring on its own tab
// (?tab=errors). Every platform role reads both; super admins and owners change them.

type Tab = 'configuration' | 'errors';

function ConfigurationTab() {
  const settings = usePlatformSettings();
  if (settings.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the platform settings" />
      </Group>
    );
  }
  if (settings.isError) {
    return (
      <Alert color="red" title="Could not load the platform settings" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(settings.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <PlatformConfigForm view={settings.data} />;
}

export default function PlatformSettingsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'errors' ? 'errors' : 'configuration';
  usePageTitle(tab === 'errors' ? 'Error Monitoring' : 'Platform Settings');

  const choose = (value: string | null) =>
    setParams(value === 'errors' ? { tab: 'errors' } : {}, { replace: false });

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Platform Settings
        </Title>
        <Text c="dimmed" size="sm">
          How the platform presents itself and who may join, and the errors people run into.
        </Text>
      </div>
      <Tabs value={tab} onChange={choose} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="configuration" leftSection={<IconAdjustments size={16} aria-hidden />}>
            Configuration
          </Tabs.Tab>
          <Tabs.Tab value="errors" leftSection={<IconBug size={16} aria-hidden />}>
            Error monitoring
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="configuration">
          <ConfigurationTab />
        </Tabs.Panel>
        <Tabs.Panel value="errors">
          <ErrorMonitoringSection />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
