import { Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export type FormSectionProps = {
  title: string;
  icon?: ReactNode;
  description?: ReactNode;
  children: ReactNode;
};

/** One card of the booking request form. */
export function FormSection({ title, icon, description, children }: FormSectionProps) {
  const headingId = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Group gap="xs" wrap="nowrap" mb={description ? 2 : 'md'}>
        {icon}
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
      </Group>
      {description ? (
        <Text size="sm" c="gray.7" mb="md">
          {description}
        </Text>
      ) : null}
      {children}
    </Card>
  );
}
