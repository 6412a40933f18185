import { Stack, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title';
import { TsrConnectionsSection } from '../components/tsr-connections-section';
import { WebhooksSection } from '../components/webhooks-section';

// /org/settings/webhooks (issue 13, h-hooks): the Webhooks and TSR link sections on a page of their
// own until the Integrations panel (another helper's) takes them in as sections of Settings › Integrations.

export default function WebhooksPage() {
  usePageTitle('Webhooks');
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Integrations
      </Title>
      <WebhooksSection />
      <TsrConnectionsSection />
    </Stack>
  );
}
