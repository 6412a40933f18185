import { expect, signInAtOrgAdmin, test } from './fixtures';

// Issue 22 item 5 in the browser: the org admin lets hauliers choose the site (Settings › Booking
// policy); the portal then offers a site picker, and the slot grid is the chosen site's.

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

test('the portal offers a site picker only when the organization allows it, and shows that site’s slots', async ({ page, ownOrg, capture }) => {
  // Off (the default): no picker, best fit over all sites.
  await page.goto(`/book/request?org=${ownOrg.orgId}`);
  await expect(page.getByRole('heading', { name: 'Request a Dock Slot' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Date', exact: true }).fill(dateInDays(3));
  const grid = page.getByTestId('slot-grid');
  await expect(grid.getByText(/3 compatible bay\(s\) available/)).toBeVisible();
  await expect(page.getByLabel('Site', { exact: true })).toHaveCount(0);

  // The org admin allows it: Settings › Booking policy.
  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  await page.goto('/org/settings?tab=policy');
  await expect(page.getByRole('radio', { name: 'Best fit over all sites' })).toBeChecked();
  await page.getByRole('radio', { name: 'Hauliers may choose the site' }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('The booking policy and notifications are up to date.')).toBeVisible();
  await capture('org-settings-site-choice');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Hauliers may choose the site' })).toBeChecked();

  await page.goto(`/book/request?org=${ownOrg.orgId}`);
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
