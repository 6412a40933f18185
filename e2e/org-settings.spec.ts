import { PNG_BYTES } from '../server/test/files';
import { expect, signInAtOrgAdmin, test } from './fixtures';

// The organization's own settings in the browser: the admin sets the booking policy and who hears
// of new requests, uploads a logo, and makes a camera webhook token whose secret is shown once. In
// an organization of each test's own (ownOrg), which starts with the product's defaults.

test.use({ ownOrgSetup: { sites: [{ name: 'North Terminal', bays: [{ name: 'N-01', heightClearanceM: 4.5 }] }] } });

test.describe('organization settings', () => {
  test('an admin changes the booking policy and the new-request recipients, and uploads a logo', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);

    await page.goto('/org/settings?tab=policy');
    await expect(page.getByRole('heading', { name: 'Booking policy', level: 2 })).toBeVisible();
    const autoApprove = page.getByRole('switch', { name: 'Approve portal requests automatically' });
    await expect(autoApprove).not.toBeChecked();
    await autoApprove.check();
    await page.getByRole('textbox', { name: 'Cancellation cutoff (hours)' }).fill('24');
    await page.getByRole('radio', { name: 'These addresses' }).check();

    // An address that is not one: the field says so and nothing is saved.
    const recipients = page.getByRole('textbox', { name: 'Recipients' });
    await recipients.fill('not-an-email');
    await recipients.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Enter a valid e-mail address (not-an-email)')).toBeVisible();
    // Backspace in the empty field takes the last address off.
    await recipients.press('Backspace');
    await expect(page.getByText('not-an-email', { exact: true })).toHaveCount(0);
    await recipients.fill('bookings@acme.test');
    await recipients.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('The booking policy and notifications are up to date.')).toBeVisible();
    await capture('org-settings-policy');

    // Saved on the server: a fresh load shows the same.
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Approve portal requests automatically' })).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Cancellation cutoff (hours)' })).toHaveValue('24');
    await expect(page.getByRole('radio', { name: 'These addresses' })).toBeChecked();
    await expect(page.getByText('bookings@acme.test')).toBeVisible();

    await page.getByRole('tab', { name: 'Organization' }).click();
    await expect(page.getByRole('heading', { name: 'Profile', level: 2 })).toBeVisible();
    await expect(page.getByText('No logo yet')).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await (await chooser).setFiles({ name: 'acme.png', mimeType: 'image/png', buffer: PNG_BYTES });
    await expect(page.getByRole('img', { name: `${ownOrg.name} logo` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Replace logo' })).toBeVisible();
    await capture('org-settings-organization');
  });

  test('an admin creates a camera token, sees its secret once, and revokes it', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings/number-plates');
    await expect(page.getByRole('heading', { name: 'Number Plate Recognition', level: 1 })).toBeVisible();
    await expect(page.getByText('No camera tokens yet.', { exact: false })).toBeVisible();

    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New camera token' });
    await dialog.getByLabel('Site').selectOption({ label: 'North Terminal' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Gate 1 entry camera');
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy the camera token' });
    await expect(shown.getByText('This token will not be shown again.', { exact: false })).toBeVisible();
    const secret = (await shown.getByTestId('camera-token-secret').textContent())!.trim();
    expect(secret).toMatch(/^bwcam_[A-Za-z0-9_-]{43}$/);
    await expect(shown.getByText(`/api/anpr/`, { exact: false })).toBeVisible();
    await capture('org-settings-camera-token-created', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'Camera tokens' });
    const row = table.getByRole('row', { name: /Gate 1 entry camera/ });
    await expect(row).toContainText('North Terminal');
    await expect(row).toContainText(`…${secret.slice(-4)}`);
    await expect(row).toContainText('Active');
    await expect(page.getByText(secret)).toHaveCount(0);
    await capture('org-settings-number-plates');

    await row.getByRole('button', { name: 'Revoke Gate 1 entry camera (North Terminal)' }).click();
    await page.getByRole('dialog', { name: 'Revoke this camera token?' }).getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByText('No active camera tokens.')).toBeVisible();
    await page.getByRole('switch', { name: 'Show revoked (1)' }).check();
    await expect(table.getByRole('row', { name: /Gate 1 entry camera/ })).toContainText('Revoked');
  });
  test('an admin registers a gate kiosk, sees its secret and setup link once, and revokes it', async ({ page, ownOrg, capture }) => {
    await signInAtOrgAdmin(page, ownOrg.name, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    await page.goto('/org/settings/number-plates');
    const section = page.getByRole('region', { name: 'Gate kiosks' });
    await expect(section.getByText('No kiosks yet.', { exact: false })).toBeVisible();

    await section.getByRole('button', { name: 'Register kiosk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a gate kiosk' });
    await dialog.getByLabel('Site').selectOption({ label: 'North Terminal' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Gate house tablet');
    await dialog.getByRole('button', { name: 'Register kiosk' }).click();

    const shown = page.getByRole('dialog', { name: 'Set up the kiosk tablet' });
    const secret = (await shown.getByTestId('kiosk-secret').textContent())!.trim();
    expect(secret).toMatch(/^bwkiosk_[A-Za-z0-9_-]{43}$/);
    await expect(shown.getByText(`/kiosk#token=${secret}`, { exact: false })).toBeVisible();
    await capture('org-settings-kiosk-created', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = section.getByRole('table', { name: 'Gate kiosks' }).getByRole('row', { name: /Gate house tablet/ });
    await expect(row).toContainText('North Terminal');
    await expect(row).toContainText(`…${secret.slice(-4)}`);
    await expect(row).toContainText('Active');
    await capture('org-settings-kiosks');

    await row.getByRole('button', { name: 'Revoke Gate house tablet (North Terminal)' }).click();
    await page.getByRole('dialog', { name: 'Revoke this kiosk?' }).getByRole('button', { name: 'Revoke kiosk' }).click();
    await expect(section.getByText('No active kiosks.')).toBeVisible();
    await section.getByRole('switch', { name: 'Show revoked (1)' }).check();
    await expect(section.getByRole('row', { name: /Gate house tablet/ })).toContainText('Revoked');
  });
});
