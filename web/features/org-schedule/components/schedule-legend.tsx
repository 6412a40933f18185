import { Group, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { LEGEND_STATUSES, SCHEDULE_STATUS_COLORS, statusLabel } from '../utils/schedule-status';

const swatch = (color: string) =>
  ({ '--bw-c1': `var(--mantine-color-${color}-1)`, '--bw-c6': `var(--mantine-color-${color}-6)` }) as CSSProperties;

/** What the colours and patterns of the schedule mean. */
export function ScheduleLegend() {
  return (
    <Group component="ul" gap="md" aria-label="Legend" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {LEGEND_STATUSES.map((status) => (
        <Group component="li" key={status} gap={6} wrap="nowrap">
          <span className="bw-legend__swatch" style={swatch(SCHEDULE_STATUS_COLORS[status])} aria-hidden />
          <Text size="xs">{statusLabel(status)}</Text>
        </Group>
      ))}
      <Group component="li" gap={6} wrap="nowrap">
        <span className="bw-legend__swatch bw-legend__swatch--blackout" aria-hidden />
        <Text size="xs">Blackout</Text>
      </Group>
      <Group component="li" gap={6} wrap="nowrap">
        <span className="bw-legend__swatch bw-legend__swatch--closed" aria-hidden />
        <Text size="xs">Closed</Text>
      </Group>
      <Group component="li" gap={6} wrap="nowrap">
        <span className="bw-legend__swatch bw-legend__swatch--now" aria-hidden />
        <Text size="xs">Now</Text>
      </Group>
    </Group>
  );
}
