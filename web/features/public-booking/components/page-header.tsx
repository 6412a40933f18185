import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/index';

export type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  backTo?: string;
  backLabel?: string;
  actions?: ReactNode;
};

/** The heading of a public booking page, with an optional Back button ("Back" in the chosen language by default). */
export function PageHeader({ title, description, backTo, backLabel, actions }: PageHeaderProps) {
  const { t } = useT('portal');
  return (
    <Stack gap="xs" mb="lg">
      {backTo ? (
        <Group>
          <Button component={Link} to={backTo} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} px="xs">
            {backLabel ?? t('common.back')}
          </Button>
        </Group>
      ) : null}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" mt={4}>
              {description}
            </Text>
          ) : null}
        </div>
        {actions}
      </Group>
    </Stack>
  );
}
