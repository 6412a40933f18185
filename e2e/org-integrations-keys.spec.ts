import { chooseOption, expect, signInAtOrgAdmin, test } from './fixtures';

// Integrations › API keys in the browser (issue 13): an admin makes a key for a tenant and sees
// its secret once; a scripted carrier system then books through the SSC appointment API with it,
// and the booking shows on /org/bookings like a portal booking. In an organization of the test's
// own (ownOrg) with a North Terminal and the tenant Coastal Freight Co.

test.use({
  ownOrgSetup: {
    sites: [{ name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.5 }, { name: 'N-02', heightClearanceM: 5.5 }] }],
    tenants: ['Coastal Freight Co'],
  },
});

test.describe('API keys and the carrier API', () => {
  test('an admin creates a key, the secret is shown once, and a carrier books with it', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings?tab=integrations');
    await expect(page.getByRole('heading', { name: 'API keys', level: 2 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Integrations' })).toHaveAttribute('aria-selected', 'true');

    // The form says what is missing before anything is sent.
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('checkbox', { name: 'Read availability and appointments' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Schedule appointments', exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Choose at least one scope')).toBeVisible();

    const name = `Coastal TMS ${Date.now().toString(36)}`;
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Tenant' }).fill('Coastal');
    await chooseOption(page, 'Tenant', 'Coastal Freight Co');
    await dialog.getByRole('checkbox', { name: 'Read availability and appointments' }).check();
    await dialog.getByRole('checkbox', { name: 'Schedule appointments', exact: true }).check();
    await capture('org-integrations-new-key');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    // Shown once.
    const shown = page.getByRole('dialog', { name: 'Copy the API key' });
    await expect(shown.getByText('This key will not be shown again.', { exact: false })).toBeVisible();
    const secret = (await shown.getByTestId('api-key-secret').textContent())!.trim();
    expect(secret).toMatch(/^bw_live_[A-Za-z0-9_-]{43}$/);
    await capture('org-integrations-key-secret');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(`…${secret.slice(-4)}`);
    await expect(row).toContainText('Coastal Freight Co');
    // Columns: name, tenant, scopes, key, expires, last used, status.
    await expect(row.getByRole('cell').nth(4)).toHaveText('Never');
    await expect(row.getByRole('cell').nth(5)).toHaveText('Never');
    await expect(row).toContainText('Active');

    // The location id the carrier sends, from the panel.
    const locationId = (await page.getByRole('table', { name: 'Location ids' }).getByRole('row').filter({ hasText: 'North Terminal' }).locator('code').textContent())!.trim();
    await capture('org-integrations');

    // A scripted carrier: find a slot, book it.
    const headers = { authorization: `Bearer ${secret}` };
    const offered = await page.request.post('/api/ssc/appointments/v1/fetch-available-appointments', {
      headers,
      data: { identifiers: { locationId }, equipment: { equipmentType: 'STRAIGHT_TRUCK' } },
    });
    expect(offered.status(), await offered.text()).toBe(200);
    const { appointments } = await offered.json();
    expect(appointments.length).toBeGreaterThan(0);
    const reference = `SSC-E2E-${Date.now().toString(36).toUpperCase()}`;
    const booked = await page.request.post('/api/ssc/appointments/v1/schedule-appointment', {
      headers,
      data: {
        identifiers: { primaryReferenceNumber: reference, locationId },
        preferredAppointment: { id: appointments[0].id, loadingType: 'LIVE' },
        equipment: { equipmentType: 'STRAIGHT_TRUCK', registration: 'E2E 13' },
      },
    });
    expect(booked.status(), await booked.text()).toBe(200);
    expect(await booked.json()).toMatchObject({ status: 'SUCCESS', appointmentStatus: 'PENDING', locationId });
    // The key cannot cancel: that scope was not given.
    const refused = await page.request.post('/api/ssc/appointments/v1/cancel-appointment', { headers, data: { identifiers: { primaryReferenceNumber: reference } } });
    expect(refused.status()).toBe(403);

    // The booking shows in the organization's bookings like a portal booking.
    await page.goto('/org/bookings');
    await page.getByRole('textbox', { name: 'Search' }).fill(reference);
    await expect(page.getByRole('table', { name: 'Bookings' }).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('table', { name: 'Bookings' })).toContainText('Coastal Freight Co');
    await capture('org-integrations-booking-listed');
    await page.getByRole('button', { name: `Open booking ${reference}` }).click();
    await expect(page.getByRole('dialog').getByRole('table', { name: 'Booking details' })).toContainText('Carrier API (SSC)');
    await page.keyboard.press('Escape');

    // The key's last use is shown; revoking asks first and stops the key at once.
    await page.goto('/org/settings?tab=integrations');
    const used = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name });
    await expect(used.getByRole('cell').nth(5)).not.toHaveText('Never');
    await used.getByRole('button', { name: `Revoke ${name} (Coastal Freight Co)` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await expect(confirm).toContainText(`ending ${secret.slice(-4)}`);
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(used).toContainText('Revoked');
    const afterRevoke = await page.request.post('/api/ssc/appointments/v1/fetch-available-appointments', { headers, data: { identifiers: { locationId } } });
    expect(afterRevoke.status()).toBe(401);
  });
});
