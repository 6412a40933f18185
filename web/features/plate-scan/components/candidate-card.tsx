import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconLogin2, IconLogout2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BOOKING_STATUS_LABELS } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';
import type { PlateCandidateDto } from '../../../../domain/plate-reads';
import { BookingStatusBadge } from '../../../components/ui/booking-status';
import { siteDateTime, similarity } from '../utils/format';

export type MoveKind = 'check-in' | 'check-out';

/** White on this is 5.4:1 (green.9 is 4.36:1, under the 4.5:1 small text needs). */
const MATCH_GREEN = '#237a35';

type Props = {
  candidate: PlateCandidateDto;
  timeZone: string;
  /** A badge beside the registration, e.g. 'Match'. */
  badge?: string;
  /** This candidate's move is on its way. */
  isBusy: boolean;
  /** Another move is on its way. */
  isDisabled: boolean;
  onMove: (candidate: PlateCandidateDto, kind: MoveKind) => void;
  /** Where the gate calls vehicles to bays (the dock area's dashboard), if this area has it. */
  dashboardPath?: string;
};

/** What there is to say about a candidate the gate has no move for. */
function noMoveNote(status: string): string {
  if (status === 'checked_in') return 'On site, waiting: call it to its bay from the gate’s dashboard.';
  if (status === 'completed') return 'This visit is over: the vehicle has checked out.';
  const label = BOOKING_STATUS_LABELS[status as BookingStatus] ?? status;
  return `${label}: nothing to do at the gate.`;
}

/** One booking a read may belong to: who and when, and the one gate move it offers. */
export function CandidateCard({ candidate: c, timeZone, badge, isBusy, isDisabled, onMove, dashboardPath }: Props) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="plate-candidate" data-registration={c.vehicleRegistration}>
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={800} size="xl" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {c.vehicleRegistration}
            </Text>
            <BookingStatusBadge status={c.status as BookingStatus} />
            {badge ? (
              <Badge color={MATCH_GREEN} variant="filled">
                {badge}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {c.tenantName} · {c.tsrNumber}
          </Text>
          <Text size="sm" c="dark.4">
            Due {siteDateTime(c.startTime, timeZone)} · Bay {c.bayName} · {similarity(c.score)}
          </Text>
          {c.action === 'none' ? (
            <Text size="sm" c="dark.4" data-testid="candidate-note">
              {noMoveNote(c.status)}
              {c.status === 'checked_in' && dashboardPath ? (
                <>
                  {' '}
                  <Anchor component={Link} to={dashboardPath} size="sm">
                    Open the dashboard
                  </Anchor>
                </>
              ) : null}
            </Text>
          ) : null}
        </Stack>
        {c.action === 'check_in' ? (
          <Button
            size="lg"
            leftSection={<IconLogin2 size={20} aria-hidden />}
            loading={isBusy}
            disabled={isDisabled}
            onClick={() => onMove(c, 'check-in')}
            aria-label={`Check In ${c.vehicleRegistration}`}
          >
            Check In
          </Button>
        ) : c.action === 'check_out' ? (
          <Button
            size="lg"
            color="indigo"
            leftSection={<IconLogout2 size={20} aria-hidden />}
            loading={isBusy}
            disabled={isDisabled}
            onClick={() => onMove(c, 'check-out')}
            aria-label={`Check Out ${c.vehicleRegistration}`}
          >
            Check Out
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}
