import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconInbox, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { NO_ORGANIZATIONS_TEXT, ORGANIZATIONS_FAILED_TEXT, planLabel, type OrganizationListItem } from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { formatDay } from './format';
import { OrganizationStatusBadge } from './organization-status-badge';

type Props = {
  organizations: OrganizationListItem[] | undefined;
  total: number | undefined;
  isLoading: boolean;
  error: unknown;
  /** Quote requests nobody has followed up yet (a link to the inbox when there are any). */
  newQuotes?: number;
};

/** The first 3 organizations, newest first, with their status colour and plan ('No Plan'). */
export function DashboardOrganizations({ organizations, total, isLoading, error, newQuotes }: Props) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="dashboard-organizations-heading">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <div>
          <Title order={2} size="h4" id="dashboard-organizations-heading">
            Organizations
          </Title>
          <Text size="sm" c="dimmed">
            {total === undefined ? 'Newest first' : `Newest first · ${total} in all`}
          </Text>
        </div>
        <Button component={Link} to={`${paths.superadmin.organizations}?new=1`} size="sm" leftSection={<IconPlus size={16} aria-hidden />}>
          Add New Organization
        </Button>
      </Group>
      {isLoading ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={52} />
          ))}
        </Stack>
      ) : error ? (
        <Text size="sm" c="red.9" role="alert">
          Error loading organizations: {errorMessage(error, ORGANIZATIONS_FAILED_TEXT)}
        </Text>
      ) : !organizations || organizations.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_ORGANIZATIONS_TEXT}
        </Text>
      ) : (
        <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="dashboard-organizations">
          {organizations.map((org) => (
            <Group
              key={org.id}
              component="li"
              justify="space-between"
              wrap="nowrap"
              py="xs"
              gap="sm"
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-organization={org.name}
            >
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={paths.superadmin.organization(org.id)} fw={600} size="sm">
                  {org.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {planLabel(org.plan)} · {org.activeSites} site{org.activeSites === 1 ? '' : 's'} · {org.activeBays} bay{org.activeBays === 1 ? '' : 's'} · since {formatDay(org.createdAt)}
                </Text>
              </div>
              <OrganizationStatusBadge status={org.status} />
            </Group>
          ))}
        </Stack>
      )}
      <Group justify={newQuotes ? 'space-between' : 'flex-end'} mt="sm" wrap="wrap" gap="xs">
        {newQuotes ? (
          <Button component={Link} to={`${paths.superadmin.organizations}?tab=quotes&qstatus=new`} variant="light" size="sm" leftSection={<IconInbox size={16} aria-hidden />} data-testid="dashboard-new-quotes">
            {newQuotes} new quote request{newQuotes === 1 ? '' : 's'}
          </Button>
        ) : null}
        <Button component={Link} to={paths.superadmin.organizations} variant="subtle" size="sm" rightSection={<IconArrowRight size={16} aria-hidden />}>
          View All Organizations
        </Button>
      </Group>
    </Paper>
  );
}
