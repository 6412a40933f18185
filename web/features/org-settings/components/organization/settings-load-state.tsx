import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../../lib/api-client';
import type { useOrgSettings } from '../../api/settings-api';

/**
 * What a settings section shows before its data is there: no organization chosen, loading, or a
 * load error with a retry. Null once the settings are loaded (`what`: 'the booking policy').
 */
export function settingsLoadState(hasOrg: boolean, settings: ReturnType<typeof useOrgSettings>, what: string): ReactNode | null {
  if (!hasOrg) return <Text c="dimmed">Choose an organization to see its settings.</Text>;
  if (settings.isLoading) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={`Loading ${what}`} />
      </Group>
    );
  }
  if (settings.isError || !settings.data) {
    return (
      <Alert color="red" title={`Could not load ${what}`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(settings.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return null;
}
