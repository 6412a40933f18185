import { Stack, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title';
import { WebhooksSection } from '../components/webhooks-section';

// /org/settings/webhooks (issue 13, h-hooks): the Webhooks section on a page of its own until the
// Integrations panel (another helper's) takes it in as a section of Settings › Integrations.

export default function WebhooksPage() {
  usePageTitle('Webhooks');
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Integrations
      </Title>
      <WebhooksSection />
    </Stack>
  );
}
