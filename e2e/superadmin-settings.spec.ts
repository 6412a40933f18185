import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { expect, test } from './fixtures';

// /superadmin/settings (issue 12): the platform configuration — the maintenance banner reaches every
// screen of every visitor, and is cleared again so other specs of the run never see it — and error
// monitoring: an error thrown in a browser is reported, grouped, shown with its stack, and resolved.

// The banner shows on every visitor's screens and the error groups are platform-wide: every test
// here runs alone.
test.use({ runAlone: true });

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

/** Takes the banner away through the API, whatever the screen did (a failed test must not leave it). */
async function clearBanner(page: Page) {
  const headers = await bearerOf(page);
  const current = await page.request.get('/api/platform/settings', { headers });
  if (!current.ok()) return;
  const { config } = await current.json();
  if (config.maintenanceBanner) await page.request.put('/api/platform/settings', { headers, data: { ...config, maintenanceBanner: null } });
}

const banner = (page: Page) => page.getByRole('region', { name: 'Maintenance notice' });
const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').getByText(text, { exact: true });

test.describe('platform settings', () => {
  // Several screens scanned with axe on a machine shared with other suites.
  test.setTimeout(120_000);

  test('a maintenance banner reaches every screen of every visitor, then is cleared', async ({ page, browser, capture }) => {
    const message = 'Scheduled maintenance: bookings may be slow on Sunday from 02:00 to 03:00 UTC.';
    await signInAtSuperAdmin(page);
    try {
      await page.getByRole('navigation', { name: 'Super Admin navigation' }).getByRole('link', { name: 'Settings' }).click();
      await expect(page).toHaveURL('/superadmin/settings');
      await expect(page.getByRole('heading', { name: 'Platform Settings', level: 1 })).toBeVisible();
      await expect(page.getByLabel('Platform name')).toHaveValue('Baywise');
      await expect(banner(page)).toHaveCount(0);

      // Bad input: a clear message, nothing saved.
      await page.getByLabel('Platform name').fill('');
      await page.getByLabel('Support e-mail').fill('not-an-address');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Platform name is required')).toBeVisible();
      await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
      await page.getByRole('button', { name: 'Discard changes' }).click();
      await expect(page.getByLabel('Platform name')).toHaveValue('Baywise');

      await page.getByLabel('Banner message').fill(message);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, 'Settings saved')).toBeVisible();
      // Here at once, at the top, above the area's header and not over it.
      await expect(banner(page)).toContainText(message);
      const bannerBox = (await banner(page).boundingBox())!;
      const headerBox = (await page.locator('.mantine-AppShell-header').boundingBox())!;
      expect(bannerBox.y).toBe(0);
      expect(headerBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height - 1);
      await expect(page.getByText(/Last saved .* by super@baywise\.test/)).toBeVisible();
      await capture('superadmin-settings-banner-saved', { fullPage: false });
      // On a phone the navigation opens below the banner and the header, not under them.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      const navBox = (await page.getByRole('navigation', { name: 'Super Admin navigation' }).boundingBox())!;
      const phoneHeader = (await page.locator('.mantine-AppShell-header').boundingBox())!;
      expect(navBox.y).toBeGreaterThanOrEqual(phoneHeader.y + phoneHeader.height - 1);
      await capture('superadmin-settings-banner-phone', { fullPage: false });
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await page.setViewportSize({ width: 1366, height: 900 });

      // Another visitor, signed out, on the portal and the sign-in screens.
      const context = await browser.newContext();
      try {
        const visitor = await context.newPage();
        await visitor.goto('/book');
        await expect(banner(visitor)).toContainText(message);
        await visitor.screenshot({ path: 'e2e/screenshots/maintenance-banner-portal.png' });
        await visitor.goto('/orgadmin');
        await expect(banner(visitor)).toContainText(message);
        await visitor.goto('/');
        await expect(banner(visitor)).toContainText(message);
      } finally {
        await context.close();
      }

      // Taken away: the banner goes. The first save's toast has closed by itself first (it may still be
      // up on a fast machine), so the toast seen next is the second save's.
      await expect(toast(page, 'Settings saved')).toHaveCount(0, { timeout: 15_000 });
      await page.getByLabel('Banner message').fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, 'Settings saved')).toBeVisible();
      await expect(banner(page)).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await capture('superadmin-settings', { fullPage: false });
    } finally {
      await clearBanner(page);
    }
  });

  test('an error thrown in a browser is grouped, shown with its stack, and resolved', async ({ page, capture }) => {
    await signInAtSuperAdmin(page);
    await page.goto('/superadmin/settings');
    // A fault in the page, as a bug would throw it: the reporter sends it.
    const reported = page.waitForResponse((response) => response.url().endsWith('/api/client-errors') && response.request().method() === 'POST');
    await page.evaluate(() => {
      setTimeout(() => {
        throw new TypeError('E2E check: the settings widget exploded');
      });
    });
    const response = await reported;
    expect(response.status()).toBe(202);
    expect(await response.json()).toEqual({ stored: true });

    await page.getByRole('tab', { name: 'Error monitoring' }).click();
    await expect(page).toHaveURL('/superadmin/settings?tab=errors');
    await page.getByRole('textbox', { name: 'Source' }).click();
    await page.getByRole('option', { name: 'Browser', exact: true }).click();
    const table = page.getByRole('table', { name: 'Error groups' });
    const row = table.getByRole('row').filter({ hasText: 'E2E check: the settings widget exploded' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('TypeError');
    await expect(row).toContainText('Browser');
    await expect(row.getByTestId('error-status')).toHaveText('Open');
    await capture('superadmin-errors');

    await row.getByRole('button', { name: 'TypeError: E2E check: the settings widget exploded', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Error details' });
    await expect(drawer.getByTestId('error-title')).toHaveText('TypeError: E2E check: the settings widget exploded');
    await expect(drawer.getByTestId('error-stack')).toContainText('E2E check: the settings widget exploded');
    await expect(drawer.getByTestId('error-request')).toContainText('"kind": "error"');
    await expect(drawer).toContainText('super@baywise.test');
    await expect(drawer.getByRole('table', { name: 'Recent occurrences' }).getByRole('row')).toHaveCount(2);
    await capture('superadmin-error-detail', { fullPage: false });

    await drawer.getByRole('button', { name: 'Resolve' }).click();
    const confirm = page.getByRole('dialog', { name: 'Resolve this error?' });
    await confirm.getByRole('button', { name: 'Resolve' }).click();
    await expect(toast(page, 'Error resolved')).toBeVisible();
    await expect(drawer.getByTestId('error-status')).toHaveText('Resolved');
    await drawer.getByRole('button', { name: 'Close error details' }).click();
    await expect(row).toHaveCount(0);

    await page.getByText('Resolved', { exact: true }).click();
    await expect(page).toHaveURL(/status=resolved/);
    await expect(row.getByTestId('error-status')).toHaveText('Resolved');
    await expect(row.getByRole('button', { name: /^Reopen/ })).toBeVisible();
  });
});
