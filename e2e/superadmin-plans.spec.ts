import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { planLimitMessage, type Invoice, type Plan, type Revenue } from '../domain/billing';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// Plans & Billing (issue 12) on the demo data: the plans with their real prices, limits and
// organizations, revenue by month as a chart and a table, a plan edited, Harbour Foods' open
// invoice marked paid and downloaded as a PDF, a month's invoices issued again (nothing new: one
// per organization and month), and an organization's billing card with its limits and plan change.
// Shared demo data stays usable by the other specs: the edited plan (Enterprise) has no
// organization, and Harbour Foods goes back to Starter.

// Plans, revenue, invoices and Harbour Foods' plan are platform-wide: every test here runs alone.
test.use({ runAlone: true });

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function signInAtSuperAdmin(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill('super@baywise.test');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
  await expect(page).toHaveURL('/superadmin/dashboard');
}

async function apiGet<T>(page: Page, url: string): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string, STORAGE_KEYS.session);
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), url).toBe(200);
  return response.json() as Promise<T>;
}

test.describe('plans and billing', () => {
  // Several screens scanned with axe on a machine shared with other suites.
  test.setTimeout(150_000);

  test('a super admin reads plans and revenue, edits a plan, marks an invoice paid, downloads its PDF and issues a month again', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    await page.getByRole('link', { name: /Plans & Billing/ }).first().click();
    await expect(page).toHaveURL('/superadmin/plans');
    await expect(page.getByRole('heading', { name: 'Plans & Billing', level: 1 })).toBeVisible();

    // The plans as the server has them: price, limits, organizations on each.
    const { items: plans } = await apiGet<{ items: Plan[] }>(page, '/api/platform/plans');
    const table = page.getByRole('table', { name: 'Plans' });
    for (const plan of plans) {
      const row = table.locator(`tr[data-plan="${plan.name}"]`);
      await expect(row.locator('[data-field="price"]')).toHaveText(usd.format(plan.priceUsd));
      await expect(row.locator('[data-field="organizations"]')).toHaveText(String(plan.organizations));
      await expect(row.locator('[data-field="sites"]')).toHaveText(plan.limits.sites === null ? 'Unlimited' : String(plan.limits.sites));
    }
    expect(plans.find((p) => p.name === 'Starter')).toMatchObject({ organizations: 1, limits: { sites: 1, bookings: 300 } });
    expect(plans.find((p) => p.name === 'Professional')).toMatchObject({ organizations: 1 });

    // Revenue: the cards and the chart hold the server's figures; the table lists the twelve months.
    const revenue = await apiGet<Revenue>(page, '/api/platform/revenue');
    expect(revenue.totalUsd).toBeGreaterThan(0);
    await expect(page.locator('[data-stat="Revenue (12 months)"]')).toContainText(usd.format(revenue.totalUsd));
    await expect(page.locator('[data-stat="Open invoices"]')).toContainText(String(revenue.openInvoices));
    await expect(page.getByTestId('revenue-chart').locator('.recharts-bar-rectangle path').first()).toBeVisible();
    await capture('superadmin-plans');
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^Table$/ }).click();
    await expect(page.getByRole('radio', { name: 'Table' })).toBeChecked();
    const revenueTable = page.getByRole('table', { name: 'Revenue by month' });
    await expect(revenueTable.locator('tbody tr')).toHaveCount(12);
    await expect(revenueTable.locator('tfoot')).toContainText(usd.format(revenue.totalUsd));
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^Chart$/ }).click();

    // Edit Enterprise (no organization is on it): a new price and description.
    await table.locator('tr[data-plan="Enterprise"]').getByRole('button', { name: 'Edit plan Enterprise' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit plan Enterprise' });
    await dialog.getByLabel('Monthly price (USD)').fill('');
    await dialog.getByRole('button', { name: 'Save plan' }).click();
    await expect(dialog.getByText('Monthly price must be a number of US dollars')).toBeVisible();
    await dialog.getByLabel('Monthly price (USD)').fill('849');
    await dialog.getByLabel('Description').fill('Unlimited sites, bays and bookings, ANPR camera webhooks and a success manager.');
    await capture('superadmin-plans-edit', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save plan' }).click();
    await expect(dialog).toBeHidden();
    await expect(table.locator('tr[data-plan="Enterprise"] [data-field="price"]')).toHaveText('$849.00');
    await expect(table.locator('tr[data-plan="Enterprise"]')).toContainText('ANPR camera webhooks and a success manager');

    // Harbour Foods' open invoice: marked paid by hand, with a reference.
    const open = await apiGet<{ items: Invoice[] }>(page, '/api/platform/invoices?status=open');
    const invoice = open.items.find((i) => i.orgName === 'Harbour Foods');
    expect(invoice, 'Harbour Foods has an open invoice').toBeDefined();
    await page.getByLabel('Status').selectOption('open');
    const invoices = page.getByRole('table', { name: 'Invoices' });
    const row = invoices.locator(`tr[data-invoice="${invoice!.number}"]`);
    await expect(row).toContainText(usd.format(invoice!.amountDue));
    await row.getByRole('button', { name: `Mark ${invoice!.number} paid` }).click();
    const confirm = page.getByRole('dialog', { name: `Mark ${invoice!.number} paid?` });
    await confirm.getByRole('button', { name: 'Mark paid' }).click();
    await expect(confirm.getByText('A payment reference is required')).toBeVisible();
    await confirm.getByLabel('Payment reference').fill('E2E transfer 4411');
    await capture('superadmin-plans-mark-paid', { fullPage: false });
    await confirm.getByRole('button', { name: 'Mark paid' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Invoice paid' })).toContainText(invoice!.number);
    await expect(row).toBeHidden(); // no longer open
    const paid = await apiGet<{ items: Invoice[] }>(page, `/api/platform/invoices?orgId=${invoice!.orgId}&status=paid`);
    expect(paid.items.find((i) => i.id === invoice!.id)).toMatchObject({ status: 'paid', paymentMethod: 'manual', paymentRef: 'E2E transfer 4411' });

    // Its PDF, from the paid invoices.
    await page.getByLabel('Status').selectOption('paid');
    const paidRow = invoices.locator(`tr[data-invoice="${invoice!.number}"]`);
    await expect(paidRow).toContainText('by hand');
    const downloading = page.waitForEvent('download');
    await paidRow.getByRole('button', { name: `Download ${invoice!.number} as PDF` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${invoice!.number}.pdf`);
    expect(fs.readFileSync((await download.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Issuing the month the demo already invoiced issues nothing new.
    await page.getByRole('button', { name: 'Issue invoices now' }).click();
    const issue = page.getByRole('dialog', { name: 'Issue invoices now' });
    await issue.getByRole('button', { name: 'Issue invoices' }).click();
    await expect(issue.getByTestId('issue-result')).toContainText(/\d+ invoices? issued, \d+ already issued/);
    await issue.getByRole('button', { name: 'Done' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    // One invoice per organization for that month, however often it is issued.
    const latest = new Date();
    const month = new Date(Date.UTC(latest.getUTCFullYear(), latest.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const all = await apiGet<{ items: Invoice[] }>(page, '/api/platform/invoices?pageSize=100');
    expect(all.items.filter((i) => i.periodKey === month).map((i) => i.orgName).sort()).toEqual(['Acme Logistics', 'Harbour Foods']);
    await capture('superadmin-plans-after');
  });

  test("an organization's billing card shows its use against the limits, changes its plan and offers its invoices as PDFs", async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    const orgs = await apiGet<{ items: Array<{ id: string; name: string }> }>(page, '/api/platform/organizations?q=Harbour');
    const harbour = orgs.items.find((o) => o.name === 'Harbour Foods')!;
    await page.goto(`/superadmin/organizations/${harbour.id}`);
    const card = page.locator('section[aria-labelledby="billing-heading"]');
    await expect(card.getByTestId('organization-plan')).toContainText('Starter');
    const billing = await apiGet<{ usage: Array<{ kind: string; used: number; allowed: number | null }> }>(page, `/api/platform/organizations/${harbour.id}/plan`);
    for (const usage of billing.usage) {
      await expect(card.locator(`[data-usage="${usage.kind}"]`)).toContainText(`${usage.used} of ${usage.allowed ?? 'unlimited'}`);
    }
    await expect(card.getByRole('button', { name: /^Download INV-\d{6}-\d{6} as PDF$/ }).first()).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await capture('superadmin-organization-billing', { fullPage: false });

    // Professional, then back to Starter.
    for (const [plan, label] of [
      ['Professional', 'Professional — $299.00 a month'],
      ['Starter', 'Starter — $99.00 a month'],
    ]) {
      await card.getByRole('button', { name: 'Change plan' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change Harbour Foods’s plan' });
      await dialog.getByLabel('Plan').selectOption({ label });
      if (plan === 'Professional') await capture('superadmin-organization-change-plan', { fullPage: false });
      await dialog.getByRole('button', { name: 'Change plan' }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByTestId('organization-plan')).toContainText(plan);
    }
  });

  test("an organization at its plan's site limit is told so in the site form, and nothing is added", async ({ page, capture }) => {
    // Harbour Foods is on Starter: one site, which it has.
    await signInAtOrgAdmin(page, 'Harbour Foods', 'admin@harbour.test');
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=sites');
    await page.getByRole('button', { name: 'Add site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a site' });
    await dialog.getByLabel('Site name').fill('Harbour Overflow Yard');
    await dialog.getByRole('button', { name: 'Add site' }).click();
    await expect(dialog.getByRole('alert')).toContainText(planLimitMessage('sites', 'Starter', 1));
    await dialog.getByRole('alert').scrollIntoViewIfNeeded();
    await capture('org-sites-plan-limit', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('table', { name: 'Sites' })).not.toContainText('Harbour Overflow Yard');
  });
});
