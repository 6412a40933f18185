import { expect, test } from './fixtures';

// Issue 22 item 5, as a haulier sees it: the portal offers a site picker only when the
// organization lets hauliers choose the site, and the slot grid is then the chosen site's.

/** 'YYYY-MM-DD' `days` from today (browser and test run on the same machine). */
function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test.use({
  ownOrgSetup: {
    sites: [
      { name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.2 }] },
      { name: 'South Terminal', bays: [{ name: 'S-01', heightClearanceM: 5.5 }, { name: 'S-02', heightClearanceM: 5.5 }] },
    ],
  },
});

test('the portal offers a site picker only when the organization allows it, and shows that site’s slots', async ({ page, request, ownOrg, capture }) => {
  // Off (the default): no picker, best fit over all sites.
  await page.goto(`/book/request?org=${ownOrg.orgId}`);
  await expect(page.getByRole('heading', { name: 'Request a Dock Slot' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Date', exact: true }).fill(dateInDays(3));
  const grid = page.getByTestId('slot-grid');
  await expect(grid.getByText(/3 compatible bay\(s\) available/)).toBeVisible();
  await expect(page.getByLabel('Site', { exact: true })).toHaveCount(0);

  const on = await request.patch(`/api/orgs/${ownOrg.orgId}/settings`, { headers: ownOrg.headers, data: { booking: { hauliersChooseSite: true } } });
  expect(on.status(), await on.text()).toBe(200);

  await page.reload();
  const picker = page.getByLabel('Site', { exact: true });
  await expect(picker).toBeVisible();
  await expect(picker.locator('option')).toHaveText(['Any site (best fit)', 'North Terminal', 'South Terminal']);
  await page.getByRole('textbox', { name: 'Date', exact: true }).fill(dateInDays(3));
  await expect(grid.getByText(/3 compatible bay\(s\) available/)).toBeVisible();

  // Choosing South asks for South's grid only (its two bays).
  const asked = page.waitForRequest((r) => r.url().endsWith('/api/public/availability') && r.postDataJSON()?.siteId === ownOrg.site('South Terminal').id);
  await picker.selectOption({ label: 'South Terminal' });
  await asked;
  await expect(grid.getByText(/2 compatible bay\(s\) available/)).toBeVisible();
  await expect(grid.locator('button[data-slot]:not([disabled])').first()).toBeVisible();
  await capture('book-request-site-picker');

  await picker.selectOption({ label: 'North Terminal' });
  await expect(grid.getByText(/1 compatible bay\(s\) available/)).toBeVisible();
});
