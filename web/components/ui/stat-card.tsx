import { Group, Paper, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

type StatCardProps = {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  isLoading?: boolean;
  isError?: boolean;
};

/** One figure with its label. Shows a skeleton while loading and 'Error loading data' on failure. */
export function StatCard({ label, value, icon, isLoading, isError }: StatCardProps) {
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          {isLoading ? (
            <Skeleton height={28} width={64} mt={6} />
          ) : isError ? (
            <Text size="sm" c="red.9" mt={6}>
              Error loading data
            </Text>
          ) : (
            <Text fw={700} fz={26} lh={1.3}>
              {value}
            </Text>
          )}
        </div>
        {icon ? (
          <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
            {icon}
          </ThemeIcon>
        ) : null}
      </Group>
    </Paper>
  );
}
