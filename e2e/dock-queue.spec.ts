import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { chooseOption, expect, test } from './fixtures';

// The gate queue (issue 10): a walk-in registered through the form joins the queue with its bay,
// is called to that bay and leaves the queue; security staff register walk-ins too but are not
// offered the call. Walk-ins ignore opening hours, so this runs at any hour. Every vehicle this
// spec brings on site is checked out again (the demo bays are shared by every spec).

const SITE = 'North Terminal';
const TABLET = { width: 820, height: 1180 };

type GateRow = { id: string; status: string; vehicleRegistration: string; bayName: string };

async function signInAtDock(page: Page, employeeId: string): Promise<void> {
  await page.goto('/dockmaster');
  await chooseOption(page, 'Site', `${SITE} — Acme Logistics`);
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Dock Operations' }).click();
  await expect(page).toHaveURL('/dockmaster/dashboard');
}

async function siteIdOf(page: Page): Promise<string> {
  return page.evaluate((key) => (JSON.parse(localStorage.getItem(key)!) as { id: string }).id, STORAGE_KEYS.selectedSite);
}

/** The org admin's bearer header, for checks and the clean-up (independent of the page's session). */
async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email: 'admin@acme.test', password: DEMO_PASSWORD } });
  expect(session.ok(), await session.text()).toBeTruthy();
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

/** The site's on-site booking of this vehicle, if any (the overview's live list holds every vehicle on site). */
async function onSite(request: APIRequestContext, headers: Record<string, string>, siteId: string, registration: string): Promise<GateRow | undefined> {
  const res = await request.get(`/api/sites/${siteId}/gate/overview`, { headers });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { live } = (await res.json()) as { live: GateRow[] };
  return live.find((b) => b.vehicleRegistration === registration && ['checked_in', 'in_progress', 'overstay'].includes(b.status));
}

/** Sends the vehicle home: called to its bay if still waiting, then checked out. */
async function checkOutVehicle(request: APIRequestContext, siteId: string, registration: string): Promise<void> {
  const headers = await adminHeaders(request);
  const booking = await onSite(request, headers, siteId, registration);
  if (!booking) return;
  if (booking.status === 'checked_in') {
    const started = await request.post(`/api/sites/${siteId}/gate/bookings/${booking.id}/start`, { headers, data: {} });
    expect(started.ok(), await started.text()).toBeTruthy();
  }
  const out = await request.post(`/api/sites/${siteId}/gate/bookings/${booking.id}/check-out`, { headers, data: {} });
  expect(out.ok(), await out.text()).toBeTruthy();
}

function uniqueVehicle(prefix: string) {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 4)}`.toUpperCase();
  return {
    registration: `${prefix}${stamp.slice(-6)}`,
    tsr: `TSR-QUEUE-${stamp}`,
    email: `queue-${stamp.toLowerCase()}@haulier.test`,
  };
}

/** Fills the walk-in form for a small van that fits every bay (registration typed in lower case). */
async function fillWalkIn(dialog: Locator, vehicle: ReturnType<typeof uniqueVehicle>): Promise<void> {
  await dialog.getByLabel('Vehicle Registration').fill(vehicle.registration.toLowerCase());
  await expect(dialog.getByLabel('Vehicle Registration')).toHaveValue(vehicle.registration);
  await dialog.getByLabel('Vehicle Type').selectOption({ label: 'Van' });
  await dialog.getByLabel('Vehicle Height (m)').fill('2.4');
  await dialog.getByLabel('TSR Number').fill(vehicle.tsr);
  await dialog.getByLabel('Company Name').fill('Queue Test Couriers');
  await dialog.getByLabel('Contact Name').fill('Quinn Queue');
  await dialog.getByLabel('Email').fill(vehicle.email);
  await dialog.getByLabel('Expected Duration (minutes)').fill('30');
  await dialog.getByLabel('The driver has completed the site induction').check();
  await dialog.getByLabel('The tenant accepts the terms and conditions').check();
}

/** Registers the vehicle through the form; answers the bay the server gave it. */
async function registerWalkIn(page: Page, vehicle: ReturnType<typeof uniqueVehicle>): Promise<string> {
  await page.getByRole('button', { name: 'Register walk-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register walk-in' });
  await fillWalkIn(dialog, vehicle);
  await dialog.getByRole('button', { name: 'Register walk-in' }).click();
  const done = dialog.getByTestId('walk-in-registered');
  await expect(done).toContainText('Walk-in registered and checked in');
  await expect(done.getByTestId('walk-in-tsr')).toHaveText(vehicle.tsr);
  return (await done.getByTestId('walk-in-bay').innerText()).trim();
}

/** Whether the page scrolls sideways. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Every button in `scope` is at least 44 px high (touch targets at the gate). */
async function expectTouchSized(scope: Locator): Promise<void> {
  const heights = await scope.getByRole('button').evaluateAll((buttons) => buttons.map((b) => [b.textContent?.trim() ?? '', b.getBoundingClientRect().height] as const));
  expect(heights.length).toBeGreaterThan(0);
  for (const [label, height] of heights) expect(height, `button "${label}"`).toBeGreaterThanOrEqual(44);
}

test.describe('gate queue', () => {
  const created: Array<{ siteId: string; registration: string }> = [];
  test.afterEach(async ({ request }) => {
    // Whatever happened, the vehicles this test brought leave the site and free their bays.
    while (created.length > 0) {
      const { siteId, registration } = created.pop()!;
      await checkOutVehicle(request, siteId, registration);
    }
  });

  test('the dockmaster registers a walk-in, sees it in the queue and calls it to its bay', async ({ page, request, capture }) => {
    await signInAtDock(page, 'D1001');
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

    const vehicle = uniqueVehicle('Q');
    created.push({ siteId, registration: vehicle.registration });
    const bay = await registerWalkIn(page, vehicle);
    expect(bay).toMatch(/^N-\d{2}$/);

    // The same truck again while it is on site: the server's refusal, as sent.
    await dialog.getByRole('button', { name: 'Register another' }).click();
    await fillWalkIn(dialog, { ...vehicle, tsr: `${vehicle.tsr}-2` });
    await dialog.getByRole('button', { name: 'Register walk-in' }).click();
    const refusal = dialog.getByTestId('walk-in-refusal');
    await expect(refusal).toContainText('Vehicle already on site');
    await expect(refusal).toContainText(`Vehicle ${vehicle.registration} is already on site (booking ${vehicle.tsr} at ${SITE})`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // In the queue: its bay, free, and the time it has waited.
    const row = page.getByTestId('gate-queue').locator(`[data-registration="${vehicle.registration}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText(vehicle.tsr);
    await expect(row).toContainText('Walk-in');
    await expect(row.getByTestId('expected-bay')).toContainText(bay);
    await expect(row.getByTestId('expected-bay-state')).toHaveText('Free');
    await expect(row.getByTestId('waiting-time')).toHaveText(/^(under 1 min|\d+ min)$/);
    await expect(row.getByRole('button', { name: `Call to ${bay}: ${vehicle.registration}` })).toBeVisible();
    expect(await overflows(page)).toBe(false);
    await capture('dock-queue-desktop');

    // On a tablet at the gate: nothing scrolls sideways, every button is a finger wide.
    await page.setViewportSize(TABLET);
    await expect(row).toBeVisible();
    expect(await overflows(page)).toBe(false);
    await expectTouchSized(row);
    for (const name of ['Refresh', 'Register walk-in']) {
      expect((await page.getByRole('button', { name }).boundingBox())!.height, name).toBeGreaterThanOrEqual(44);
    }
    await capture('dock-queue-tablet');

    // Another free compatible bay may be chosen; the booked one is offered first.
    await row.getByRole('button', { name: `Another bay: ${vehicle.registration}` }).click();
    const choose = page.getByRole('dialog', { name: 'Call to another bay' });
    await expect(choose.getByRole('textbox', { name: 'Bay' })).toHaveValue(`${bay} (booked bay)`);
    await expect(choose.getByRole('button', { name: 'Call to bay' })).toBeEnabled();
    await expectTouchSized(choose);
    await capture('dock-queue-choose-bay-tablet', { fullPage: false });
    await choose.getByRole('button', { name: 'Cancel' }).click();
    await expect(choose).toBeHidden();

    // Called to its bay: it leaves the queue.
    await row.getByRole('button', { name: `Call to ${bay}: ${vehicle.registration}` }).click();
    await expect(page.getByText(`${vehicle.registration} · ${vehicle.tsr} → bay ${bay}`)).toBeVisible();
    await expect(row).toHaveCount(0);

    // The dashboard shows it at its bay.
    await page.goto('/dockmaster/dashboard');
    const live = page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: vehicle.registration });
    await expect(live.getByTestId('booking-status')).toHaveText('In progress');
    await expect(live).toContainText(`Bay ${bay}`);
    await expect(page.getByTestId('bay-grid').locator('[data-state="occupied"]').filter({ hasText: vehicle.registration })).toContainText(bay);
    const headers = await adminHeaders(request);
    expect(await onSite(request, headers, siteId, vehicle.registration)).toMatchObject({ status: 'in_progress', bayName: bay });
  });

  test('security staff register a walk-in on a tablet; calling it to a bay is left to a dockmaster', async ({ page, capture }) => {
    await page.setViewportSize(TABLET);
    // The page's clock, so the waiting time can be seen ticking without waiting minutes for it.
    await page.clock.install();
    await signInAtDock(page, 'S1001');
    const siteId = await siteIdOf(page);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Gate Queue' }).click();
    await expect(page).toHaveURL('/dockmaster/queue');
    await expect(page.getByTestId('queue-count')).toBeVisible();

    await page.getByRole('button', { name: 'Register walk-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register walk-in' });
    const vehicle = uniqueVehicle('S');
    created.push({ siteId, registration: vehicle.registration });
    await fillWalkIn(dialog, vehicle);
    expect(await overflows(page)).toBe(false);
    await expectTouchSized(dialog);
    await capture('dock-queue-walk-in-tablet', { fullPage: false });
    await dialog.getByRole('button', { name: 'Register walk-in' }).click();
    const done = dialog.getByTestId('walk-in-registered');
    await expect(done.getByTestId('walk-in-tsr')).toHaveText(vehicle.tsr);
    const bay = (await done.getByTestId('walk-in-bay').innerText()).trim();
    await capture('dock-queue-walk-in-registered-tablet', { fullPage: false });
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('gate-queue').locator(`[data-registration="${vehicle.registration}"]`);
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
