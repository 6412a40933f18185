import { Group, Paper, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBuildingSkyscraper, IconChartBar, IconFileInvoice, IconListDetails } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';

type Shortcut = { title: string; description: string; to: string; icon: ReactNode };

const shortcuts: Shortcut[] = [
  { title: 'Organizations', description: 'Every organization, its members, sites, plan and status.', to: paths.superadmin.organizations, icon: <IconBuildingSkyscraper size={20} /> },
  { title: 'Plans & Billing', description: 'Plans, invoices and revenue.', to: paths.superadmin.plans, icon: <IconFileInvoice size={20} /> },
  { title: 'Usage Analytics', description: 'Bookings, sign-ins and storage per organization.', to: paths.superadmin.usage, icon: <IconChartBar size={20} /> },
  { title: 'Audit Log', description: 'Who did what, when, in which organization.', to: paths.superadmin.audit, icon: <IconListDetails size={20} /> },
];

/** Spec §2: shortcut cards to organizations, plans (billing), usage (analytics) and the audit log. */
export function ShortcutCards() {
  return (
    <section aria-labelledby="shortcuts-heading">
      <Text component="h2" fw={700} size="lg" id="shortcuts-heading" mb="sm" mt={0}>
        Shortcuts
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        {shortcuts.map((shortcut) => (
          <UnstyledButton key={shortcut.title} component={Link} to={shortcut.to}>
            <Paper withBorder radius="md" p="md" h="100%">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
                  {shortcut.icon}
                </ThemeIcon>
                <div>
                  <Text fw={700} size="sm">
                    {shortcut.title}
                  </Text>
                  <Text size="sm" c="dimmed" mt={2}>
                    {shortcut.description}
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
