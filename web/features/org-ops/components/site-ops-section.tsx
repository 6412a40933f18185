import { Alert, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertOctagon, IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { GateBooking, GateOverview } from '../../../../domain/gate';
import { errorMessage } from '../../../lib/api-client';
import { localDateLabel, siteTime } from '../utils/format';
import { BayBoard } from './bay-board';
import { arrivalDetail, BookingList, onSiteDetail } from './booking-list';

type Site = { id: string; name: string };

/** Statuses of a vehicle inside the gate (the live list also holds the rest of today's bookings). */
const ON_SITE = new Set<GateBooking['status']>(['checked_in', 'in_progress', 'overstay']);

/** Overstays first, then late vehicles (approved, past their start, not checked in), once each. */
function needsAttention(data: GateOverview): GateBooking[] {
  const seen = new Set<string>();
  return [...data.live.filter((b) => b.status === 'overstay'), ...data.live.filter((b) => b.isLate), ...data.upcoming.filter((b) => b.isLate)].filter(
    (b) => !seen.has(b.id) && seen.add(b.id),
  );
}

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
  const onSite = data ? data.live.filter((b) => ON_SITE.has(b.status)) : [];
  const problems = data ? needsAttention(data) : [];
  const arrivals = data ? data.upcoming : [];

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

          {problems.length > 0 ? (
            <Paper p="xs" radius="md" style={{ border: '1px solid var(--mantine-color-red-6)' }}>
              <BookingList
                title="Needs attention: overstays and late vehicles"
                id={`${headingId}-problems`}
                bookings={problems}
                empty=""
                timeZone={tz}
                detail={(b, zone) => (b.isLate ? `Late · ${arrivalDetail(b, zone)}` : `Overstay · ${onSiteDetail(b, zone)}`)}
                testId="problems"
              />
            </Paper>
          ) : null}

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
              bookings={arrivals}
              empty="No arrivals in the next 4 hours."
              timeZone={tz}
              detail={arrivalDetail}
              testId="arrivals"
            />
            <BookingList
              title="On site"
              id={`${headingId}-on-site`}
              bookings={onSite}
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
