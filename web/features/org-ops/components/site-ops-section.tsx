import { Alert, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertOctagon, IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { GateOverview } from '../../../../domain/gate';
import { errorMessage } from '../../../lib/api-client';
import { localDateLabel, siteTime } from '../utils/format';
import { siteLists } from '../utils/site-lists';
import { BayBoard } from './bay-board';
import { arrivalDetail, BookingList, onSiteDetail } from './booking-list';

type Site = { id: string; name: string };

const COUNTERS: Array<{ key: keyof GateOverview['counters']; label: string; alert?: boolean }> = [
  { key: 'expectedToday', label: 'Expected today' },
  { key: 'onSite', label: 'On site' },
  { key: 'atBay', label: 'At bay' },
  { key: 'late', label: 'Late', alert: true },
  { key: 'overstay', label: 'Overstay', alert: true },
];

function Counters({ counters }: { counters: GateOverview['counters'] }) {
  return (
    <SimpleGrid cols={{ base: 2, xs: 3, sm: 5 }} spacing="xs" data-testid="site-counters">
      {COUNTERS.map(({ key, label, alert }) => {
        const hot = alert && counters[key] > 0;
        return (
          <Paper
            key={key}
            withBorder
            p="xs"
            radius="md"
            data-counter={label}
            style={hot ? { background: 'var(--mantine-color-red-0)', borderColor: 'var(--mantine-color-red-6)' } : undefined}
          >
            <Text size="xs" c={hot ? 'red.9' : 'dark.4'} fw={600}>
              {label}
            </Text>
            <Text size="xl" fw={700} c={hot ? 'red.9' : undefined} data-field="value">
              {counters[key]}
            </Text>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

function SectionSkeleton() {
  return (
    <Stack gap="sm" aria-busy="true">
      <Skeleton height={56} />
      <Skeleton height={140} />
      <Skeleton height={90} />
    </Stack>
  );
}

/** One site's live picture: counters, emergency, bay board, arrivals, on site, problems. */
export function SiteOpsSection({ site, query }: { site: Site; query: UseQueryResult<GateOverview> }) {
  const headingId = `ops-site-${site.id}`;
  const data = query.data;
  const tz = data?.timeZone ?? 'UTC';
  const lists = siteLists(data ?? { live: [], upcoming: [] });
  const problems = lists.overstays.length + lists.late.length;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId} data-site={site.name}>
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs" mb="sm">
        <Title order={2} size="h3" id={headingId}>
          {site.name}
        </Title>
        {data ? (
          <Text size="sm" c="dark.4">
            {localDateLabel(data.date)} · {data.timeZone}
            {query.dataUpdatedAt ? ` · updated ${siteTime(new Date(query.dataUpdatedAt).toISOString(), tz)}` : ''}
          </Text>
        ) : null}
      </Group>

      {query.isPending ? (
        <SectionSkeleton />
      ) : query.isError && !data ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Error loading data">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(query.error, `Failed to load ${site.name}`)}</Text>
            <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void query.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : data ? (
        <Stack gap="md">
          {data.emergency.isStopped ? (
            <Alert color="red" variant="filled" role="alert" icon={<IconAlertOctagon size={20} aria-hidden />} title={`Emergency stop at ${site.name}`} data-testid="emergency-banner">
              <Text size="sm">
                All bay operations are stopped
                {data.emergency.since ? ` since ${siteTime(data.emergency.since, tz)}` : ''}
                {data.emergency.byEmail ? ` by ${data.emergency.byEmail}` : ''}.
                {data.emergency.reason ? ` Reason: ${data.emergency.reason}` : ''}
              </Text>
            </Alert>
          ) : null}

          <Counters counters={data.counters} />

          {/* Always there, so an empty list reads as "none now", not as a missing section. */}
          <Paper
            p="xs"
            radius="md"
            withBorder
            data-testid="needs-attention"
            style={problems > 0 ? { borderColor: 'var(--mantine-color-red-6)', background: 'var(--mantine-color-red-0)' } : undefined}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <BookingList
                title="Overstays"
                id={`${headingId}-overstays`}
                bookings={lists.overstays}
                empty="No vehicle is past its time."
                timeZone={tz}
                detail={(b, zone) => `Overstay · ${onSiteDetail(b, zone)}`}
                testId="overstays"
              />
              <BookingList
                title="Late vehicles"
                id={`${headingId}-late`}
                bookings={lists.late}
                empty="No vehicle is late."
                timeZone={tz}
                detail={(b, zone) => `Late · ${arrivalDetail(b, zone)}`}
                testId="late"
              />
            </SimpleGrid>
          </Paper>

          <div>
            <Text size="sm" fw={700} c="dark.5" tt="uppercase" id={`${headingId}-bays`} mb={4}>
              Bay board ({data.bays.length})
            </Text>
            <BayBoard bays={data.bays} timeZone={tz} labelledBy={`${headingId}-bays`} />
          </div>

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <BookingList
              title="Arrivals, next 4 hours"
              id={`${headingId}-arrivals`}
              bookings={lists.arrivals}
              empty="No arrivals in the next 4 hours."
              timeZone={tz}
              detail={arrivalDetail}
              testId="arrivals"
            />
            <BookingList
              title="On site"
              id={`${headingId}-on-site`}
              bookings={lists.onSite}
              empty="No vehicles on site."
              timeZone={tz}
              detail={onSiteDetail}
              testId="on-site"
            />
          </SimpleGrid>
        </Stack>
      ) : null}
    </Paper>
  );
}
