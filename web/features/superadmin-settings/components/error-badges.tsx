import { Badge } from '@mantine/core';
import type { ErrorGroupStatus, ErrorSource } from '../../../../domain/error-monitoring-rules';

// Status and source badges of an error group. Text on a tint stays near-black (the colour is in the
// tint and a dot), as the platform's other status badges.

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', flexShrink: 0, minWidth: 'max-content' } };
const dot = (color: string) => (
  <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />
);

export function ErrorStatusBadge({ status, isRegression }: { status: ErrorGroupStatus; isRegression: boolean }) {
  const color = status === 'open' ? 'red' : 'green';
  return (
    <Badge color={color} variant="light" styles={badgeStyles} leftSection={dot(color)} data-testid="error-status">
      {status === 'open' ? (isRegression ? 'Regressed' : 'Open') : 'Resolved'}
    </Badge>
  );
}

export function ErrorSourceBadge({ source }: { source: ErrorSource }) {
  return (
    <Badge color="gray" variant="light" styles={badgeStyles}>
      {source === 'server' ? 'Server' : 'Browser'}
    </Badge>
  );
}
