import { Box, Group, Loader, Paper, Text } from '@mantine/core';
import { useNavigation } from 'react-router';

/** While the next screen's code loads, a small 'Loading...' badge; the current screen stays. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state !== 'loading') return null;
  return (
    <Box pos="fixed" top={12} left="50%" style={{ transform: 'translateX(-50%)', zIndex: 1000 }}>
      <Paper shadow="md" radius="xl" px="md" py={6} withBorder role="status" aria-live="polite">
        <Group gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm">Loading...</Text>
        </Group>
      </Paper>
    </Box>
  );
}
