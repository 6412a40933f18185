import { Badge } from '@mantine/core';
import { organizationStatusLabel, organizationStatusTone, type StatusTone } from '../../../../domain/platform-admin';

// Spec §4: active green, suspended warning, anything else muted. Text on a tint stays near-black
// (the colour is in the tint and a dot), as the booking status badges.
const TONE_COLORS: Record<StatusTone, string> = { success: 'green', warning: 'yellow', muted: 'gray' };
const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', flexShrink: 0, minWidth: 'max-content' } };

export function OrganizationStatusBadge({ status, size }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  const tone = organizationStatusTone(status);
  const color = TONE_COLORS[tone];
  return (
    <Badge
      color={color}
      variant="light"
      size={size}
      styles={badgeStyles}
      data-testid="organization-status"
      data-tone={tone}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />}
    >
      {organizationStatusLabel(status)}
    </Badge>
  );
}
