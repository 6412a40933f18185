import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Impersonation in the browser (issue 12, decision 017): the super admin, told the organization is
// read-only to platform staff (decision 029), acts as the organization's admin with a reason, sees the
// banner on every screen, adds a tenant as them, ends it and is back on the organization's page; the
// audit lists show both users in the row itself — the platform's list, the organization page's trail
// and the organization's own Settings › Activity. The organization is the test's own (ownOrg), so no
// other test sees the tenant or the audit entries.

async function signInAtSuperAdmin(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill('super@baywise.test');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
  await expect(page).toHaveURL('/superadmin/dashboard');
}

const storedSession = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string; user?: { email: string } }, STORAGE_KEYS.session);

test.describe('impersonation', () => {
  test.setTimeout(180_000);

  test('a super admin acts as the organization’s admin with a reason, sees the banner, acts, and ends it; the audit shows both', async ({ page, ownOrg, capture }) => {
    await signInAtSuperAdmin(page);
    const { orgId, adminEmail: admin } = ownOrg;

    const platformToken = (await storedSession(page)).access_token!;
    await page.goto(`/superadmin/organizations/${orgId}`);
    // Platform staff read; changes go through acting as a member.
    const readOnly = page.getByTestId('platform-read-only');
    await expect(readOnly).toContainText('Read-only for platform staff');
    await expect(readOnly).toContainText("You can view this organization's data but not change it. To make changes, act as one of its members");
    await capture('superadmin-organization-read-only', { fullPage: false });
    // The server says the same to a direct change.
    const direct = await page.request.post(`/api/orgs/${orgId}/tenants`, { headers: { authorization: `Bearer ${platformToken}` }, data: { name: 'Direct Freight' } });
    expect(direct.status()).toBe(403);
    expect(((await direct.json()) as { error: { message: string } }).error.message).toBe(
      'Platform staff can view this organization but not change it. Start acting as a member of this organization to make changes.',
    );
    const members = page.getByTestId('organization-members');
    await members.getByRole('button', { name: `Act as ${admin}` }).click();
    const dialog = page.getByRole('dialog', { name: `Act as ${admin}?` });
    await expect(dialog).toBeVisible();
    // A reason is required (and a real one).
    await dialog.getByRole('button', { name: 'Start acting as member' }).click();
    await expect(dialog.getByText('A reason is required to act as a member')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('help');
    await dialog.getByRole('button', { name: 'Start acting as member' }).click();
    await expect(dialog.getByText('Give a reason of at least 10 characters')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Ticket 4711: the admin cannot find the tenant list');
    await capture('impersonation-reason', { fullPage: false });
    await dialog.getByRole('button', { name: 'Start acting as member' }).click();

    // The member's home, with the banner.
    await expect(page).toHaveURL('/org/dashboard');
    const banner = page.getByTestId('impersonation-banner');
    await expect(banner).toContainText(`Acting as ${admin} — End`);
    await expect(banner.getByRole('button', { name: 'End' })).toBeVisible();
    await expect(banner.getByTestId('impersonation-time-left')).toHaveText(/^(30:00|29:[0-5]\d)$/);
    expect((await storedSession(page)).user?.email).toBe(admin);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await capture('impersonation-banner');

    // An action as the member, on another screen (the banner is there too).
    const tenant = `Impersonated Freight ${Date.now()}`;
    await page.getByRole('link', { name: 'Tenants' }).click();
    await expect(page.getByRole('heading', { name: 'Tenants', level: 1 })).toBeVisible();
    await expect(banner).toContainText(`Acting as ${admin} — End`);
    await page.getByRole('button', { name: 'Add tenant' }).click();
    const form = page.getByRole('dialog', { name: 'Add tenant' });
    await form.getByRole('textbox', { name: 'Company name' }).fill(tenant);
    await form.getByRole('button', { name: 'Add tenant' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('table', { name: 'Tenants' })).toContainText(tenant);

    // End: back to the platform session, at the organization's page.
    await banner.getByRole('button', { name: 'End' }).click();
    // The toast first: it closes by itself after a few seconds.
    await expect(page.getByText(`You are no longer acting as ${admin}.`)).toBeVisible();
    await expect(page).toHaveURL(`/superadmin/organizations/${orgId}`);
    await expect(page.getByRole('heading', { name: ownOrg.name, level: 1 })).toBeVisible();
    await expect(page.getByTestId('impersonation-banner')).toHaveCount(0);
    expect((await storedSession(page)).user?.email).toBe('super@baywise.test');

    // The audit log: the tenant was added by the admin, impersonated by the super admin; start and end by the super admin.
    await page.goto(`/superadmin/audit?orgId=${orgId}&action=tenant.created`);
    const table = page.getByRole('table', { name: 'Audit entries' });
    const created = table.locator('tbody tr').filter({ hasText: 'tenant.created' }).first();
    await expect(created).toContainText(admin);
    // Who really acted, in the row itself (not only in the details).
    await expect(created.getByTestId('audit-impersonator')).toHaveText('Impersonated by super@baywise.test');
    await capture('impersonation-audit-row');
    await created.getByRole('button', { name: /^Show details of tenant\.created/ }).click();
    const details = table.locator('tbody tr[id^="audit-details-"]').first();
    await expect(details).toContainText(tenant);
    await expect(details).toContainText('impersonatedBy');
    await expect(details).toContainText('super@baywise.test');
    await capture('impersonation-audit');

    for (const action of ['impersonation.start', 'impersonation.end']) {
      await page.goto(`/superadmin/audit?orgId=${orgId}&action=${action}`);
      const row = table.locator('tbody tr').filter({ hasText: action }).first();
      await expect(row).toContainText('super@baywise.test');
      await row.getByRole('button', { name: new RegExp(`^Show details of ${action.replace('.', '\\.')}`) }).click();
      await expect(table.locator('tbody tr[id^="audit-details-"]').first()).toContainText(admin);
    }

    // The organization page's trail.
    await page.goto(`/superadmin/organizations/${orgId}`);
    const trail = page.getByTestId('organization-audit');
    await expect(trail.locator('tbody tr').filter({ hasText: tenant }).first().getByTestId('audit-impersonator')).toHaveText(
      'Impersonated by super@baywise.test',
    );

    // And the organization's own Settings › Activity, as its admin sees it.
    await page.evaluate(() => localStorage.clear());
    await signInAtOrgAdmin(page, ownOrg.name, admin);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=activity&action=tenant.created');
    const activity = page.getByRole('table', { name: 'Activity' });
    const row = activity.locator('tbody tr').filter({ hasText: 'tenant.created' }).first();
    await expect(row).toContainText(admin);
    await expect(row.getByTestId('audit-impersonator')).toHaveText('Impersonated by super@baywise.test');
    await capture('org-activity-impersonated');
  });
});
