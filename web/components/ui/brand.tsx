import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconTruckLoading } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The Baywise word mark; links home unless told otherwise. */
export function Brand({ to = '/', suffix }: { to?: string; suffix?: string }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label={suffix ? `Baywise ${suffix} home` : 'Baywise home'}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={32} radius="md" variant="filled" aria-hidden>
          <IconTruckLoading size={20} />
        </ThemeIcon>
        <Text fw={800} size="lg" c="indigo.9">
          Baywise
        </Text>
        {suffix ? (
          <Text size="sm" c="dimmed" visibleFrom="xs">
            {suffix}
          </Text>
        ) : null}
      </Group>
    </UnstyledButton>
  );
}
