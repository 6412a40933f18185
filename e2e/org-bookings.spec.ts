import type { APIRequestContext, Page } from '@playwright/test';
import { chooseOption, expect, latestMailTo, signInAtOrgAdmin, test } from './fixtures';

// The organization's booking list: find a request, open it, approve it; decline another with a
// reason that reaches the haulier's e-mail. In an organization of each test's own (ownOrg).

/** A pending request through the public API, on the first free slot five days ahead. */
async function requestBooking(request: APIRequestContext, orgId: string, tag: string): Promise<{ tsr: string; email: string }> {
  const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const grid = await (await request.post('/api/public/availability', { data: { orgId, date: day, durationMin: 30, vehicleHeightM: 3.5 } })).json();
  const slot = (grid.slots as Array<{ time: string; available: boolean }>).find((s) => s.available)!.time;
  const stamp = `${tag}-${Date.now()}`;
  const email = `${stamp.toLowerCase()}@haulier.test`;
  const tsr = `TSR-${stamp}`;
  const response = await request.post('/api/public/bookings', {
    data: {
      orgId,
      tsrNumber: tsr,
      tenantName: `${tag} Haulage`,
      contactName: 'Pat Driver',
      tenantEmail: email,
      bookingType: 'delivery',
      date: grid.date ?? day,
      slot,
      expectedDurationMin: 30,
      vehicleType: 'van',
      vehicleRegistration: `E2E${Date.now() % 100000}${tag.length}`,
      vehicleHeightM: 3.5,
      driverInductionCompleted: true,
      termsAccepted: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { tsr, email };
}

async function openBooking(page: Page, tsr: string): Promise<void> {
  await page.goto('/org/bookings');
  await page.getByRole('textbox', { name: 'Search' }).fill(tsr);
  await expect(page.getByRole('table', { name: 'Bookings' }).getByRole('row')).toHaveCount(2); // header + the one
  await page.getByRole('button', { name: `Open booking ${tsr}` }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: `Booking ${tsr}` })).toBeVisible();
}

test.describe('organization bookings', () => {
  test('an admin finds a request, sees every field, and approves it', async ({ page, ownOrg, capture }) => {
    const { tsr } = await requestBooking(page.request, ownOrg.orgId, 'Approve');
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/bookings');
    await expect(page.getByRole('heading', { name: 'Bookings', level: 1 })).toBeVisible();
    await capture('org-bookings-list');

    await openBooking(page, tsr);
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByTestId('booking-status')).toHaveText('Pending');
    await expect(drawer.getByRole('table', { name: 'Booking details' })).toContainText('Approve Haulage');
    await expect(drawer.getByRole('table', { name: 'Booking details' })).toContainText('Pat Driver');
    await capture('org-bookings-drawer', { fullPage: false });

    await drawer.getByRole('button', { name: 'Approve' }).click();
    await expect(drawer.getByTestId('booking-status')).toHaveText('Approved');
    // Five days ahead: no Check In or No-show yet (the server says which moves are open now), only when they open.
    await expect(drawer.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Check In' })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: 'Mark No-show' })).toHaveCount(0);
    await expect(drawer.getByTestId('upcoming-move')).toHaveText([/^Check In opens .+ \(site time, .+\)\.$/, /^Mark No-show opens .+ \(site time, .+\)\.$/]);
    await capture('org-bookings-drawer-approved', { fullPage: false });
    await expect(drawer.getByLabel('Booking history')).toContainText(ownOrg.adminEmail);
    // The list behind the drawer follows.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Bookings' }).getByTestId('booking-status')).toHaveText('Approved');
  });

  test('a decline needs a reason, and the haulier’s e-mail carries it', async ({ page, ownOrg }) => {
    const { tsr, email } = await requestBooking(page.request, ownOrg.orgId, 'Decline');
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await openBooking(page, tsr);
    const drawer = page.getByRole('dialog', { name: `Booking ${tsr}` });
    await drawer.getByRole('button', { name: 'Decline' }).click();
    const modal = page.getByRole('dialog', { name: 'Decline', exact: true });
    await modal.getByRole('button', { name: 'Decline' }).click();
    await expect(modal.getByText('A reason is required')).toBeVisible();
    await modal.getByRole('textbox', { name: 'Reason' }).fill('No refrigerated bay free that morning');
    await modal.getByRole('button', { name: 'Decline' }).click();
    await expect(drawer.getByTestId('booking-status')).toHaveText('Declined');
    await expect(drawer).toContainText('No refrigerated bay free that morning');
    // The decline's mail follows the request's through the outbox: wait for it, not for any mail.
    await expect.poll(() => latestMailTo(email), { timeout: 15_000 }).toContain('was declined');
    expect(await latestMailTo(email)).toContain('Reason: No refrigerated bay free that morning');
  });

  test('a second signed-in browser sees the approval without reloading', async ({ page, browser, ownOrg }) => {
    const { tsr } = await requestBooking(page.request, ownOrg.orgId, 'Live');
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    const other = await browser.newContext();
    const watcher = await other.newPage();
    try {
      await signInAtOrgAdmin(watcher, ownOrg.name, ownOrg.adminEmail);
      await expect(watcher).toHaveURL(/\/org\/dashboard/);
      await watcher.goto(`/org/bookings?q=${encodeURIComponent(tsr)}`);
      const watched = watcher.getByRole('table', { name: 'Bookings' }).getByTestId('booking-status');
      await expect(watched).toHaveText('Pending');
      let reloaded = false;
      watcher.on('load', () => (reloaded = true));

      await openBooking(page, tsr);
      await page.getByRole('dialog', { name: `Booking ${tsr}` }).getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('dialog', { name: `Booking ${tsr}` }).getByTestId('booking-status')).toHaveText('Approved');

      await expect(watched).toHaveText('Approved', { timeout: 5_000 });
      expect(reloaded).toBe(false);
    } finally {
      await other.close();
    }
  });

  test('an admin books a walk-in for a tenant from /org/bookings/new', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/bookings');
    await page.getByRole('link', { name: 'New booking' }).click();
    await expect(page).toHaveURL(/\/org\/bookings\/new$/);
    const form = page.getByRole('dialog', { name: 'New booking' });
    await form.getByRole('button', { name: 'Create booking' }).click();
    await expect(form.getByText('Company Name is required')).toBeVisible();
    const tsr = `TSR-WALKIN-${Date.now()}`;
    await form.getByRole('textbox', { name: 'TSR Number' }).fill(tsr);
    await form.getByRole('textbox', { name: 'Company Name' }).fill('Walk-in Freight');
    await form.getByRole('textbox', { name: 'Contact Name' }).fill('Wes Walker');
    await form.getByRole('textbox', { name: 'Email' }).fill('wes@walkin.test');
    await form.getByRole('textbox', { name: 'Date', exact: true }).fill(new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10));
    await form.getByLabel('Time').fill('10:00');
    await form.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Van' });
    await form.getByRole('textbox', { name: 'Vehicle Registration' }).fill(`WLK${Date.now() % 10000}`);
    await form.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('2.8');
    await form.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await form.getByRole('checkbox', { name: 'The tenant accepts the terms and conditions' }).check();
    await capture('org-bookings-new', { fullPage: false });
    await form.getByRole('button', { name: 'Create booking' }).click();
    const drawer = page.getByRole('dialog', { name: `Booking ${tsr}` });
    await expect(drawer.getByTestId('booking-status')).toHaveText('Approved');
    await expect(drawer.getByRole('table', { name: 'Booking details' })).toContainText('Added by staff');
  });
});

test.describe('admin booking at the chosen site', () => {
  // Two sites whose bays fit the same vans: the best fit over every site would not care which.
  test.use({
    ownOrgSetup: {
      sites: [
        { name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.5 }] },
        { name: 'South Terminal', bays: [{ name: 'S-01', heightClearanceM: 3.5 }] },
      ],
    },
  });

  test('books at the header’s site by default, shows the bay before submitting, and names the site', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await chooseOption(page, 'Site', 'North Terminal');
    await page.goto('/org/bookings/new');
    const form = page.getByRole('dialog', { name: 'New booking' });
    await expect(form.getByRole('combobox', { name: 'Site' })).toHaveValue(ownOrg.site('North Terminal').id);
    const tsr = `TSR-SITE-${Date.now()}`;
    await form.getByRole('textbox', { name: 'TSR Number' }).fill(tsr);
    await form.getByRole('textbox', { name: 'Company Name' }).fill('Site Freight');
    await form.getByRole('textbox', { name: 'Contact Name' }).fill('Sam Site');
    await form.getByRole('textbox', { name: 'Email' }).fill('sam@site.test');
    await form.getByRole('textbox', { name: 'Date', exact: true }).fill(new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10));
    await form.getByLabel('Time').fill('10:00');
    await form.getByRole('combobox', { name: 'Vehicle Type' }).selectOption({ label: 'Van' });
    await form.getByRole('textbox', { name: 'Vehicle Registration' }).fill(`STE${Date.now() % 10000}`);
    await form.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('2.8');
    await form.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await form.getByRole('checkbox', { name: 'The tenant accepts the terms and conditions' }).check();
    // The allocator's choice at North Terminal, before anything is booked.
    await expect(form.getByTestId('bay-preview')).toContainText('North Terminal, bay N-01');
    // Another site: the preview follows.
    await form.getByRole('combobox', { name: 'Site' }).selectOption({ label: 'South Terminal' });
    await expect(form.getByTestId('bay-preview')).toContainText('South Terminal, bay S-01');
    await form.getByRole('combobox', { name: 'Site' }).selectOption({ label: 'North Terminal' });
    await expect(form.getByTestId('bay-preview')).toContainText('North Terminal, bay N-01');
    await capture('org-bookings-new-site', { fullPage: false });
    await form.getByRole('button', { name: 'Create booking' }).click();
    await expect(page.getByText('Booking created at North Terminal')).toBeVisible();
    const drawer = page.getByRole('dialog', { name: `Booking ${tsr}` });
    await expect(drawer.getByRole('table', { name: 'Booking details' })).toContainText('North Terminal');
    await expect(drawer.getByRole('table', { name: 'Booking details' })).toContainText('N-01');
  });
});
