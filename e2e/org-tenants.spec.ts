import type { APIRequestContext } from '@playwright/test';
import { expect, latestMailTo, signInAtOrgAdmin, test } from './fixtures';

// Tenants: an admin adds a tenant that is approved automatically, the portal approves its request
// at once; the admin blocks it and the portal refuses the next one; the tenant's page shows its
// policy, figures and booking. And a CSV import that lists its row errors, then goes through.
// In an organization of each test's own (ownOrg) with the demo's tenant Metro Haulage.

test.use({ ownOrgSetup: { tenants: ['Metro Haulage'] } });

/** A portal request (the public API, as the booking form sends it) on the first free slot five days ahead. */
async function portalRequest(request: APIRequestContext, orgId: string, email: string, company: string, tag: string) {
  const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const grid = await (await request.post('/api/public/availability', { data: { orgId, date: day, durationMin: 30, vehicleHeightM: 3.2 } })).json();
  const slot = (grid.slots as Array<{ time: string; available: boolean }>).find((s) => s.available)!.time;
  const tsr = `TSR-${tag}-${Date.now()}`;
  const response = await request.post('/api/public/bookings', {
    data: {
      orgId,
      tsrNumber: tsr,
      tenantName: company,
      contactName: 'Pat Driver',
      tenantEmail: email,
      bookingType: 'delivery',
      date: grid.date ?? day,
      slot,
      expectedDurationMin: 30,
      vehicleType: 'van',
      vehicleRegistration: `TN${Date.now() % 1_000_000}`,
      vehicleHeightM: 3.2,
      driverInductionCompleted: true,
      termsAccepted: true,
    },
  });
  return { tsr, status: response.status(), body: await response.json() };
}

test.describe('tenants', () => {
  test('an auto-approving tenant is approved at once; once blocked, the portal refuses it', async ({ page, ownOrg, capture }) => {
    const stamp = Date.now();
    const name = `Trusted Freight ${stamp}`;
    const domain = `trusted-${stamp}.test`;
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/tenants');
    await expect(page.getByRole('heading', { name: 'Tenants', level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Tenants' })).toContainText('Metro Haulage');
    await capture('org-tenants-list');

    // Add the tenant: its domain links requests, and they are approved automatically.
    await page.getByRole('button', { name: 'Add tenant' }).click();
    const form = page.getByRole('dialog', { name: 'Add tenant' });
    await form.getByRole('textbox', { name: 'Company name' }).fill(name);
    await form.getByRole('textbox', { name: 'E-mail domains' }).fill(domain);
    await form.getByRole('textbox', { name: 'E-mail domains' }).press('Enter');
    await form.getByRole('switch', { name: "Approve this tenant's portal requests automatically" }).check();
    await capture('org-tenants-form', { fullPage: false });
    await form.getByRole('button', { name: 'Add tenant' }).click();
    await expect(form).toBeHidden();

    const haulier = `ops@${domain}`;
    const approved = await portalRequest(page.request, ownOrg.orgId, haulier, 'Whoever Pty Ltd', 'AUTO');
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(approved.body.status).toBe('approved');
    await expect.poll(() => latestMailTo(haulier), { timeout: 15_000 }).toContain(`Your booking ${approved.tsr} is approved`);

    // Block it, with a confirmation.
    await page.getByRole('textbox', { name: 'Search' }).fill(String(stamp));
    const table = page.getByRole('table', { name: 'Tenants' });
    await expect(table.getByRole('row')).toHaveCount(2); // header + the one
    await expect(table).toContainText('Auto-approve');
    await table.getByRole('button', { name: `Block ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Block ${name}` });
    await confirm.getByRole('textbox', { name: 'Reason (for your team)' }).fill('Trial ended');
    await confirm.getByRole('button', { name: 'Block tenant' }).click();
    await expect(confirm).toBeHidden();
    await expect(table.getByTestId('tenant-status')).toHaveText('Blocked');
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0); // the toasts have closed

    const refused = await portalRequest(page.request, ownOrg.orgId, `someone.else@${domain}`, 'Whoever Pty Ltd', 'BLOCKED');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`Bookings for ${name} are not accepted at this organization. Contact the site.`);

    // The tenant's page: policy, figures, its booking.
    await table.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('Reason: Trial ended')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Booking policy' })).toContainText('Approved automatically');
    await expect(page.getByRole('table', { name: 'Booking policy' })).toContainText(domain);
    const bookings = page.getByRole('table', { name: 'Tenant bookings' });
    await expect(bookings.getByRole('link', { name: `Open booking ${approved.tsr}` })).toHaveAttribute('href', `/org/bookings?booking=${approved.body.id}`);
    await expect(bookings).toContainText('Approved');
    await capture('org-tenant-page');

    // Unblock from the page.
    await page.getByRole('button', { name: 'Unblock' }).click();
    const unblock = page.getByRole('dialog', { name: `Unblock ${name}` });
    await unblock.getByRole('button', { name: 'Unblock tenant' }).click();
    await expect(unblock).toBeHidden();
    await expect(page.getByTestId('tenant-status')).toHaveText('Active');
  });

  test('an import lists every row problem and imports nothing, then the fixed file goes through', async ({ page, ownOrg, capture }) => {
    const stamp = Date.now();
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/tenants');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import tenants from CSV' });
    const header = 'name,contact_emails,phone,email_domains,status,auto_approve,max_bookings_per_day';
    const file = (rows: string[]) => ({ name: 'tenants.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });

    await dialog.locator('input[type="file"]').setInputFiles(
      file([`Import One ${stamp},one@import-${stamp}.test,,,active,yes,4`, `Metro Haulage,,,,,,`, `Import Two ${stamp},not-an-email,,,,maybe,`]),
    );
    await dialog.getByRole('button', { name: 'Import' }).click();
    const problems = dialog.getByRole('table', { name: 'Import problems' });
    await expect(problems).toContainText('A tenant named "Metro Haulage" already exists');
    await expect(problems).toContainText('not-an-email is not a valid e-mail address');
    await expect(problems).toContainText('Auto-approve must be yes or no');
    await expect(dialog).toContainText('nothing was imported');
    await capture('org-tenants-import-errors', { fullPage: false });

    await dialog.locator('input[type="file"]').setInputFiles(file([`Import One ${stamp},one@import-${stamp}.test,,,active,yes,4`, `Import Two ${stamp},two@import-${stamp}.test,,,,no,`]));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog.getByRole('status')).toHaveText(/2 tenants added/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('textbox', { name: 'Search' }).fill(`Import One ${stamp}`);
    const table = page.getByRole('table', { name: 'Tenants' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table).toContainText('Max 4/day');
  });
});
