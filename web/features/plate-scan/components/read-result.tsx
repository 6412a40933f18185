import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClock, IconHelpCircle, IconRepeat } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { normalisePlate } from '../../../../domain/plate-match';
import type { PlateCandidateDto, PlateReadResult } from '../../../../domain/plate-reads';
import { readSourceLabel, readTime, siteDateTime } from '../utils/format';
import { CandidateCard, type MoveKind } from './candidate-card';
import { NOTICE_STYLES } from './notice-styles';

type Props = {
  result: PlateReadResult;
  /** The read's candidates as they are now (a move made here or elsewhere since the read). */
  candidates: PlateCandidateDto[];
  timeZone: string;
  /** Dock masters and admins resolve reads; security staff leave them to them. */
  canResolve: boolean;
  busyBookingId: string | null;
  onMove: (candidate: PlateCandidateDto, kind: MoveKind) => void;
  dashboardPath?: string;
};

const HEADLINES: Record<'matched' | 'gone' | 'ambiguous' | 'unmatched' | 'later', { title: string; color: string; icon: ReactNode }> = {
  matched: { title: 'Vehicle found', color: 'green', icon: <IconCircleCheck size={22} aria-hidden /> },
  gone: { title: 'Vehicle no longer expected', color: 'gray', icon: <IconAlertTriangle size={22} aria-hidden /> },
  ambiguous: { title: 'More than one vehicle matches', color: 'orange', icon: <IconHelpCircle size={22} aria-hidden /> },
  unmatched: { title: 'No matching vehicle', color: 'gray', icon: <IconAlertTriangle size={22} aria-hidden /> },
  later: { title: 'Booked later today', color: 'blue', icon: <IconClock size={22} aria-hidden /> },
};

type Shown = keyof typeof HEADLINES;

function explain(shown: Shown, result: PlateReadResult, best: PlateCandidateDto | undefined, canResolve: boolean, timeZone: string): string {
  const plate = result.plate;
  switch (shown) {
    case 'later': {
      const later = result.laterToday!;
      const vehicle = normalisePlate(later.vehicleRegistration) === plate ? `${plate} is` : `${plate} matches ${later.vehicleRegistration},`;
      const details = `${later.tsrNumber}, bay ${later.bayName}${later.status === 'pending' ? ', pending approval' : ''}`;
      return `${vehicle} booked at this site for ${siteDateTime(later.startTime, timeZone)} today (${details}): it is not expected yet. The read is kept as unmatched${canResolve ? ' (see Unresolved reads)' : ''}.`;
    }
    case 'matched':
      if (!best || normalisePlate(best.vehicleRegistration) === plate) return `${best?.vehicleRegistration ?? plate} is expected at or on this site.`;
      return `${plate} matches ${best.vehicleRegistration}, expected at or on this site.`;
    case 'gone':
      return `${plate} matched a booking when it was first read, but that vehicle is no longer expected at or on this site (checked out, cancelled or past its time).`;
    case 'ambiguous':
      return `${plate} is close to more than one vehicle: compare the plate with each booking and pick the one at the gate.`;
    case 'unmatched':
      return `No vehicle expected at or on this site matches ${plate}. The read is kept as unmatched for the dock master to resolve${canResolve ? ' (see Unresolved reads)' : ''}.`;
  }
}

/** The answer to the latest read: how it matched, what was done, and the one-tap move for each candidate. */
export function ReadResult({ result, candidates, timeZone, canResolve, busyBookingId, onMove, dashboardPath }: Props) {
  // A repeat answers the first read, which a dock master may have resolved (to a booking) or ignored meanwhile.
  const status = result.status === 'resolved' ? 'matched' : result.status === 'ignored' ? 'unmatched' : result.status;
  const best = status === 'matched' ? candidates.find((c) => c.bookingId === result.bookingId) : undefined;
  // A repeat of a read whose vehicle has left since (or its booking was cancelled): no longer a match.
  // Nothing expected now, but the plate is booked later today: say when (site time).
  const shown: Shown = status === 'matched' && !best ? 'gone' : status === 'unmatched' && result.laterToday ? 'later' : status;
  const headline = HEADLINES[shown];
  const others = candidates.filter((c) => c !== best);
  const card = (c: PlateCandidateDto, badge?: string) => (
    <CandidateCard
      key={c.bookingId}
      candidate={c}
      timeZone={timeZone}
      badge={badge}
      isBusy={busyBookingId === c.bookingId}
      isDisabled={busyBookingId !== null && busyBookingId !== c.bookingId}
      onMove={onMove}
      dashboardPath={dashboardPath}
    />
  );

  return (
    <Stack gap="sm" data-testid="read-result" data-status={shown}>
      <Group gap="sm" wrap="wrap" align="center">
        <Text component="span" fw={800} size="xl" ff="monospace" px="sm" py={4} style={{ border: '2px solid var(--mantine-color-dark-6)', borderRadius: 6 }} data-testid="read-plate">
          {result.plate}
        </Text>
        <Text size="sm" c="dark.4">
          {readSourceLabel(result)} · {readTime(result.createdAt, timeZone)}
        </Text>
      </Group>

      <Paper radius="md" p="sm" withBorder style={{ borderColor: `var(--mantine-color-${headline.color}-6)`, background: `var(--mantine-color-${headline.color}-0)` }}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text c={`${headline.color}.9`} component="span" style={{ display: 'inline-flex' }}>
            {headline.icon}
          </Text>
          <div>
            <Title order={3} size="h4">
              {headline.title}
            </Title>
            <Text size="sm">
              {explain(shown, result, best, canResolve, timeZone)}
            </Text>
          </div>
        </Group>
      </Paper>

      {result.repeat ? (
        <Alert styles={NOTICE_STYLES} color="blue" variant="light" icon={<IconRepeat size={18} aria-hidden />} title="Read again within a minute" data-testid="repeat-note">
          {result.plate} was first read at {readTime(result.createdAt, timeZone)}: reads of one plate less than 60 seconds apart are one event, so nothing new was recorded.
        </Alert>
      ) : null}

      {result.autoCheckIn ? (
        result.autoCheckIn.ok ? (
          <Alert styles={NOTICE_STYLES} color="green" variant="light" icon={<IconCircleCheck size={18} aria-hidden />} title="Checked in automatically" data-testid="auto-check-in">
            Your organization checks a confidently matched vehicle in when its plate is read. The check-in is recorded in the audit log.
          </Alert>
        ) : (
          <Alert styles={NOTICE_STYLES} color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Not checked in automatically" data-testid="auto-check-in">
            {result.autoCheckIn.message ?? 'The automatic check-in was refused.'} Check the vehicle in by hand if it may enter.
          </Alert>
        )
      ) : null}

      {best ? card(best, 'Match') : null}
      {status === 'ambiguous' && candidates.length > 0 ? (
        <Stack gap="xs">
          <Text fw={700} size="sm">
            Possible vehicles ({candidates.length})
          </Text>
          {candidates.map((c) => card(c))}
        </Stack>
      ) : others.length > 0 ? (
        <Stack gap="xs">
          <Text fw={700} size="sm">
            {status === 'matched' ? 'Other similar plates' : 'Closest plates here (not close enough to match)'}
          </Text>
          {others.map((c) => card(c))}
        </Stack>
      ) : null}
    </Stack>
  );
}
