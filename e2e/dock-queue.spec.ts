import type { Locator, Page } from '@playwright/test';
import { STORAGE_KEYS } from '../domain/constants';
import { expect, test } from './fixtures';
import { onSiteBookings, signInAtDock, vehicle as newVehicle, type Vehicle } from './gate-test-site';

// The gate queue (issue 10): a walk-in registered through the form joins the queue with its bay,
// is called to that bay and leaves the queue; security staff register walk-ins too but are not
// offered the call. Walk-ins ignore opening hours, so this runs at any hour. In an organization of
// each test's own (ownOrg), with its dock master and security officer.

const SITE = 'Gate Yard';
test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: SITE, hours: 'all-day', bays: ['N-01', 'N-02', 'N-03'].map((name) => ({ name, heightClearanceM: 4.5 })) }],
  },
});
const TABLET = { width: 820, height: 1180 };

async function siteIdOf(page: Page): Promise<string> {
  return page.evaluate((key) => (JSON.parse(localStorage.getItem(key)!) as { id: string }).id, STORAGE_KEYS.selectedSite);
}

/** Fills the walk-in form for the vehicle, a small van that fits every bay (registration typed in lower case). */
async function fillWalkIn(dialog: Locator, vehicle: Vehicle): Promise<void> {
  await dialog.getByLabel('Vehicle Registration').fill(vehicle.vehicleRegistration.toLowerCase());
  await expect(dialog.getByLabel('Vehicle Registration')).toHaveValue(vehicle.vehicleRegistration);
  await dialog.getByLabel('Vehicle Type').selectOption({ label: 'Van' });
  await dialog.getByLabel('Vehicle Height (m)').fill(String(vehicle.vehicleHeightM));
  await dialog.getByLabel('TSR Number').fill(vehicle.tsrNumber);
  await dialog.getByLabel('Company Name').fill(vehicle.tenantName);
  await dialog.getByLabel('Contact Name').fill(vehicle.contactName);
  await dialog.getByLabel('Email').fill(vehicle.tenantEmail);
  await dialog.getByLabel('Expected Duration (minutes)').fill(String(vehicle.expectedDurationMin));
  await dialog.getByLabel('The driver has completed the site induction').check();
  await dialog.getByLabel('The tenant accepts the terms and conditions').check();
}

/** Registers the vehicle through the form; answers the bay the server gave it. */
async function registerWalkIn(page: Page, vehicle: Vehicle): Promise<string> {
  await page.getByRole('button', { name: 'Register walk-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register walk-in' });
  await fillWalkIn(dialog, vehicle);
  await dialog.getByRole('button', { name: 'Register walk-in' }).click();
  const done = dialog.getByTestId('walk-in-registered');
  await expect(done).toContainText('Walk-in registered and checked in');
  await expect(done.getByTestId('walk-in-tsr')).toHaveText(vehicle.tsrNumber);
  return (await done.getByTestId('walk-in-bay').innerText()).trim();
}

/** Whether the page scrolls sideways. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Every button in `scope` is at least 44 px high (touch targets at the gate). */
async function expectTouchSized(scope: Locator): Promise<void> {
  const heights = await scope.getByRole('button').evaluateAll((buttons) => buttons.map((b) => [b.textContent?.trim() ?? '', b.getBoundingClientRect().height] as const));
  expect(heights.length).toBeGreaterThan(0);
  // Layout sizes are fractional (rem × zoom): 43.99997 px is a 44 px target.
  for (const [label, height] of heights) expect(Math.round(height), `button "${label}"`).toBeGreaterThanOrEqual(44);
}

test.describe('gate queue', () => {
  test('the dockmaster registers a walk-in, sees it in the queue and calls it to its bay', async ({ page, request, ownOrg, capture }) => {
    await signInAtDock(page, ownOrg.name, SITE, 'D1001');
    const siteId = await siteIdOf(page);

    // The queue cannot be read: the server's message and a way to try again.
    const queueUrl = `**/api/sites/${siteId}/gate/queue`;
    await page.route(queueUrl, (route) =>
      route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'The gate service is unavailable. Try again shortly.' } } }),
    );
    await page.getByRole('link', { name: 'Gate Queue' }).click();
    await expect(page).toHaveURL('/dockmaster/queue');
    await expect(page.getByRole('heading', { name: 'Gate Queue', level: 1 })).toBeVisible();
    const failed = page.getByRole('alert').filter({ hasText: 'Error loading data' });
    await expect(failed).toContainText('The gate service is unavailable. Try again shortly.');
    await page.unroute(queueUrl);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(failed).toBeHidden();
    await expect(page.getByTestId('queue-count')).toBeVisible();

    // The shared schema's messages, before anything is sent.
    await page.getByRole('button', { name: 'Register walk-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register walk-in' });
    await dialog.getByRole('button', { name: 'Register walk-in' }).click();
    await expect(dialog.getByText('Vehicle Registration is required')).toBeVisible();
    await expect(dialog.getByText('TSR Number is required')).toBeVisible();
    await expect(dialog.getByText('Vehicle Height is required')).toBeVisible();
    await expect(dialog.getByText('Driver induction must be completed')).toBeVisible();
    await expect(dialog.getByLabel('Vehicle Registration')).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    const vehicle = newVehicle({ tenantName: 'Queue Test Couriers' });
    const bay = await registerWalkIn(page, vehicle);
    expect(bay).toMatch(/^N-\d{2}$/);

    // The same truck again while it is on site: the server's refusal, as sent.
    await dialog.getByRole('button', { name: 'Register another' }).click();
    await fillWalkIn(dialog, { ...vehicle, tsrNumber: `${vehicle.tsrNumber}-2` });
    await dialog.getByRole('button', { name: 'Register walk-in' }).click();
    const refusal = dialog.getByTestId('walk-in-refusal');
    await expect(refusal).toContainText('Vehicle already on site');
    await expect(refusal).toContainText(`Vehicle ${vehicle.vehicleRegistration} is already on site (booking ${vehicle.tsrNumber} at ${SITE})`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // In the queue: its bay, free, and the time it has waited.
    const row = page.getByTestId('gate-queue').locator(`[data-registration="${vehicle.vehicleRegistration}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText(vehicle.tsrNumber);
    await expect(row).toContainText('Walk-in');
    await expect(row.getByTestId('expected-bay')).toContainText(bay);
    await expect(row.getByTestId('expected-bay-state')).toHaveText('Free');
    await expect(row.getByTestId('waiting-time')).toHaveText(/^(under 1 min|\d+ min)$/);
    await expect(row.getByRole('button', { name: `Call to ${bay}: ${vehicle.vehicleRegistration}` })).toBeVisible();
    expect(await overflows(page)).toBe(false);
    await capture('dock-queue-desktop');

    // On a tablet at the gate: nothing scrolls sideways, every button is a finger wide.
    await page.setViewportSize(TABLET);
    await expect(row).toBeVisible();
    expect(await overflows(page)).toBe(false);
    await expectTouchSized(row);
    for (const name of ['Refresh', 'Register walk-in']) {
      expect(Math.round((await page.getByRole('button', { name }).boundingBox())!.height), name).toBeGreaterThanOrEqual(44);
    }
    await capture('dock-queue-tablet');

    // Another free compatible bay may be chosen; the booked one is offered first.
    await row.getByRole('button', { name: `Another bay: ${vehicle.vehicleRegistration}` }).click();
    const choose = page.getByRole('dialog', { name: 'Call to another bay' });
    await expect(choose.getByRole('textbox', { name: 'Bay' })).toHaveValue(`${bay} (booked bay)`);
    await expect(choose.getByRole('button', { name: 'Call to bay' })).toBeEnabled();
    await expectTouchSized(choose);
    await capture('dock-queue-choose-bay-tablet', { fullPage: false });
    await choose.getByRole('button', { name: 'Cancel' }).click();
    await expect(choose).toBeHidden();

    // Called to its bay: it leaves the queue.
    await row.getByRole('button', { name: `Call to ${bay}: ${vehicle.vehicleRegistration}` }).click();
    await expect(page.getByText(`${vehicle.vehicleRegistration} · ${vehicle.tsrNumber} → bay ${bay}`)).toBeVisible();
    await expect(row).toHaveCount(0);

    // The dashboard shows it at its bay.
    await page.goto('/dockmaster/dashboard');
    const live = page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: vehicle.vehicleRegistration });
    await expect(live.getByTestId('booking-status')).toHaveText('In progress');
    await expect(live).toContainText(`Bay ${bay}`);
    await expect(page.getByTestId('bay-grid').locator('[data-state="occupied"]').filter({ hasText: vehicle.vehicleRegistration })).toContainText(bay);
    const onSite = await onSiteBookings(request, ownOrg, siteId);
    expect(onSite.filter((b) => b.vehicleRegistration === vehicle.vehicleRegistration)).toEqual([expect.objectContaining({ status: 'in_progress', bayName: bay })]);
  });

  test('security staff register a walk-in on a tablet; calling it to a bay is left to a dockmaster', async ({ page, ownOrg, capture }) => {
    await page.setViewportSize(TABLET);
    // The page's clock, so the waiting time can be seen ticking without waiting minutes for it.
    await page.clock.install();
    await signInAtDock(page, ownOrg.name, SITE, 'S1001');
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Gate Queue' }).click();
    await expect(page).toHaveURL('/dockmaster/queue');
    await expect(page.getByTestId('queue-count')).toBeVisible();

    await page.getByRole('button', { name: 'Register walk-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register walk-in' });
    const vehicle = newVehicle({ tenantName: 'Queue Test Couriers' });
    await fillWalkIn(dialog, vehicle);
    expect(await overflows(page)).toBe(false);
    await expectTouchSized(dialog);
    await capture('dock-queue-walk-in-tablet', { fullPage: false });
    await dialog.getByRole('button', { name: 'Register walk-in' }).click();
    const done = dialog.getByTestId('walk-in-registered');
    await expect(done.getByTestId('walk-in-tsr')).toHaveText(vehicle.tsrNumber);
    const bay = (await done.getByTestId('walk-in-bay').innerText()).trim();
    await capture('dock-queue-walk-in-registered-tablet', { fullPage: false });
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('gate-queue').locator(`[data-registration="${vehicle.vehicleRegistration}"]`);
    await expect(row.getByTestId('expected-bay')).toContainText(bay);
    await expect(row.getByTestId('expected-bay-state')).toHaveText('Free');
    // Start is the dockmaster's move (the server refuses it to security): no button here.
    await expect(row.getByRole('button')).toHaveCount(0);
    await expect(row).toContainText('A dockmaster calls the vehicle to its bay.');
    // The waiting time runs on the screen's clock between refreshes.
    await expect(row.getByTestId('waiting-time')).toHaveText(/^(under 1 min|1 min)$/);
    await page.clock.fastForward('02:05');
    await expect(row.getByTestId('waiting-time')).toHaveText(/^[23] min$/);
    expect(await overflows(page)).toBe(false);
    await capture('dock-queue-security-tablet');
  });
});
