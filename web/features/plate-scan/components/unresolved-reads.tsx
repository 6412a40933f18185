import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconLink, IconEyeOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { GateBooking } from '../../../../domain/gate';
import type { PlateReadDto } from '../../../../domain/plate-reads';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDecidePlateRead } from '../api/decide-plate-read';
import { useUnresolvedPlateReads } from '../api/get-plate-reads';
import { readSourceLabel, readTime } from '../utils/format';
import { ResolveReadDialog } from './resolve-read-dialog';
import { NOTICE_STYLES } from './notice-styles';

type Props = {
  orgId: string;
  siteId: string;
  timeZone: string;
  bookings: GateBooking[];
  canResolve: boolean;
};

const STATUS_BADGES = {
  unmatched: { label: 'Unmatched', color: 'gray' },
  ambiguous: { label: 'Ambiguous', color: 'orange' },
} as const;

/** The site's reads that matched no vehicle or more than one, newest first, live; resolved or ignored by dock masters and admins. */
export function UnresolvedReads({ orgId, siteId, timeZone, bookings, canResolve }: Props) {
  const [page, setPage] = useState(1);
  const list = useUnresolvedPlateReads(orgId, siteId, page);
  const decide = useDecidePlateRead(orgId, siteId);
  const [resolving, setResolving] = useState<PlateReadDto | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // The last read of the last page was decided: show the page before.
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages]);

  const ignore = async (read: PlateReadDto) => {
    setBusyId(read.id);
    try {
      await decide.mutateAsync({ readId: read.id, kind: 'ignore' });
      toast.success('Read ignored', `${read.plate} needs no action.`);
    } catch (error) {
      toast.error('Not ignored', errorMessage(error, 'The read could not be ignored.'));
    } finally {
      setBusyId(null);
    }
  };

  const resolve = async (read: PlateReadDto, bookingId: string) => {
    await decide.mutateAsync({ readId: read.id, kind: 'resolve', bookingId });
    const booking = read.candidates.find((c) => c.bookingId === bookingId) ?? bookings.find((b) => b.id === bookingId);
    toast.success('Read resolved', booking ? `${read.plate} is ${booking.vehicleRegistration} · ${booking.tsrNumber}.` : `${read.plate} is linked to its booking.`);
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="unresolved-reads-title" data-testid="unresolved-reads">
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Title order={2} size="h3" id="unresolved-reads-title">
          Unresolved reads
        </Title>
        {data ? (
          <Badge color={data.total > 0 ? 'orange' : 'gray'} variant="light" size="lg" styles={{ root: { color: 'var(--mantine-color-dark-7)' } }}>
            {data.total} to resolve
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" c="dark.4" mb="sm">
        Plates read at this site that matched no expected vehicle, or more than one.{' '}
        {canResolve ? 'Link each to its booking, or ignore it when no action is needed.' : 'A dock master resolves them.'}
      </Text>

      {list.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Skeleton height={64} />
          <Skeleton height={64} />
        </Stack>
      ) : list.isError && !data ? (
        <Alert styles={NOTICE_STYLES} color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Error loading data">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(list.error, 'The reads could not be loaded.')}</Text>
            <Button h={44} variant="white" color="red.9" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : data && data.items.length === 0 ? (
        <Text c="dark.4" size="sm" py="md" ta="center">
          No unresolved reads at this site.
        </Text>
      ) : data ? (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.items.map((read) => {
            const badge = STATUS_BADGES[read.status as keyof typeof STATUS_BADGES] ?? { label: read.status, color: 'gray' };
            return (
              <Paper key={read.id} component="li" withBorder radius="md" p="sm" data-testid="unresolved-read" data-plate={read.plate}>
                <Group justify="space-between" align="center" gap="sm" wrap="wrap">
                  <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={800} size="lg" ff="monospace">
                        {read.plate}
                      </Text>
                      <Badge color={badge.color} variant="light" styles={{ root: { color: 'var(--mantine-color-dark-7)' } }}>
                        {badge.label}
                      </Badge>
                    </Group>
                    <Text size="sm" c="dark.4">
                      {readSourceLabel(read)} · {readTime(read.createdAt, timeZone)}
                    </Text>
                    {read.candidates.length > 0 ? (
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        Could be {read.candidates.map((c) => `${c.vehicleRegistration} (${c.tsrNumber})`).join(', ')}
                      </Text>
                    ) : null}
                  </Stack>
                  {canResolve ? (
                    <Group gap="xs" wrap="wrap">
                      <Button h={44} leftSection={<IconLink size={18} aria-hidden />} onClick={() => setResolving(read)} disabled={busyId !== null} aria-label={`Resolve ${read.plate}`}>
                        Resolve
                      </Button>
                      <Button
                        h={44}
                        variant="default"
                        leftSection={<IconEyeOff size={18} aria-hidden />}
                        onClick={() => void ignore(read)}
                        loading={busyId === read.id}
                        disabled={busyId !== null && busyId !== read.id}
                        aria-label={`Ignore ${read.plate}`}
                      >
                        Ignore
                      </Button>
                    </Group>
                  ) : null}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      ) : null}

      {data && pages > 1 ? (
        <Group justify="space-between" mt="sm" gap="sm">
          <Button h={44} variant="default" leftSection={<IconChevronLeft size={18} aria-hidden />} disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button h={44} variant="default" rightSection={<IconChevronRight size={18} aria-hidden />} disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </Group>
      ) : null}

      <ResolveReadDialog read={resolving} bookings={bookings} timeZone={timeZone} isBusy={decide.isPending} onClose={() => setResolving(null)} onResolve={resolve} />
    </Paper>
  );
}
