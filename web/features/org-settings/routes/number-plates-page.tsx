import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useOrgSettings } from '../api/settings-api';
import { KioskDevicesCard } from '../components/kiosk/kiosk-devices-card';
import { CameraTokensCard } from '../components/number-plates/camera-tokens-card';
import { PlateMatchingForm } from '../components/number-plates/plate-matching-form';

// /org/settings/number-plates: how plate reads match expected vehicles, whether a match checks
// in automatically, the webhook tokens of the sites' ANPR cameras, and the gate kiosks (decision 041).

export default function NumberPlatesPage() {
  usePageTitle('Number Plate Recognition');
  const { selectedOrg, sites, selectedSite } = useOrgSelection();
  const settings = useOrgSettings(selectedOrg?.id);

  let content;
  if (!selectedOrg) {
    content = <Text c="dimmed">Choose an organization to see its number-plate settings.</Text>;
  } else if (settings.isLoading) {
    content = (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the number-plate settings" />
      </Group>
    );
  } else if (settings.isError || !settings.data) {
    content = (
      <Alert color="red" title="Could not load the number-plate settings">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(settings.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    content = (
      <>
        <PlateMatchingForm key={selectedOrg.id} orgId={selectedOrg.id} settings={settings.data.settings.numberPlates} />
        <CameraTokensCard orgId={selectedOrg.id} sites={sites} selectedSiteId={selectedSite?.id ?? null} />
        <KioskDevicesCard orgId={selectedOrg.id} sites={sites} selectedSiteId={selectedSite?.id ?? null} />
      </>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Number Plate Recognition
        </Title>
        <Text c="dimmed" size="sm">
          The plate scanner and the sites’ ANPR cameras match reads against the day’s expected vehicles.{' '}
          <Anchor component={Link} to="/org/settings?tab=policy" size="sm">
            Booking policy and notifications
          </Anchor>
        </Text>
      </div>
      {content}
    </Stack>
  );
}
