import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import type { UsageReport } from '../domain/usage';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// /superadmin/usage on the demo data: the cards, charts (and their tables), the table of
// organizations and the nearest plan limits hold the server's figures for 7, 30 and 90 days; an
// organization admin's API calls are counted; the CSV downloads; loading, empty and error states;
// the organization page shows the same figures; anyone without a platform role is sent away.

// Usage figures count every organization's activity: every test here runs alone.
test.use({ runAlone: true });

const count = new Intl.NumberFormat('en-US');

async function signInAtSuperAdmin(page: Page) {
  await page.goto('/superadmin');
  await page.getByLabel('Administrator Email').fill('super@baywise.test');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Super Admin Portal' }).click();
  await expect(page).toHaveURL('/superadmin/dashboard');
}

async function bearerOf(page: Page) {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string, STORAGE_KEYS.session);
  return { authorization: `Bearer ${token}` };
}

const card = (page: Page, label: string) => page.getByTestId('usage-totals').locator(`[data-stat="${label}"]`);

test.describe('platform usage analytics', () => {
  // Several screens scanned with axe on a machine shared with other suites.
  test.setTimeout(150_000);

  test('shows the figures of 30 and 7 days, counts API calls, sorts, searches and downloads the CSV', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    const headers = await bearerOf(page);
    const report = async (query: string) => {
      const response = await page.request.get(`/api/platform/usage?${query}`, { headers });
      expect(response.status()).toBe(200);
      return (await response.json()) as UsageReport;
    };

    // An Acme admin's three requests to its organization's routes are counted (written every few seconds).
    const acme = ((await (await page.request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>).find((o) => o.name === 'Acme Logistics')!;
    const before = (await report(`days=7&orgId=${acme.id}`)).totals.apiCalls;
    const admin = await page.request.post('/api/auth/token?grant_type=password', { data: { email: 'admin@acme.test', password: DEMO_PASSWORD, orgId: acme.id } });
    const adminHeaders = { authorization: `Bearer ${(await admin.json()).access_token}` };
    for (let i = 0; i < 3; i += 1) expect((await page.request.get(`/api/orgs/${acme.id}/dashboard`, { headers: adminHeaders })).status()).toBe(200);
    await expect.poll(async () => (await report(`days=7&orgId=${acme.id}`)).totals.apiCalls, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 3);

    await page.getByRole('navigation').getByRole('link', { name: 'Usage Analytics' }).click();
    await expect(page).toHaveURL('/superadmin/usage');
    await expect(page.getByRole('heading', { name: 'Usage Analytics', level: 1 })).toBeVisible();
    await expect(page.getByRole('radio', { name: '30 days' })).toBeChecked();

    // The cards hold the server's totals.
    const month = await report('days=30');
    expect(month.totals.bookingsCreated).toBeGreaterThan(0); // the demo's bookings
    await expect(card(page, 'Bookings created')).toContainText(count.format(month.totals.bookingsCreated));
    await expect(card(page, 'Sign-ins')).toContainText(count.format(month.totals.signIns));
    await expect(card(page, 'Documents stored')).toContainText(count.format(month.totals.documentsStored));

    // One row per organization with its figures.
    const table = page.getByRole('table', { name: 'Usage per organization' });
    const acmeRow = month.organizations.items.find((o) => o.name === 'Acme Logistics')!;
    await expect(table.locator('[data-organization="Acme Logistics"] [data-field="bookingsCreated"]')).toHaveText(count.format(acmeRow.bookingsCreated));
    await expect(table.locator('[data-organization="Harbour Foods"]')).toBeVisible();

    // The organizations nearest their plan limits, the nearest first.
    const limits = page.getByTestId('nearest-limits');
    if (month.nearestLimits.length > 0) {
      await expect(limits.getByRole('listitem').first()).toContainText(month.nearestLimits[0]!.name);
      await expect(limits.getByRole('listitem').first().locator('[data-field="highestPercent"]')).toHaveText(`${month.nearestLimits[0]!.highestPercent}%`);
    }
    await capture('superadmin-usage');

    // Seven days: the figures of the week, and the days of the chart as a table.
    await page.getByText('7 days', { exact: true }).click();
    await expect(page).toHaveURL('/superadmin/usage?days=7');
    const week = await report('days=7');
    await expect(card(page, 'Bookings created')).toContainText(count.format(week.totals.bookingsCreated));
    await page.getByTestId('usage-bookings-per-day').getByText('Table', { exact: true }).click();
    const days = page.getByRole('table', { name: 'Bookings created per day, by source' });
    await expect(days.getByRole('row')).toHaveCount(8); // header + 7 days
    await page.getByTestId('usage-activity-per-day').getByText('API calls', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'API calls per day' })).toBeVisible();
    await capture('superadmin-usage-7-days');
    // A tablet in portrait: cards, charts and the table fit (the table scrolls sideways).
    await page.setViewportSize({ width: 820, height: 1180 });
    await expect(card(page, 'Webhook calls')).toBeVisible();
    await capture('superadmin-usage-tablet');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Sorted by name, then reversed; searched.
    await table.getByRole('button', { name: 'Organization' }).click();
    await expect(page).toHaveURL(/sort=name&order=asc/);
    await expect(table.getByRole('columnheader', { name: 'Organization' })).toHaveAttribute('aria-sort', 'ascending');
    const names = async () => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-organization') ?? ''));
    // The header follows the URL at once; the rows follow when the sorted page arrives.
    const isAscending = (list: string[]) => list.length > 1 && list.every((name, i) => i === 0 || list[i - 1]!.localeCompare(name, 'en', { sensitivity: 'base' }) <= 0);
    await expect.poll(async () => isAscending(await names())).toBe(true);
    await table.getByRole('button', { name: 'Organization' }).click();
    await expect(table.getByRole('columnheader', { name: 'Organization' })).toHaveAttribute('aria-sort', 'descending');
    await page.getByRole('textbox', { name: 'Search organizations' }).fill('harbour');
    await expect(page).toHaveURL(/q=harbour/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr')).toHaveAttribute('data-organization', 'Harbour Foods');

    // The CSV of the period: every organization and the total.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^baywise-usage-7-days-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await file.path())!, 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/^Organization,Slug,Status,Plan,Bookings created,/);
    expect(lines.some((l) => l.startsWith('Acme Logistics,acme-logistics,'))).toBe(true);
    expect(lines.at(-2)).toMatch(new RegExp(`^All organizations,,,,${week.totals.bookingsCreated},`));
  });

  test("an organization's page shows its own usage, the same as the usage screen", async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    const headers = await bearerOf(page);
    const list = (await (await page.request.get('/api/platform/organizations?q=Acme', { headers })).json()) as { items: Array<{ id: string; name: string }> };
    const acme = list.items.find((o) => o.name === 'Acme Logistics')!;
    const mine = (await (await page.request.get(`/api/platform/usage?days=90&orgId=${acme.id}`, { headers })).json()) as UsageReport;
    await page.goto(`/superadmin/organizations/${acme.id}`);
    await expect(page.getByRole('heading', { name: 'Acme Logistics', level: 1 })).toBeVisible();
    const usage = page.getByTestId('organization-usage-window');
    await page.getByRole('region', { name: 'Usage' }).getByText('90 days', { exact: true }).click();
    await expect(page.getByRole('region', { name: 'Usage' })).toContainText('Over the last 90 days');
    await expect(usage.locator('[data-stat="Bookings created"]')).toContainText(count.format(mine.totals.bookingsCreated));
    await expect(usage.locator('[data-stat="Sign-ins"]')).toContainText(count.format(mine.totals.signIns));
    await expect(page.getByTestId('organization-usage').locator('[data-stat="Active sites"]')).toContainText(/\d+/);
    await page.getByRole('region', { name: 'Usage' }).scrollIntoViewIfNeeded();
    await capture('superadmin-organization-usage', { fullPage: false });
  });

  test('says when it is loading, when there is nothing and when it failed', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    // Failure: the message and a way to try again.
    await page.route('**/api/platform/usage?**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' } }) }),
    );
    await page.goto('/superadmin/usage');
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to fetch usage' })).toContainText('Something went wrong on our side. Please try again.');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await capture('superadmin-usage-error');

    // Nothing yet.
    await page.unrouteAll();
    const empty = {
      days: 30,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-30T00:00:00.000Z',
      totals: { bookingsCreated: 0, bookingsBySource: { portal: 0, admin: 0, gate: 0, carrier_api: 0, other: 0 }, activeUsers: 0, signIns: 0, documentsStored: 0, documentBytesStored: 0, documentsAdded: 0, documentBytesAdded: 0, apiCalls: 0, webhookCalls: 0 },
      daily: [],
      organizations: { total: 0, items: [] },
      nearestLimits: [],
      generatedAt: '2026-01-30T00:00:00.000Z',
    };
    await page.route('**/api/platform/usage?**', (route) => route.fulfill({ json: empty }));
    await page.reload();
    await expect(page.getByText('No organizations yet')).toBeVisible();

    // Loading: the cards wait (the answer is held until the check is done).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.unrouteAll();
    await page.route('**/api/platform/usage?**', async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await expect(page.getByLabel('Loading usage')).toBeVisible();
    release();
    await expect(page.getByTestId('usage-totals').locator('[data-stat="Bookings created"]')).not.toContainText('Error');
    await expect(page.getByRole('table', { name: 'Usage per organization' })).toBeVisible();
  });

  test('keeps anyone without a platform role out: the screen sends them to /superadmin, the API answers 403', async ({ page }) => {
    await signInAtOrgAdmin(page, 'Acme Logistics', 'admin@acme.test');
    await expect(page).toHaveURL('/org/dashboard');
    await page.goto('/superadmin/usage');
    await expect(page).toHaveURL('/superadmin');
    const headers = await bearerOf(page);
    for (const url of ['/api/platform/usage', '/api/platform/usage.csv', '/api/platform/quote-requests', '/api/platform/organization-options']) {
      expect((await page.request.get(url, { headers })).status(), url).toBe(403);
    }
    expect((await page.request.post('/api/platform/organizations', { headers, data: {} })).status()).toBe(403);
  });
});
