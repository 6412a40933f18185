import { describe, expect, it } from 'vitest';
import { homePathForRole } from '../../../domain/enums';
import { loginPathForArea } from '../paths';
import { canEnterArea, redirectFor } from './area-access';

describe('canEnterArea and redirectFor', () => {
  it('keeps platform roles in their own area: the organization area would be empty for them', () => {
    for (const role of ['super_admin', 'platform_owner', 'platform_support']) {
      expect(canEnterArea('superadmin', role)).toBe(true);
      expect(canEnterArea('org', role)).toBe(false);
      expect(redirectFor('org', role, '/org/dashboard')).toBe('/superadmin/dashboard');
    }
  });

  it('lets an org admin use every organization screen', () => {
    for (const path of ['/org/dashboard', '/org/bays', '/org/settings', '/org/settings/number-plates', '/org/bookings/new']) {
      expect(redirectFor('org', 'org_admin', path), path).toBeNull();
    }
    expect(canEnterArea('superadmin', 'org_admin')).toBe(false);
  });

  it('sends anyone without a platform role from a super-admin screen to /superadmin (spec §2)', () => {
    for (const role of ['org_admin', 'dockmaster', 'security', 'tenant', null]) {
      for (const path of ['/superadmin/dashboard', '/superadmin/organizations', '/superadmin/usage', '/superadmin/organizations/123']) {
        expect(redirectFor('superadmin', role, path), `${role} ${path}`).toBe('/superadmin');
      }
    }
    for (const role of ['super_admin', 'platform_owner', 'platform_support']) {
      expect(redirectFor('superadmin', role, '/superadmin/usage')).toBeNull();
    }
  });

  it('gives a dockmaster the operations screens and not the setup ones', () => {
    for (const path of ['/org/dashboard', '/org/schedule', '/org/bookings', '/org/ops/live', '/org/ops/scan', '/org/reports']) {
      expect(redirectFor('org', 'dockmaster', path), path).toBeNull();
    }
    for (const path of ['/org/settings', '/org/bays', '/org/blackouts', '/org/tenants', '/org/settings/number-plates']) {
      expect(redirectFor('org', 'dockmaster', path), path).toBe('/org/dashboard');
    }
    expect(redirectFor('dockmaster', 'dockmaster', '/dockmaster/queue')).toBeNull();
  });

  it('keeps security staff out of the organization area, with the gate screens only', () => {
    expect(canEnterArea('org', 'security')).toBe(false);
    expect(redirectFor('org', 'security', '/org/settings')).toBe('/dockmaster');
    expect(redirectFor('dockmaster', 'security', '/dockmaster/scan')).toBeNull();
    expect(redirectFor('dockmaster', 'security', '/dockmaster/queue')).toBeNull();
    expect(redirectFor('dockmaster', 'security', '/dockmaster/dashboard')).toBeNull();
  });

  it('keeps users without a role out of every area', () => {
    expect(canEnterArea('org', null)).toBe(false);
    expect(canEnterArea('dockmaster', 'tenant')).toBe(false);
  });

  it('never redirects a user into an area they cannot enter (no redirect loops)', () => {
    for (const role of ['super_admin', 'org_admin', 'dockmaster', 'security', null, 'other']) {
      const home = homePathForRole(role);
      for (const area of ['superadmin', 'org', 'dockmaster'] as const) {
        const target = redirectFor(area, role, `/${area}/dashboard`);
        // An area's sign-in page is outside its guard: going there cannot loop.
        if (target === loginPathForArea[area]) continue;
        if (target?.startsWith('/org')) expect(redirectFor('org', role, target)).toBeNull();
        if (target?.startsWith('/dockmaster')) expect(redirectFor('dockmaster', role, target)).toBeNull();
        if (target?.startsWith('/superadmin')) expect(redirectFor('superadmin', role, target)).toBeNull();
      }
      if (home.startsWith('/org')) expect(canEnterArea('org', role)).toBe(true);
    }
  });
});
