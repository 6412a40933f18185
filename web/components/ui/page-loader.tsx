import { Center, Group, Loader, Text } from '@mantine/core';

/** The spec's lazy-loading indicator: the text 'Loading...' with a spinner. */
export function PageLoader({ minHeight = '50vh' }: { minHeight?: string | number }) {
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>Loading...</Text>
      </Group>
    </Center>
  );
}
