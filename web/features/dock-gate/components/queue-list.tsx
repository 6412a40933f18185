import { Skeleton, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { QueueItemCard, type QueueItem } from './queue-item';

// The gate queue's list: first come first, the waiting times ticking on the screen's clock (no
// refetch needed for that), a skeleton while loading and a sentence when nobody waits.

/** How often the waiting times are recomputed. */
const TICK_MS = 10_000;

/** The time now, updated every `intervalMs`. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

type Props = {
  items: QueueItem[] | undefined;
  isLoading: boolean;
  timeZone: string;
  isStopped: boolean;
  busyId: string | null;
  onCall: (item: QueueItem) => void;
  onChooseBay: (item: QueueItem) => void;
};

export function QueueList({ items, isLoading, timeZone, isStopped, busyId, onCall, onChooseBay }: Props) {
  const now = useNow(TICK_MS);
  if (isLoading) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the queue">
        <Skeleton height={150} radius="md" />
        <Skeleton height={150} radius="md" />
      </Stack>
    );
  }
  if (!items) return null;
  if (items.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center" data-testid="queue-empty">
        No vehicles are waiting. Vehicles appear here when they are checked in at the gate.
      </Text>
    );
  }
  return (
    <Stack component="ol" gap="sm" aria-label="Vehicles waiting, first arrived first" data-testid="gate-queue" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item, index) => (
        <QueueItemCard
          key={item.id}
          item={item}
          position={index + 1}
          now={now}
          timeZone={timeZone}
          isStopped={isStopped}
          busyId={busyId}
          onCall={onCall}
          onChooseBay={onChooseBay}
        />
      ))}
    </Stack>
  );
}
