import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LIMIT_LABELS, NEAREST_LIMITS_SHOWN, type LimitStanding } from '../../../../domain/usage';
import { paths } from '../../../app/paths';
import { formatCount } from '../../../lib/format';
import { limitColour } from '../utils/usage-format';

/** The organizations nearest their plan's limits (sites, bays, members, bookings this month), the nearest first. */
export function NearestLimits({ standings }: { standings: LimitStanding[] }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="nearest-limits-heading">
      <Title order={2} size="h4" id="nearest-limits-heading">
        Nearest their plan limits
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        What counts now against each plan: active sites, active bays, active members and bookings created this month (UTC). Top {NEAREST_LIMITS_SHOWN}.
      </Text>
      {standings.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          No organization is on a plan with limits.
        </Text>
      ) : (
        <Stack gap={0} component="ol" m={0} p={0} style={{ listStyle: 'none' }} data-testid="nearest-limits">
          {standings.map((s) => (
            <Stack key={s.orgId} component="li" gap="xs" py="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }} data-organization={s.name}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={paths.superadmin.organization(s.orgId)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {s.name}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {s.planName} · {s.status}
                  </Text>
                </div>
                <Text fw={700} size="sm" c={s.highestPercent >= 100 ? 'red.9' : undefined} data-field="highestPercent" style={{ flexShrink: 0 }}>
                  {s.highestPercent}%
                </Text>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
                {s.limits.map((limit) => (
                  <div key={limit.kind} data-limit={limit.kind}>
                    <Group justify="space-between" gap={4} wrap="nowrap">
                      <Text size="xs" c="dimmed">
                        {LIMIT_LABELS[limit.kind]}
                      </Text>
                      <Text size="xs" fw={600}>
                        {limit.limit === null ? `${formatCount(limit.used)} · no limit` : `${formatCount(limit.used)} of ${formatCount(limit.limit)}`}
                      </Text>
                    </Group>
                    <Progress
                      value={limit.percent === null ? 0 : Math.min(100, limit.percent)}
                      color={limit.percent === null ? 'gray' : limitColour(limit.percent)}
                      size="sm"
                      mt={4}
                      aria-label={`${s.name}: ${LIMIT_LABELS[limit.kind]} ${limit.percent === null ? 'no limit' : `${limit.percent}%`}`}
                    />
                  </div>
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
