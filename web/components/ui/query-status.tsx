import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api-client';

// A list section's states around its query: a loader while it loads, the server's message with
// Try again when it failed, the empty state when there is nothing, else the content.

type Query = { isLoading: boolean; isError: boolean; error: unknown; refetch: () => unknown };

type Props = {
  query: Query;
  /** The loader's accessible name ("Loading API keys"). */
  loadingLabel: string;
  /** The error's title ("Could not load the API keys"). */
  errorTitle: string;
  isEmpty: boolean;
  /** A sentence (shown dimmed and centred) or a node of its own. */
  empty: ReactNode;
  /** The content, built only once there is data. */
  children: () => ReactNode;
};

export function QueryStatus({ query, loadingLabel, errorTitle, isEmpty, empty, children }: Props) {
  if (query.isLoading) {
    return (
      <Group justify="center" py="lg">
        <Loader aria-label={loadingLabel} />
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title={errorTitle}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(query.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (isEmpty) {
    return typeof empty === 'string' ? (
      <Text c="dimmed" ta="center" py="lg" size="sm">
        {empty}
      </Text>
    ) : (
      empty
    );
  }
  return children();
}
