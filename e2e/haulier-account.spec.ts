import type { APIRequestContext, Page } from '@playwright/test';
import { createOwnOrg, suspendOwnOrg } from './own-org';
import { expect, latestMailTo, test } from './fixtures';

// Haulier accounts without passwords (issue 27 item 1, decision 044) in the browser: a haulier with
// bookings at two organizations (the test's own, and a second one made here) asks for a sign-in
// link at /book, takes it from the mail outbox, signs in, sees both organizations' bookings, saves
// a vehicle, rebooks one booking with the saved vehicle and finds the new one under Upcoming.

/** 'YYYY-MM-DD' `days` from today (browser and test run on the same machine). */
function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function requestBooking(request: APIRequestContext, orgId: string, values: { email: string; tsrNumber: string; date: string; registration: string }) {
  const created = await request.post('/api/public/bookings', {
    multipart: {
      data: JSON.stringify({
        orgId,
        tsrNumber: values.tsrNumber,
        tenantName: 'Rolling Freight',
        contactName: 'Robin Road',
        tenantEmail: values.email,
        date: values.date,
        slot: '10:00',
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: values.registration,
        vehicleHeightM: 2.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

async function upcomingRows(page: Page) {
  return page.getByRole('table', { name: 'Upcoming' }).locator('tbody tr');
}

test('a haulier signs in with an e-mailed link, sees two organizations’ bookings, saves a vehicle and rebooks with it', async ({ page, request, ownOrg, capture }) => {
  test.setTimeout(240_000);
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const email = `robin-${stamp}@rolling-freight.test`;
  const other = await createOwnOrg(request, 'E2E Haulier Account Second');
  try {
    await requestBooking(request, ownOrg.orgId, { email, tsrNumber: `TSR-ACC-A-${stamp}`, date: dateInDays(5), registration: `A${stamp.slice(-5)}`.toUpperCase() });
    await requestBooking(request, other.orgId, { email, tsrNumber: `TSR-ACC-B-${stamp}`, date: dateInDays(6), registration: `B${stamp.slice(-5)}`.toUpperCase() });

    // /book → "Sign in to see your bookings" → the e-mail → "Check your e-mail".
    await page.goto('/book');
    await page.getByRole('link', { name: 'Sign in to see your bookings' }).click();
    await expect(page).toHaveURL(/\/book\/account$/);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await capture('haulier-account-check-email');

    const mail = await latestMailTo(email, 15_000, /\/book\/account\/sign-in#token=/);
    const link = mail.match(/https?:\/\/\S+\/book\/account\/sign-in#token=[\w-]+/)![0];
    await page.goto(link);
    await expect(page).toHaveURL(/\/book\/account$/);
    await expect(page.getByRole('heading', { name: 'My bookings' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

    // Both organizations' bookings, each with its manage link and Rebook.
    const rows = await upcomingRows(page);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(ownOrg.name);
    await expect(rows.nth(0)).toContainText('Main Yard');
    await expect(rows.nth(1)).toContainText(other.name);
    await expect(rows.nth(0).getByRole('link', { name: /^Manage booking TSR-ACC-A-/ })).toHaveAttribute('href', /\/book\/manage\//);
    // The link is spent: opening it again fails with a clear message.
    const again = await page.context().newPage();
    await again.goto(link);
    await expect(again.getByText('This sign-in link has already been used. Ask for a new one.')).toBeVisible();
    await again.close();

    // Save a vehicle on the account page.
    const registration = `SV${stamp.slice(-5)}`.toUpperCase();
    const addVehicle = page.getByRole('form', { name: 'Add a vehicle' });
    await addVehicle.getByRole('textbox', { name: 'Name (optional)' }).fill('Blue rigid');
    await addVehicle.getByRole('combobox', { name: 'Vehicle Type' }).selectOption('rigid');
    await addVehicle.getByRole('textbox', { name: 'Vehicle Registration' }).fill(registration);
    await addVehicle.getByRole('spinbutton', { name: 'Vehicle Height (m)' }).fill('3.6');
    await addVehicle.getByRole('button', { name: 'Save vehicle' }).click();
    await expect(page.getByRole('list', { name: 'Saved vehicles' })).toContainText(`${registration} · Blue rigid`);
    await capture('haulier-account-my-bookings');

    // Rebook the first organization's booking with the saved vehicle.
    await rows.nth(0).getByRole('link', { name: /^Rebook TSR-ACC-A-/ }).click();
    await expect(page).toHaveURL(/\/book\/request\?rebook=/);
    await expect(page.getByText('Rebooking: the form is filled in from your earlier booking.', { exact: false })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Company Name' })).toHaveValue('Rolling Freight');
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expect(page.getByRole('textbox', { name: 'TSR Number', exact: true })).toHaveValue(`TSR-ACC-A-${stamp}`);
    await page.getByRole('combobox', { name: 'Use a saved vehicle' }).selectOption({ label: `${registration} · Blue rigid` });
    await expect(page.getByRole('textbox', { name: 'Vehicle Registration' })).toHaveValue(registration);
    await expect(page.getByRole('combobox', { name: 'Vehicle Type' })).toHaveValue('rigid');
    await capture('haulier-account-rebook-form');

    const date = page.getByRole('textbox', { name: 'Date', exact: true });
    await date.fill(dateInDays(8));
    const slot = page.getByTestId('slot-grid').locator('button[data-slot="11:00"]');
    await expect(slot).toBeEnabled();
    await slot.click();
    await page.getByRole('checkbox', { name: 'The driver has completed the site induction' }).check();
    await page.getByRole('checkbox', { name: 'I accept the terms and conditions' }).check();
    await page.getByRole('button', { name: 'Submit Booking Request' }).click();
    await expect(page.getByRole('heading', { name: 'Booking Request Submitted!' })).toBeVisible();

    // Back on the account page: three upcoming bookings, the new one with the saved vehicle.
    await page.goto('/book/account');
    await expect(await upcomingRows(page)).toHaveCount(3);
    await expect(page.getByRole('table', { name: 'Upcoming' })).toContainText(registration);

    // Sign out: the account page asks for the e-mail again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/book$/);
    await page.goto('/book/account');
    await expect(page.getByRole('button', { name: 'Send me a sign-in link' })).toBeVisible();
  } finally {
    await suspendOwnOrg(request, other);
  }
});
