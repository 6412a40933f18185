import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { reportError } from '../../lib/error-reporter';
import { paths } from '../paths';

/** Shown when a screen fails to load or render (e.g. an outdated tab after a new release). */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Route error:', error);
    // A screen that failed to load or render is a fault to look at (error monitoring); a 404 or
    // another answer a loader gave on purpose is not.
    if (!isRouteErrorResponse(error)) reportError(error, 'render');
  }, [error]);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'This screen could not be loaded. Reload the page to try again.';
  return (
    <Center mih="100vh" component="main">
      <Stack align="center" gap="md" maw={480} px="md">
        <Title order={1} size="h2">
          Something went wrong
        </Title>
        <Text c="dimmed" ta="center">
          {message}
        </Text>
        <Stack gap="xs" align="center">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button component={Link} to={paths.home} variant="subtle" reloadDocument>
            Return to Home
          </Button>
        </Stack>
      </Stack>
    </Center>
  );
}
