import { Group, Paper, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconActivity, IconCalendarEvent, IconChartBar, IconClipboardList } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Tool = { title: string; description: string; to: string; icon: ReactNode };

const tools: Tool[] = [
  { title: 'Schedule', description: 'The day and week schedule of every bay.', to: '/org/schedule', icon: <IconCalendarEvent size={20} /> },
  { title: 'Bookings', description: 'Review, approve and decline booking requests.', to: '/org/bookings', icon: <IconClipboardList size={20} /> },
  { title: 'Live Operations', description: 'Arrivals, check-ins and bay status as they happen.', to: '/org/ops/live', icon: <IconActivity size={20} /> },
  { title: 'Reports', description: 'Bay utilisation, on-time arrival, dwell and turn time, no-shows.', to: '/org/reports', icon: <IconChartBar size={20} /> },
];

/** The four tools an administrator goes to from here. */
export function ToolCards() {
  return (
    <section aria-labelledby="tools-heading">
      <Text component="h2" fw={700} size="lg" id="tools-heading" mb="sm" mt={0}>
        Tools
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        {tools.map((tool) => (
          <UnstyledButton key={tool.title} component={Link} to={tool.to}>
            <Paper withBorder radius="md" p="md" h="100%">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
                  {tool.icon}
                </ThemeIcon>
                <div>
                  <Text fw={700} size="sm">
                    {tool.title}
                  </Text>
                  <Text size="sm" c="dimmed" mt={2}>
                    {tool.description}
                  </Text>
                </div>
              </Group>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </section>
  );
}
