import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { GateQueue } from '../../../../domain/gate';
import { localTimeOf } from '../../../../domain/slot-grid';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../../domain/enums';

// One vehicle in the gate queue: who it is, how long it has waited (ticking with `now`), the bay it
// is booked on and whether that bay is free, the other free compatible bays, and — when the server
// offers `start` to the caller — the buttons that call it to a bay.

export type QueueItem = GateQueue['items'][number];

/** From this many minutes the waiting time is shown in red. */
export const LONG_WAIT_MIN = 30;

/** Whole minutes waited at `now`: from the check-in time, else the server's count. */
export function waitedMinutes(item: QueueItem, now: number): number {
  if (!item.checkedInAt) return item.waitingMinutes;
  return Math.max(0, Math.floor((now - Date.parse(item.checkedInAt)) / 60_000));
}

/** "under 1 min", "12 min", "1 h 05 min". */
export function formatWaiting(minutes: number): string {
  if (minutes < 1) return 'under 1 min';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Free / Occupied (/ Stopped while the site is stopped): a tint and a dot, near-black text. */
function BayStateBadge({ isFree, isStopped }: { isFree: boolean; isStopped: boolean }) {
  const [text, color] = isStopped ? ['Stopped', 'red'] : isFree ? ['Free', 'green'] : ['Occupied', 'orange'];
  return (
    <Badge
      color={color}
      variant="light"
      size="lg"
      data-testid="expected-bay-state"
      styles={{ root: { color: 'var(--mantine-color-dark-7)', flexShrink: 0 } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />}
    >
      {text}
    </Badge>
  );
}

/** A button whose label wraps rather than being cut on a narrow screen (long bay names). */
const wrapping = {
  root: { height: 'auto', minHeight: 50, maxWidth: '100%' },
  label: { whiteSpace: 'normal', overflow: 'visible', paddingBlock: 8 },
} as const;

type Props = {
  item: QueueItem;
  position: number;
  now: number;
  timeZone: string;
  isStopped: boolean;
  /** The id of the booking being called, if any: its buttons spin, the others wait. */
  busyId: string | null;
  onCall: (item: QueueItem) => void;
  onChooseBay: (item: QueueItem) => void;
};

export function QueueItemCard({ item, position, now, timeZone, isStopped, busyId, onCall, onChooseBay }: Props) {
  const time = (iso: string) => localTimeOf(new Date(iso), timeZone);
  const waited = waitedMinutes(item, now);
  const others = item.freeBays.filter((b) => b.id !== item.bayId);
  const canCall = item.actions.includes('start');
  const isBusy = busyId === item.id;
  const isOtherBusy = busyId !== null && !isBusy;
  const vehicleType = VEHICLE_TYPE_LABELS[item.vehicleType as VehicleType] ?? item.vehicleType;

  return (
    <Paper component="li" withBorder radius="md" p="md" data-testid="queue-item" data-tsr={item.tsrNumber} data-registration={item.vehicleRegistration}>
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Text
          aria-hidden
          fw={700}
          size="lg"
          ta="center"
          style={{ flex: '0 0 auto', width: 40, height: 40, lineHeight: '40px', borderRadius: 20, background: 'var(--mantine-color-indigo-0)' }}
        >
          {position}
        </Text>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
            <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text fw={700} size="xl" style={{ overflowWrap: 'anywhere' }}>
                  {item.vehicleRegistration}
                </Text>
                {item.source === 'gate' ? (
                  <Badge variant="outline" color="dark" size="md">
                    Walk-in
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {item.tenantName} · {item.tsrNumber}
              </Text>
              <Text size="sm" c="dimmed">
                {vehicleType}
                {item.checkedInAt ? ` · arrived ${time(item.checkedInAt)}` : ''} · booked {time(item.startTime)}–{time(item.endTime)}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end" style={{ flex: '0 0 auto', marginLeft: 'auto' }}>
              <Text size="sm" c="dimmed">
                Waiting
              </Text>
              <Text fw={700} size="xl" c={waited >= LONG_WAIT_MIN ? 'red.9' : undefined} data-testid="waiting-time">
                {formatWaiting(waited)}
              </Text>
            </Stack>
          </Group>

          <Group gap="xs" wrap="wrap" data-testid="expected-bay">
            <Text size="sm">Expected bay</Text>
            <Text fw={700}>{item.bayName}</Text>
            <BayStateBadge isFree={item.isExpectedBayFree} isStopped={isStopped} />
          </Group>
          <Text size="sm" data-testid="other-bays">
            {isStopped
              ? 'Operations are stopped: no bay can be used until the site resumes.'
              : others.length > 0
                ? `Could go instead to: ${others.map((b) => b.name).join(', ')}`
                : item.isExpectedBayFree
                  ? 'No other compatible bay is free now.'
                  : 'No compatible bay is free now: let the vehicle wait.'}
          </Text>

          {canCall && !isStopped && (item.isExpectedBayFree || others.length > 0) ? (
            <Group gap="sm" wrap="wrap">
              {item.isExpectedBayFree ? (
                <Button size="lg" color="teal.9" styles={wrapping} loading={isBusy} disabled={isOtherBusy} onClick={() => onCall(item)} aria-label={`Call to ${item.bayName}: ${item.vehicleRegistration}`}>
                  Call to {item.bayName}
                </Button>
              ) : null}
              {others.length > 0 ? (
                <Button
                  size="lg"
                  variant={item.isExpectedBayFree ? 'default' : 'filled'}
                  color={item.isExpectedBayFree ? undefined : 'teal.9'}
                  styles={wrapping}
                  disabled={busyId !== null}
                  onClick={() => onChooseBay(item)}
                  aria-label={`${item.isExpectedBayFree ? 'Another bay' : 'Choose a bay'}: ${item.vehicleRegistration}`}
                >
                  {item.isExpectedBayFree ? 'Another bay…' : 'Choose a bay…'}
                </Button>
              ) : null}
            </Group>
          ) : null}
          {!canCall ? (
            <Text size="sm" c="dimmed">
              A dockmaster calls the vehicle to its bay.
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}
