import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { GateOverview } from '../../../../domain/gate';
import { localTimeOf } from '../../../../domain/slot-grid';

type BayState = GateOverview['bays'][number]['state'];

/** Colour and words per bay state: the colour is never the only signal. */
export const BAY_STATE_STYLE: Record<BayState, { label: string; color: string }> = {
  available: { label: 'Available', color: 'green' },
  occupied: { label: 'Occupied', color: 'blue' },
  overstay: { label: 'Overstay', color: 'red' },
  blacked_out: { label: 'Blacked out', color: 'gray' },
  stopped: { label: 'Stopped', color: 'orange' },
};

export function BayGrid({ bays, timeZone }: { bays: GateOverview['bays']; timeZone: string }) {
  if (bays.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        This site has no active bays.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 6 }} spacing="sm" data-testid="bay-grid">
      {bays.map((bay) => {
        const style = BAY_STATE_STYLE[bay.state];
        return (
          <Paper
            key={bay.id}
            withBorder
            radius="md"
            p="sm"
            aria-label={`Bay ${bay.name}: ${style.label}`}
            data-state={bay.state}
            style={{
              borderLeft: `6px solid var(--mantine-color-${style.color}-6)`,
              background: `var(--mantine-color-${style.color}-0)`,
              minWidth: 0,
            }}
          >
            <Stack gap={2}>
              <Text fw={700} size="lg">
                {bay.name}
              </Text>
              <Group gap={6} wrap="nowrap">
                <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, flexShrink: 0, background: `var(--mantine-color-${style.color}-7)` }} />
                <Text size="sm" fw={700} c="dark.8">
                  {style.label}
                </Text>
              </Group>
              {bay.booking ? (
                <Text size="xs" c="dark.6" style={{ overflowWrap: 'anywhere' }}>
                  {bay.booking.vehicleRegistration}
                  {bay.booking.startedAt ? ` · since ${localTimeOf(new Date(bay.booking.startedAt), timeZone)}` : ''} · until{' '}
                  {localTimeOf(new Date(bay.booking.endTime), timeZone)}
                </Text>
              ) : null}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
