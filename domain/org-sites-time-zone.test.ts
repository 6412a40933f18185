import { describe, expect, it } from 'vitest';
import { organizationTimeZone } from './org-sites';

describe('organizationTimeZone (a new site’s default zone)', () => {
  it('is the zone most of the organization’s active sites use, whatever the browser’s', () => {
    expect(
      organizationTimeZone([
        { timeZone: 'Australia/Brisbane', active: true },
        { timeZone: 'Australia/Sydney', active: true },
        { timeZone: 'Australia/Sydney', active: true },
        { timeZone: 'Europe/London', active: false },
        { timeZone: 'Europe/London', active: false },
        { timeZone: 'Europe/London', active: false },
      ]),
    ).toBe('Australia/Sydney');
  });

  it('gives a tie to the earliest listed site, uses inactive sites when none is active, and is null without sites', () => {
    expect(organizationTimeZone([{ timeZone: 'Australia/Perth' }, { timeZone: 'Australia/Sydney' }])).toBe('Australia/Perth');
    expect(organizationTimeZone([{ timeZone: 'Pacific/Auckland', active: false }])).toBe('Pacific/Auckland');
    expect(organizationTimeZone([])).toBeNull();
  });
});
