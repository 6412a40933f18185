import { Badge, Group } from '@mantine/core';
import { TENANT_STATUS_LABELS, type Tenant, type TenantStatus } from '../../../../domain/org-tenants';

// Text on a tint stays near-black (the colour is in the tint and a dot), as the booking status badges.
const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', flexShrink: 0, minWidth: 'max-content' } };
const dot = (color: string) => (
  <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />
);

/** Active (green) or Blocked (red). */
export function TenantStatusBadge({ status }: { status: TenantStatus }) {
  const color = status === 'blocked' ? 'red' : 'green';
  return (
    <Badge color={color} variant="light" styles={badgeStyles} leftSection={dot(color)} data-testid="tenant-status">
      {TENANT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The policy in short: auto-approve, a daily limit, restricted sites; 'Defaults' when none. */
export function TenantPolicyBadges({ tenant }: { tenant: Pick<Tenant, 'autoApprove' | 'maxBookingsPerDay' | 'allowedSiteIds'> }) {
  const badges: string[] = [];
  if (tenant.autoApprove) badges.push('Auto-approve');
  if (tenant.maxBookingsPerDay !== null) badges.push(`Max ${tenant.maxBookingsPerDay}/day`);
  if (tenant.allowedSiteIds) badges.push(`${tenant.allowedSiteIds.length} site${tenant.allowedSiteIds.length === 1 ? '' : 's'} only`);
  if (badges.length === 0) {
    return (
      <Badge variant="outline" color="gray" styles={badgeStyles}>
        Defaults
      </Badge>
    );
  }
  return (
    <Group gap={4}>
      {badges.map((label) => (
        <Badge key={label} variant="light" color="indigo" styles={badgeStyles}>
          {label}
        </Badge>
      ))}
    </Group>
  );
}
