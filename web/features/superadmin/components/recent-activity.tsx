import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { activityAge, AUDIT_FAILED_TEXT, NO_RECENT_ACTIVITY_TEXT, type AuditEntry } from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { actionLabel, formatDayTime, roleLabel } from './format';

type Props = { entries: AuditEntry[] | undefined; isLoading: boolean; error: unknown; now: Date };

/** The 5 latest audit entries across the platform, each with its age in minutes, hours or days. */
export function RecentActivity({ entries, isLoading, error, now }: Props) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="recent-activity-heading">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2} size="h4" id="recent-activity-heading">
            Recent Activity
          </Title>
          <Text size="sm" c="dimmed">
            The latest entries of the audit log
          </Text>
        </div>
        <Anchor component={Link} to={paths.superadmin.audit} size="sm">
          Audit Log
        </Anchor>
      </Group>
      {isLoading ? (
        <Stack gap="xs">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </Stack>
      ) : error ? (
        <div role="alert">
          <Text size="sm" c="red.9" fw={600}>
            {AUDIT_FAILED_TEXT}
          </Text>
          <Text size="sm" c="red.9">
            {errorMessage(error, 'Try again in a moment.')}
          </Text>
        </div>
      ) : !entries || entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_RECENT_ACTIVITY_TEXT}
        </Text>
      ) : (
        <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="recent-activity">
          {entries.map((entry) => (
            <Group
              key={entry.id}
              component="li"
              justify="space-between"
              align="flex-start"
              wrap="nowrap"
              gap="sm"
              py="xs"
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            >
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600}>
                  {actionLabel(entry.action)}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {entry.actorEmail ?? roleLabel(entry.actorRole)}
                  {entry.impersonatorEmail ? ` (impersonated by ${entry.impersonatorEmail})` : ''}
                  {entry.orgName ? (
                    <>
                      {' · '}
                      {entry.orgId ? (
                        <Anchor component={Link} to={paths.superadmin.organization(entry.orgId)} size="xs" c="indigo.8">
                          {entry.orgName}
                        </Anchor>
                      ) : (
                        entry.orgName
                      )}
                    </>
                  ) : null}
                </Text>
              </div>
              <Text size="xs" c="dimmed" title={formatDayTime(entry.createdAt)} style={{ whiteSpace: 'nowrap' }}>
                {activityAge(entry.createdAt, now)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
