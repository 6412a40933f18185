import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, signInAtOrgAdmin, test } from './fixtures';
import { bookDueNow, signInAtDock } from './gate-test-site';

// Issue 22 item 6: the emergency stop holds the gate. In an organization of the test's own (ownOrg)
// at a site open round the clock, a vehicle due now: while the site is stopped the dock screen
// offers no Check In and says why, the server refuses the check-in with the same reason, the org
// dashboard shows which site is stopped, since when and by whom; after Resume, Check In is back.

test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: 'Hold Yard', hours: 'all-day', bays: ['H1', 'H2'].map((name) => ({ name, heightClearanceM: 4.5 })) }],
  },
});

test('while the site is stopped the gate holds check-in and says why; the org dashboard shows the stop', async ({ page, browser, request, ownOrg, capture }) => {
  const [site] = ownOrg.sites;
  const { headers } = ownOrg;
  const due = await bookDueNow(request, ownOrg, site, { bay: 0 });
  await signInAtDock(page, ownOrg.name, site.name, 'D1001');
  const row = page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: due.vehicleRegistration });
  const checkIn = row.getByRole('button', { name: `Check In ${due.vehicleRegistration}` });
  await expect(checkIn).toBeVisible();

  const stop = await request.post(`/api/sites/${site.id}/gate/emergency`, { headers, data: { reason: 'E2E drill: forklift fire' } });
  expect(stop.status(), await stop.text()).toBe(200);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const banner = page.getByTestId('emergency-banner');
  await expect(banner).toContainText('E2E drill: forklift fire');
  await expect(banner).toContainText('Check-in and calls to bays are on hold');
  await expect(checkIn).toHaveCount(0);
  await expect(row.getByTestId('booking-status')).toHaveText('Approved');
  await capture('gate-hold-dock-stopped');

  const refused = await request.post(`/api/sites/${site.id}/gate/bookings/${due.id}/check-in`, { headers, data: {} });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
    `Operations at ${site.name} are stopped (emergency: E2E drill: forklift fire). Check-in and calling vehicles to bays are on hold until the site resumes.`,
  );

  // The organization admin's dashboard names the stopped site, since when and by whom.
  let context: BrowserContext | null = null;
  try {
    context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
    const admin = await context.newPage();
    await signInAtOrgAdmin(admin, ownOrg.name, ownOrg.adminEmail);
    await expect(admin).toHaveURL(/\/org\//);
    await admin.goto('/org/dashboard');
    const alert = admin.getByTestId('dashboard-emergency-stop');
    await expect(alert).toHaveCount(1);
    await expect(alert).toContainText(`Emergency stop at ${site.name}`);
    await expect(alert).toContainText(/Stopped since \d\d:\d\d on /);
    await expect(alert).toContainText(`by ${ownOrg.adminEmail}`);
    await expect(alert).toContainText('Reason: E2E drill: forklift fire.');
    await expectNoSeriousA11yViolations(admin, 'org dashboard with an emergency stop');
    await admin.screenshot({ path: path.join(SCREENSHOT_DIR, 'gate-hold-org-dashboard-stopped.png') });

    const resume = await request.delete(`/api/sites/${site.id}/gate/emergency`, { headers });
    expect(resume.status(), await resume.text()).toBe(200);
    await admin.reload();
    await expect(admin.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(admin.getByTestId('dashboard-emergency-stop')).toHaveCount(0);
  } finally {
    await context?.close();
  }

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(banner).toHaveCount(0);
  await checkIn.click();
  await expect(row.getByTestId('booking-status')).toHaveText('Checked in');
  // Calling it to a bay is offered again (and the screen is settled for the final accessibility check).
  await expect(row.getByRole('button', { name: `Start ${due.vehicleRegistration}` })).toBeEnabled();
  await page.mouse.move(0, 0);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
});
