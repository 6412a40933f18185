import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { SCREENSHOT_DIR, expect, expectNoSeriousA11yViolations, signInAtOrgAdmin, test } from './fixtures';
import { bookDueNow, signInAtDock } from './gate-test-site';

// The dock dashboard (issue 10, decision 012) in an organization of each test's own (ownOrg) with
// its dock master and security officer, at a site open round the clock, in a time zone where it is
// about midday now, so the bookings it makes are today's and inside the check-in window whatever
// the hour.
//
// Covered: a dock master approves a pending booking, checks a vehicle in, starts it at a bay and
// checks it out (the counters and the bay grid follow each step); a security officer sees the same
// picture without Approve and without Emergency Stop or Resume; an emergency stop on one screen
// reaches a second dock screen and the org admin's live view at once, and Resume clears both; a
// booking made while a screen is still subscribing to live updates reaches it without a reload.

/** A counter of the dashboard, as a number (its card reads "<label><value>"). */
async function counter(page: Page, label: string): Promise<number> {
  const text = await page.getByTestId('gate-counters').locator(`[data-counter="${label}"]`).innerText();
  return Number(text.replace(label, '').trim());
}

const rowOf = (page: Page, registration: string) => page.getByTestId('live-list').getByTestId('gate-booking').filter({ hasText: registration });

/** Saves a screenshot of a page that is not the test's own `page` (capture() works on that one), after axe. */
async function captureOther(page: Page, name: string): Promise<void> {
  await expectNoSeriousA11yViolations(page, name);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.use({
  ownOrgSetup: {
    withDockStaff: true,
    sites: [{ name: 'Gate Yard', hours: 'all-day', bays: ['G1', 'G2', 'G3'].map((name) => ({ name, heightClearanceM: 4.5 })) }],
  },
});

test.describe('dock dashboard', () => {
  test('a dock master approves, checks in, starts and checks out; counters and bays follow', async ({ page, request, ownOrg, capture }) => {
    const [site] = ownOrg.sites;
    const due = await bookDueNow(request, ownOrg, site, { bay: 0 });
    const pending = await bookDueNow(request, ownOrg, site, { approve: false, bay: 1, slotsLater: 1 });
    await signInAtDock(page, ownOrg.name, site.name, 'D1001');
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('button', { name: 'Emergency Stop' })).toBeEnabled();

    const dueRow = rowOf(page, due.vehicleRegistration);
    const pendingRow = rowOf(page, pending.vehicleRegistration);
    await expect(dueRow.getByTestId('booking-status')).toHaveText('Approved');
    await expect(pendingRow.getByTestId('booking-status')).toHaveText('Pending');
    await expect(page.getByTestId('bay-grid').locator('[data-state]')).toHaveCount(3);
    const expected = await counter(page, 'Expected Today');
    const onSite = await counter(page, 'On Site');
    const atBay = await counter(page, 'At Bay');
    await capture('dock-dashboard-desktop');

    // Approve: the pending booking becomes one the gate expects today.
    await pendingRow.getByRole('button', { name: `Approve ${pending.vehicleRegistration}` }).click();
    await expect(pendingRow.getByTestId('booking-status')).toHaveText('Approved');
    await expect(pendingRow.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(pendingRow.getByRole('button', { name: /^Decline/ })).toHaveCount(0);
    await expect.poll(() => counter(page, 'Expected Today')).toBe(expected + 1);

    // Check In: on site, waiting for its bay.
    await dueRow.getByRole('button', { name: `Check In ${due.vehicleRegistration}` }).click();
    await expect(dueRow.getByTestId('booking-status')).toHaveText('Checked in');
    await expect(page.getByText('Checked in', { exact: true }).and(page.locator('.mantine-Notification-title'))).toBeVisible();
    await expect.poll(() => counter(page, 'On Site')).toBe(onSite + 1);
    await expect(dueRow).toContainText(' · in at ');

    // Start, in the dialog that offers the booked bay (or another free one).
    await dueRow.getByRole('button', { name: `Start ${due.vehicleRegistration}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Start at bay' });
    await expect(dialog.getByRole('textbox', { name: 'Bay' })).toHaveValue(`${site.bays[0]!.name} (booked bay)`);
    await page.setViewportSize({ width: 820, height: 1180 });
    await capture('dock-dashboard-tablet-start-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(dueRow.getByTestId('booking-status')).toHaveText('In progress');
    await expect.poll(() => counter(page, 'At Bay')).toBe(atBay + 1);
    const bay = page.getByTestId('bay-grid').getByLabel(`Bay ${site.bays[0]!.name}: Occupied`);
    await expect(bay).toContainText(due.vehicleRegistration);
    await noSidewaysScroll(page);
    await capture('dock-dashboard-tablet');

    // Check Out: the toast gives the time on site; the visit leaves the live list, the bay is free.
    await dueRow.getByRole('button', { name: `Check Out ${due.vehicleRegistration}` }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Checked out' });
    await expect(toast).toContainText(new RegExp(`${due.vehicleRegistration} · ${due.tsrNumber} after \\d+ min on site`));
    await expect(dueRow).toHaveCount(0);
    await expect.poll(() => counter(page, 'At Bay')).toBe(atBay);
    await expect.poll(() => counter(page, 'On Site')).toBe(onSite);
    await expect(page.getByTestId('bay-grid').getByLabel(`Bay ${site.bays[0]!.name}: Available`)).toBeVisible();
    await expect(counter(page, 'Expected Today')).resolves.toBe(expected + 1);
  });

  test('a security officer sees the gate without Approve or Emergency Stop, checks in and out', async ({ page, request, ownOrg, capture }) => {
    const [site] = ownOrg.sites;
    const due = await bookDueNow(request, ownOrg, site, { bay: 2 });
    const pending = await bookDueNow(request, ownOrg, site, { approve: false, bay: 1, slotsLater: 2 });
    await signInAtDock(page, ownOrg.name, site.name, 'S1001');

    const dueRow = rowOf(page, due.vehicleRegistration);
    const pendingRow = rowOf(page, pending.vehicleRegistration);
    await expect(dueRow.getByRole('button', { name: `Check In ${due.vehicleRegistration}` })).toBeVisible();
    await expect(pendingRow.getByTestId('booking-status')).toHaveText('Pending');
    await expect(pendingRow.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Emergency Stop' })).toHaveCount(0);
    await page.setViewportSize({ width: 820, height: 1180 });
    await noSidewaysScroll(page);
    await capture('dock-dashboard-security-tablet');

    // The gate is theirs: they check the vehicle in; calling it to a bay is the dock master's
    // (checked in → in progress is staff's in the lifecycle table), so the row offers nothing then.
    await dueRow.getByRole('button', { name: `Check In ${due.vehicleRegistration}` }).click();
    await expect(dueRow.getByTestId('booking-status')).toHaveText('Checked in');
    await expect(dueRow.getByRole('button')).toHaveCount(0);
    const { headers } = ownOrg;
    const started = await request.post(`/api/sites/${site.id}/gate/bookings/${due.id}/start`, { headers, data: {} });
    expect(started.status(), await started.text()).toBe(200);
    await expect(dueRow.getByTestId('booking-status')).toHaveText('In progress');
    await dueRow.getByRole('button', { name: `Check Out ${due.vehicleRegistration}` }).click();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Checked out' })).toContainText(/after \d+ min on site/);
    await expect(dueRow).toHaveCount(0);

    // An emergency stop made elsewhere: they see the banner, without Resume (the server refuses it them).
    const stop = await request.post(`/api/sites/${site.id}/gate/emergency`, { headers, data: { reason: 'E2E drill: gas leak' } });
    expect(stop.status(), await stop.text()).toBe(200);
    const banner = page.getByTestId('emergency-banner');
    await expect(banner).toContainText('Emergency stop in effect');
    await expect(banner).toContainText('E2E drill: gas leak');
    await expect(banner.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    await expect(banner).toContainText('A dock master or an organization admin resumes operations.');
    await capture('dock-dashboard-security-stopped');
  });

  test("a booking made between the screen's first read and its subscription still appears", async ({ page, request, ownOrg }) => {
    const [site] = ownOrg.sites;
    // The screen's subscription is held until the booking is made: the booking's event goes out
    // before the server knows this screen, so only the catch-up after subscribing can show it
    // (the gate's own refresh is a minute away).
    let releaseSubscription!: () => void;
    const subscriptionHeld = new Promise<void>((resolve) => (releaseSubscription = resolve));
    await page.routeWebSocket(/\/api\/realtime$/, (socket) => {
      const server = socket.connectToServer();
      socket.onMessage(async (message) => {
        if (JSON.parse(String(message)).type === 'subscribe') await subscriptionHeld;
        server.send(message);
      });
    });
    await signInAtDock(page, ownOrg.name, site.name, 'D1001');
    await expect(page.getByTestId('gate-counters')).toBeVisible();
    const expected = await counter(page, 'Expected Today');

    const booking = await bookDueNow(request, ownOrg, site, { bay: 2 });
    releaseSubscription();
    await expect(rowOf(page, booking.vehicleRegistration).getByTestId('booking-status')).toHaveText('Approved', { timeout: 5_000 });
    await expect.poll(() => counter(page, 'Expected Today'), { timeout: 5_000 }).toBe(expected + 1);
  });

  test('an emergency stop on one screen reaches a second dock screen and the live view at once', async ({ page, browser, ownOrg, capture }) => {
    const [site] = ownOrg.sites;
    const contexts: BrowserContext[] = [];
    const open = async (b: Browser) => {
      const context = await b.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 820, height: 1180 } });
      contexts.push(context);
      return context.newPage();
    };
    try {
      await signInAtDock(page, ownOrg.name, site.name, 'D1001');
      const second = await open(browser);
      await signInAtDock(second, ownOrg.name, site.name, 'D1001');
      const live = await open(browser);
      await signInAtOrgAdmin(live, ownOrg.name, ownOrg.adminEmail);
      await expect(live).toHaveURL(/\/org\//);
      await live.goto('/org/ops/live');
      const section = live.locator(`section[data-site="${site.name}"]`);
      await expect(section.getByTestId('bay-board').locator('li')).toHaveCount(3);
      await expect(second.getByTestId('emergency-banner')).toHaveCount(0);
      await expect(section.getByTestId('emergency-banner')).toHaveCount(0);

      await page.getByRole('button', { name: 'Emergency Stop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Emergency Stop' });
      await expect(dialog.getByLabel('Reason')).toHaveAttribute('required', '');
      await dialog.getByLabel('Reason').fill('E2E drill: spill at the gate');
      await dialog.getByRole('button', { name: 'Stop all operations' }).click();
      await expect(dialog).toBeHidden();
      const banner = page.getByTestId('emergency-banner');
      await expect(banner).toContainText('E2E drill: spill at the gate');
      await expect(page.getByRole('button', { name: 'Emergency Stop' })).toBeDisabled();
      await expect(page.getByTestId('bay-grid').locator('[data-state="stopped"]')).toHaveCount(3);

      // The other screens follow without a reload, within a few seconds at most.
      const soon = { timeout: 5_000 };
      await expect(second.getByTestId('emergency-banner')).toContainText('Emergency stop in effect', soon);
      await expect(second.getByTestId('emergency-banner')).toContainText('E2E drill: spill at the gate', soon);
      await expect(second.getByTestId('bay-grid').locator('[data-state="stopped"]')).toHaveCount(3, soon);
      await expect(section.getByTestId('emergency-banner')).toContainText('E2E drill: spill at the gate', soon);
      await expect(section.locator('[data-state="stopped"]')).toHaveCount(3, soon);
      await capture('dock-dashboard-stopped');
      await noSidewaysScroll(second);
      await captureOther(second, 'dock-dashboard-tablet-stopped');
      await noSidewaysScroll(live);
      await captureOther(live, 'org-ops-live-tablet-stopped');

      await banner.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('dialog', { name: 'Resume operations' }).getByRole('button', { name: 'Resume operations' }).click();
      await expect(banner).toBeHidden();
      await expect(page.getByRole('button', { name: 'Emergency Stop' })).toBeEnabled();
      await expect(second.getByTestId('emergency-banner')).toHaveCount(0, soon);
      await expect(second.getByTestId('bay-grid').locator('[data-state="available"]')).toHaveCount(3, soon);
      await expect(section.getByTestId('emergency-banner')).toHaveCount(0, soon);
      await expect(section.locator('[data-state="available"]')).toHaveCount(3, soon);
    } finally {
      for (const context of contexts) await context.close();
    }
  });
});
