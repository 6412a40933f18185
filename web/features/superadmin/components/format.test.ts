import { describe, expect, it } from 'vitest';
import { actionLabel, formatBytes, formatMoney, formatUsd, roleLabel } from './format';

describe('platform formats', () => {
  it('writes revenue in USD, a dash when there is none (spec §9)', () => {
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd(undefined)).toBe('—');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1396.5)).toBe('$1,396.50');
    expect(formatMoney(99, 'USD')).toBe('$99.00');
    expect(formatMoney(10, 'EUR')).toBe('€10.00');
  });

  it('writes sizes, actions and roles for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(actionLabel('organization.suspended')).toBe('Organization suspended');
    expect(actionLabel('auth.signed_in')).toBe('Signed in');
    expect(actionLabel('booking.status_changed')).toBe('Booking status changed');
    expect(roleLabel('org_admin')).toBe('Org admin');
    expect(roleLabel(null)).toBe('—');
  });
});
