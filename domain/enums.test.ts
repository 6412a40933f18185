import { describe, expect, it } from 'vitest';
import { homePathForRole, isPlatformRole, isSpecialAccessNeed, isVehicleType, SPECIAL_ACCESS_NEEDS, VEHICLE_TYPES } from './enums';

describe('role redirects (spec §2 admin sign-in)', () => {
  it.each([
    ['super_admin', '/superadmin/dashboard'],
    ['platform_owner', '/superadmin/dashboard'],
    ['platform_support', '/superadmin/dashboard'],
    ['org_admin', '/org/dashboard'],
    ['dockmaster', '/org/dashboard'],
    ['security', '/dockmaster'],
    [null, '/'],
    ['something_else', '/'],
  ])('%s goes to %s', (role, path) => {
    expect(homePathForRole(role)).toBe(path);
  });

  it('flags exactly the three platform roles', () => {
    expect(['super_admin', 'platform_owner', 'platform_support'].every(isPlatformRole)).toBe(true);
    expect(isPlatformRole('org_admin')).toBe(false);
    expect(isPlatformRole(undefined)).toBe(false);
  });
});

describe('vehicle types and special access needs (what the availability query takes)', () => {
  it('knows each listed value and nothing else', () => {
    expect(VEHICLE_TYPES.every(isVehicleType)).toBe(true);
    expect(SPECIAL_ACCESS_NEEDS.every(isSpecialAccessNeed)).toBe(true);
    expect(['', 'Van', 'truck'].some(isVehicleType)).toBe(false);
    expect(['', 'Hazardous', 'wide'].some(isSpecialAccessNeed)).toBe(false);
  });
});
