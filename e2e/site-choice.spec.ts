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

test('the admin booking form follows the policy: the site picker always, availability per site when hauliers may choose', async ({ page, request, ownOrg, capture }) => {
  await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
  await expect(page).toHaveURL(/\/org\/dashboard/);
  const form = page.getByRole('dialog', { name: 'New booking' });
  const fillSlotAndVehicle = async () => {
    await form.getByRole('textbox', { name: 'Date', exact: true }).fill(dateInDays(3));
    await form.getByLabel('Time').fill('10:00');
    await form.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('2.8');
  };

  // Best fit over all sites (the default): the admin still picks the site; no availability per site.
  await page.goto('/org/bookings/new');
  const site = form.getByRole('combobox', { name: 'Site' });
  await expect(site).toBeVisible();
  await fillSlotAndVehicle();
  await expect(form.getByTestId('bay-preview')).toContainText(/(North|South) Terminal, bay /);
  await expect(form.getByTestId('site-availability')).toHaveCount(0);

  // Hauliers may choose the site: the form shows where the booking could go at each site.
  const allowed = await request.patch(`/api/orgs/${ownOrg.orgId}/settings`, { headers: ownOrg.headers, data: { booking: { hauliersChooseSite: true } } });
  expect(allowed.status(), await allowed.text()).toBe(200);
  await page.goto('/org/bookings/new');
  await site.selectOption({ label: 'North Terminal' });
  await fillSlotAndVehicle();
  const perSite = form.getByTestId('site-availability');
  await expect(perSite.locator('li[data-site="North Terminal"]')).toContainText('North Terminal: bay N-01, ');
  await expect(perSite.locator('li[data-site="North Terminal"]')).toContainText('Chosen');
  await expect(perSite.locator('li[data-site="South Terminal"]')).toContainText(/South Terminal: bay S-0\d, /);
  await perSite.getByRole('button', { name: 'Book at South Terminal' }).click();
  await expect(site).toHaveValue(ownOrg.site('South Terminal').id);
  await expect(form.getByTestId('bay-preview')).toContainText('South Terminal, bay S-0');
  await capture('org-bookings-new-site-availability', { fullPage: false });

  const tsr = `TSR-CHOICE-${Date.now()}`;
  await form.getByRole('textbox', { name: 'TSR Number' }).fill(tsr);
  await form.getByRole('textbox', { name: 'Company Name' }).fill('Choice Freight');
  await form.getByRole('textbox', { name: 'Contact Name' }).fill('Cho Ice');
  await form.getByRole('textbox', { name: 'Email' }).fill('cho@choice.test');
  await form.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Van' });
  await form.getByRole('textbox', { name: 'Vehicle Registration' }).fill(`CHO${Date.now() % 10000}`);
  await form.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
  await form.getByRole('checkbox', { name: 'The tenant accepts the terms and conditions' }).check();
  await form.getByRole('button', { name: 'Create booking' }).click();
  await expect(page.getByText('Booking created at South Terminal')).toBeVisible();
  await expect(page.getByRole('dialog', { name: `Booking ${tsr}` }).getByRole('table', { name: 'Booking details' })).toContainText('South Terminal');
});
