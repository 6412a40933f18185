import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { expect, test } from './fixtures';

// Impersonation in the browser (issue 12, decision 017): the super admin acts as an organization's
// admin with a reason, sees the banner on every screen, adds a tenant as them, ends it and is back
// on the organization's page; the audit log shows both users. The organization is the test's own
// (ownOrg), so no other test sees the tenant or the audit entries.

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
  test.setTimeout(120_000);

  test('a super admin acts as the organization’s admin with a reason, sees the banner, acts, and ends it; the audit shows both', async ({ page, ownOrg, capture }) => {
    await signInAtSuperAdmin(page);
    const { orgId, adminEmail: admin } = ownOrg;

    await page.goto(`/superadmin/organizations/${orgId}`);
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
    await expect(page).toHaveURL(`/superadmin/organizations/${orgId}`);
    await expect(page.getByRole('heading', { name: ownOrg.name, level: 1 })).toBeVisible();
    await expect(page.getByTestId('impersonation-banner')).toHaveCount(0);
    expect((await storedSession(page)).user?.email).toBe('super@baywise.test');
    await expect(page.getByText(`You are no longer acting as ${admin}.`)).toBeVisible();

    // The audit log: the tenant was added by the admin, impersonated by the super admin; start and end by the super admin.
    await page.goto(`/superadmin/audit?orgId=${orgId}&action=tenant.created`);
    const table = page.getByRole('table', { name: 'Audit entries' });
    const created = table.locator('tbody tr').filter({ hasText: 'tenant.created' }).first();
    await expect(created).toContainText(admin);
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
  });
});
