import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { AUDIT_CSV_COLUMNS } from '../domain/audit-log';
import { DEMO_PASSWORD } from '../domain/constants';
import { chooseOption, expect, signInAtLogin, signInAtOrgAdmin, test } from './fixtures';

// The audit log in the browser (issue 12): a super admin filters every organization's entries by
// organization and action and downloads them as CSV; an organization admin reads only their own
// organization's trail in Settings › Activity; a dockmaster is offered neither. Each test makes the
// entries it looks for (sign-ins through the API: nothing another spec sees changes).

async function orgIdOf(request: APIRequestContext, name: string): Promise<string> {
  const orgs = (await (await request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  return orgs.find((o) => o.name === name)!.id;
}

/** Signs in through the API as a member of `orgId` (an 'auth.signed_in' entry of that organization); answers the bearer headers. */
async function signInByApi(request: APIRequestContext, email: string, orgId: string): Promise<Record<string, string>> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email, password: DEMO_PASSWORD, orgId } });
  expect(session.ok(), await session.text()).toBeTruthy();
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

test.describe('audit log', () => {
  test.describe(() => {
    // The super admin's list starts with the newest entry of any organization: read alone.
    test.use({ runAlone: true });
    test('a super admin filters every organization’s entries by organization and action, and downloads them as CSV', async ({ page, request, capture }) => {
      const acmeId = await orgIdOf(request, 'Acme Logistics');
      await signInByApi(request, 'admin@acme.test', acmeId);

      await signInAtLogin(page, 'super@baywise.test');
      await expect(page).toHaveURL('/superadmin/dashboard');
      await page.goto('/superadmin/audit');
      await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
      const table = page.getByRole('table', { name: 'Audit entries' });
      await expect(table).toBeVisible();
      // Newest first, at most 20 a page, the total above: the super admin's own sign-in is the newest.
      const summary = page.getByText(/newest first\. [\d,]+ entr(y|ies)\./);
      await expect(summary).toBeVisible();
      const total = Number((await summary.textContent())!.match(/([\d,]+) entr/)![1]!.replace(/,/g, ''));
      await expect(table.locator('tbody tr')).toHaveCount(Math.min(total, 20));
      await expect(table.locator('tbody tr').first()).toContainText('super@baywise.test');
      await expect(table.locator('tbody tr').first()).toContainText('auth.signed_in');
      await capture('superadmin-audit');

      await chooseOption(page, 'Organization', 'Acme Logistics');
      await expect(page).toHaveURL(new RegExp(`orgId=${acmeId}`));
      await chooseOption(page, 'Action', 'auth.signed_in');
      await expect(page).toHaveURL(/action=auth\.signed_in/);
      const rows = table.locator('tbody tr');
      // Retried until the filtered page has replaced the previous one: every row is Acme's sign-in.
      await expect(rows.filter({ hasNotText: 'auth.signed_in' })).toHaveCount(0);
      await expect(rows.filter({ hasNotText: 'Acme Logistics' })).toHaveCount(0);
      await expect(rows.first()).toContainText('Auth signed in');
      await expect(table.getByText('admin@acme.test').first()).toBeVisible();

      // A row opens to show its details and identifiers.
      await rows.first().getByRole('button', { name: /^Show details of auth\.signed_in/ }).click();
      await expect(table.getByText('Identifiers')).toBeVisible();
      await expect(rows.first().getByRole('button', { name: /^Hide details/ })).toHaveAttribute('aria-expanded', 'true');
      await capture('superadmin-audit-filtered');

      // The filters survive a reload (they are in the address).
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Organization', exact: true })).toHaveValue('Acme Logistics');
      await expect(page.getByRole('textbox', { name: 'Action', exact: true })).toHaveValue('auth.signed_in');

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^baywise-audit-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      const [header, ...data] = parse(text) as string[][];
      expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(data.length).toBeGreaterThan(0);
      const column = (name: (typeof AUDIT_CSV_COLUMNS)[number]) => AUDIT_CSV_COLUMNS.indexOf(name);
      for (const row of data) {
        expect(row[column('organization')]).toBe('Acme Logistics');
        expect(row[column('organization_id')]).toBe(acmeId);
        expect(row[column('action')]).toBe('auth.signed_in');
      }
      expect(data.some((row) => row[column('actor_email')] === 'admin@acme.test')).toBe(true);
      await expect(page.getByText('CSV downloaded')).toBeVisible();

      // Nothing matches: the list says so.
      await page.getByRole('textbox', { name: 'Actor' }).fill('nobody-at-all@nowhere.test');
      await expect(page.getByText('No audit entries match these filters.')).toBeVisible();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(page).toHaveURL('/superadmin/audit');
      await expect(table.locator('tbody tr').first()).toContainText('audit.exported');
    });
  });

  test('the audit log fits a tablet', async ({ page, capture }) => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await signInAtLogin(page, 'super@baywise.test');
    await expect(page).toHaveURL('/superadmin/dashboard');
    await page.goto('/superadmin/audit');
    await expect(page.getByRole('table', { name: 'Audit entries' })).toBeVisible();
    await capture('superadmin-audit-tablet');
  });

  test('an organization admin sees only their organization’s activity in Settings', async ({ page, request, capture }) => {
    const harbourId = await orgIdOf(request, 'Harbour Foods');
    await signInByApi(request, 'admin@harbour.test', harbourId);

    await signInAtOrgAdmin(page, 'Acme Logistics', 'admin@acme.test');
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings');
    await page.getByRole('tab', { name: 'Activity' }).click();
    await expect(page).toHaveURL(/tab=activity/);
    await expect(page.getByRole('heading', { name: 'Activity', level: 2 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Activity' });
    // The admin's own sign-in, just now.
    await expect(table.getByText('admin@acme.test').first()).toBeVisible();
    await expect(table).not.toContainText('harbour.test');
    await capture('org-settings-activity');

    // Harbour's admin signed in too, but not here.
    await page.getByRole('textbox', { name: 'Who' }).fill('admin@harbour');
    await expect(page.getByText('No activity matches these filters.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Who' }).fill('admin@acme');
    await expect(table.locator('tbody tr').first()).toContainText('admin@acme.test');
  });

  test('a dockmaster is offered no activity, and the server refuses it', async ({ page, request }) => {
    const acmeId = await orgIdOf(request, 'Acme Logistics');
    const headers = await signInByApi(request, 'dock@acme.test', acmeId);
    const refused = await request.get(`/api/orgs/${acmeId}/audit`, { headers });
    expect(refused.status()).toBe(403);

    await signInAtLogin(page, 'dock@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await page.goto('/org/settings?tab=activity');
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByRole('tab', { name: 'Activity' })).toHaveCount(0);
  });
});
