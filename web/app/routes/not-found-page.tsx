import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../../lib/use-page-title';
import { paths } from '../paths';

/** Spec §2: any unknown path. The missing path is logged to the console. */
export default function NotFoundPage() {
  const location = useLocation();
  usePageTitle('Page not found');
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <Center mih="100vh" bg="gray.0" component="main">
      <Stack align="center" gap="md">
        <Title order={1} fz={64}>
          404
        </Title>
        <Text fz="xl" c="dimmed">
          Oops! Page not found
        </Text>
        <Anchor component={Link} to={paths.home} fw={600} underline="always">
          Return to Home
        </Anchor>
      </Stack>
    </Center>
  );
}
