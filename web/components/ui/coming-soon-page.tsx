import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * A screen that belongs to a later release: its title and a plain line, never sample figures.
 */
export function ComingSoonPage({ title, description }: { title: string; description?: string }) {
  usePageTitle(title);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Paper withBorder p="xl" radius="md">
        <Stack align="center" gap="xs" py="lg">
          <IconHourglassEmpty size={36} aria-hidden color="var(--mantine-color-gray-6)" />
          <Text fw={600}>Coming soon — this screen is part of a later release.</Text>
          {description ? (
            <Text c="dimmed" ta="center" maw={520}>
              {description}
            </Text>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}
