import { describe, expect, it } from 'vitest';
import { homePathForRole } from '../../../domain/enums';
import { canEnterArea } from './area-access';

describe('canEnterArea', () => {
  it('lets platform roles into every area', () => {
    for (const role of ['super_admin', 'platform_owner', 'platform_support']) {
      expect(canEnterArea('superadmin', role)).toBe(true);
      expect(canEnterArea('org', role)).toBe(true);
      expect(canEnterArea('dockmaster', role)).toBe(true);
    }
  });

  it('keeps organization roles out of the super-admin area only', () => {
    for (const role of ['org_admin', 'dockmaster', 'security']) {
      expect(canEnterArea('superadmin', role)).toBe(false);
      expect(canEnterArea('org', role)).toBe(true);
      expect(canEnterArea('dockmaster', role)).toBe(true);
    }
  });

  it('keeps users without a role out of every area', () => {
    expect(canEnterArea('org', null)).toBe(false);
    expect(canEnterArea('dockmaster', 'tenant')).toBe(false);
  });

  it('never redirects a user into an area they cannot enter (no redirect loops)', () => {
    for (const role of ['super_admin', 'org_admin', 'dockmaster', 'security', null, 'other']) {
      const home = homePathForRole(role);
      if (home.startsWith('/superadmin')) expect(canEnterArea('superadmin', role)).toBe(true);
      if (home.startsWith('/org')) expect(canEnterArea('org', role)).toBe(true);
    }
  });
});
