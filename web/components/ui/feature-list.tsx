import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export type FeatureItem = { title: string; description: string; icon: ReactNode };

/** A grid of icon + title + sentence cards (capabilities, tools). */
export function FeatureList({ items, cols = 2, headingOrder = 3 }: { items: FeatureItem[]; cols?: number; headingOrder?: 2 | 3 | 4 }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: cols }} spacing="sm">
      {items.map((item) => (
        <Paper key={item.title} withBorder radius="md" p="md">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
              {item.icon}
            </ThemeIcon>
            <div>
              <Text fw={700} size="sm" component={`h${headingOrder}`} m={0}>
                {item.title}
              </Text>
              <Text size="sm" c="dimmed" mt={2}>
                {item.description}
              </Text>
            </div>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
