import { describe, expect, it } from 'vitest';
import {
  activityAge,
  createOrganizationSchema,
  organizationFromQuote,
  slugify,
  SLUG_RULE,
  canManageOrganizations,
  canReadPlatform,
  isAlertAction,
  organizationActions,
  organizationListQuerySchema,
  organizationStatusLabel,
  organizationStatusTone,
  planLabel,
  platformStatsQuerySchema,
  suspendOrganizationSchema,
  SUSPEND_REASON_REQUIRED,
} from './platform-admin';

const NOW = new Date('2026-11-23T09:00:00Z');
const before = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

describe('activityAge (spec §9: minutes, hours or days ago)', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [MINUTE, '1 minute ago'],
    [59 * MINUTE, '59 minutes ago'],
    [60 * MINUTE, '1 hour ago'],
    [23 * 60 * MINUTE + 59 * MINUTE, '23 hours ago'],
    [24 * 60 * MINUTE, '1 day ago'],
    [9 * 24 * 60 * MINUTE, '9 days ago'],
    [-5 * MINUTE, 'just now'],
  ])('%i ms ago reads %s', (ms, text) => {
    expect(activityAge(before(ms), NOW)).toBe(text);
  });

  it('takes ISO strings', () => {
    expect(activityAge(before(3 * 60 * MINUTE).toISOString(), NOW)).toBe('3 hours ago');
  });
});

describe('isAlertAction', () => {
  it('matches actions containing error, warning or alert in any case', () => {
    for (const action of ['system.error', 'booking.warning_sent', 'camera.ALERT', 'errors.resolved']) expect(isAlertAction(action), action).toBe(true);
    for (const action of ['booking.created', 'auth.signed_in', 'organization.suspended']) expect(isAlertAction(action), action).toBe(false);
  });
});

describe('organization display', () => {
  it('colours active green, suspended warning and anything else muted (spec §4)', () => {
    expect(organizationStatusTone('active')).toBe('success');
    expect(organizationStatusTone('suspended')).toBe('warning');
    expect(organizationStatusTone('trial')).toBe('muted');
    expect(organizationStatusTone('')).toBe('muted');
  });

  it('labels statuses and plans', () => {
    expect(organizationStatusLabel('suspended')).toBe('Suspended');
    expect(organizationStatusLabel('past_due')).toBe('Past due');
    expect(planLabel(null)).toBe('No Plan');
    expect(planLabel({ name: 'Starter' })).toBe('Starter');
  });
});

describe('platform roles (decision 014)', () => {
  it('lets every platform role read, and only super admins and owners manage', () => {
    for (const role of ['super_admin', 'platform_owner', 'platform_support']) expect(canReadPlatform(role)).toBe(true);
    expect(canReadPlatform('org_admin')).toBe(false);
    expect(canReadPlatform(null)).toBe(false);
    expect(canManageOrganizations('super_admin')).toBe(true);
    expect(canManageOrganizations('platform_owner')).toBe(true);
    expect(canManageOrganizations('platform_support')).toBe(false);
    expect(canManageOrganizations('org_admin')).toBe(false);
  });

  it('offers suspend for any status but suspended, and reactivate for suspended only', () => {
    expect(organizationActions('super_admin', 'active')).toEqual({ canSuspend: true, canReactivate: false });
    expect(organizationActions('super_admin', 'trial')).toEqual({ canSuspend: true, canReactivate: false });
    expect(organizationActions('platform_owner', 'suspended')).toEqual({ canSuspend: false, canReactivate: true });
    expect(organizationActions('platform_support', 'suspended')).toEqual({ canSuspend: false, canReactivate: false });
  });
});

describe('schemas', () => {
  it('takes a period of 7 or 30 days, 30 by default', () => {
    expect(platformStatsQuerySchema.parse({})).toEqual({ days: 30 });
    expect(platformStatsQuerySchema.parse({ days: '7' })).toEqual({ days: 7 });
    const wrong = platformStatsQuerySchema.safeParse({ days: '14' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe('The period must be 7 or 30 days');
  });

  it('requires a trimmed reason to suspend (line breaks allowed, control characters not)', () => {
    expect(suspendOrganizationSchema.parse({ reason: '  Unpaid  ' })).toEqual({ reason: 'Unpaid' });
    expect(suspendOrganizationSchema.parse({ reason: 'Line one\nLine two' }).reason).toBe('Line one\nLine two');
    for (const input of [{}, { reason: '' }, { reason: '  ' }, { reason: 7 }]) {
      const result = suspendOrganizationSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(SUSPEND_REASON_REQUIRED);
    }
    expect(suspendOrganizationSchema.safeParse({ reason: 'bad\u0000byte' }).success).toBe(false);
  });

  it('reads the list query with defaults and a blank search as none', () => {
    expect(organizationListQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20 });
    expect(organizationListQuerySchema.parse({ q: '   ', page: '2' })).toEqual({ page: 2, pageSize: 20 });
    expect(organizationListQuerySchema.safeParse({ q: 'a\nb' }).success).toBe(false);
  });
});

describe('creating an organization', () => {
  it('makes a slug from the name: accents dropped, hyphens between words, at most 60 characters', () => {
    expect(slugify('Echo Émile Transport')).toBe('echo-emile-transport');
    expect(slugify('  Acme & Sons (North) Pty. Ltd.  ')).toBe('acme-sons-north-pty-ltd');
    expect(slugify('!!!')).toBe('');
    const long = slugify('Very Long Organization Name That Keeps Going On And On Beyond Sixty Characters');
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toBe('very-long-organization-name-that-keeps-going-on-and-on');
  });

  it('validates the form: slug rules, e-mails, the plan, the first admin', () => {
    const ok = createOrganizationSchema.parse({ name: ' Depot Co ', slug: '', adminEmail: 'Sam@Depot.Example', adminName: 'Sam', contactEmail: '' });
    expect(ok).toEqual({ name: 'Depot Co', slug: undefined, contactEmail: undefined, contactPhone: undefined, adminEmail: 'sam@depot.example', adminName: 'Sam' });
    expect(createOrganizationSchema.parse({ name: 'X', slug: 'Depot-Co', adminEmail: 'a@b.co', adminName: 'A', planId: null }).slug).toBe('depot-co');
    const messages = (input: object) => createOrganizationSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    expect(messages({ name: 'X', slug: 'a', adminEmail: 'a@b.co', adminName: 'A' })).toEqual([SLUG_RULE]);
    expect(messages({ name: 'X', slug: 'two--hyphens', adminEmail: 'a@b.co', adminName: 'A' })).toEqual([SLUG_RULE]);
    expect(messages({ name: 'X', adminEmail: 'nope', adminName: 'A' })).toEqual(['Please enter a valid email address']);
    expect(messages({ name: 'X', adminEmail: 'a@b.co', adminName: 'A', planId: 'starter' })).toEqual(['Choose a plan']);
  });

  it('prefills the form from a quote request: its company, and the person who asked as first admin', () => {
    expect(organizationFromQuote({ company: 'Depot Co', email: 'sam@depot.example', phone: null, name: 'Sam Lee' })).toEqual({
      name: 'Depot Co',
      slug: 'depot-co',
      contactEmail: 'sam@depot.example',
      contactPhone: '',
      adminEmail: 'sam@depot.example',
      adminName: 'Sam Lee',
    });
  });
});
