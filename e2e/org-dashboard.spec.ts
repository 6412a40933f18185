import type { APIRequestContext, Page } from '@playwright/test';
import { STORAGE_KEYS } from '../domain/constants';
import type { OrgDashboard } from '../domain/org-dashboard';
import { expect, latestMailTo, signInAtLogin, test } from './fixtures';

// The organization admin dashboard (spec §2): the figures on screen are the API's, and pending
// requests are approved and declined (with a reason the haulier receives) from the recent list.
// In an organization of each test's own (ownOrg) with two sites in Sydney, like the demo's Acme.

test.use({
  ownOrgSetup: {
    sites: [
      { name: 'North Terminal', bays: [3.8, 4.5, 5.5].map((heightClearanceM, i) => ({ name: `N-0${i + 1}`, heightClearanceM })) },
      { name: 'South Terminal', bays: [3.8, 4.2].map((heightClearanceM, i) => ({ name: `S-0${i + 1}`, heightClearanceM })) },
    ],
  },
});

/** A calendar date `days` from today, 'YYYY-MM-DD'. */
function dateInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A pending request through the public portal's API; answers its TSR number and the haulier's e-mail. */
async function requestBooking(request: APIRequestContext, orgId: string, label: string, slot: string) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const tsrNumber = `TSR-DASH-${label}-${stamp}`;
  const email = `dash-${label.toLowerCase()}-${stamp}@haulier.test`;
  const created = await request.post('/api/public/bookings', {
    multipart: {
      data: JSON.stringify({
        orgId,
        tsrNumber,
        tenantName: `Dashboard ${label} Freight`,
        contactName: 'Dana Dash',
        tenantEmail: email,
        date: dateInDays(5),
        slot,
        expectedDurationMin: 30,
        vehicleType: 'van',
        vehicleRegistration: `D${stamp.replace(/\W/g, '').slice(-6).toUpperCase()}`,
        vehicleHeightM: 2.5,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { tsrNumber, email };
}

/** The signed-in page's bearer token, to ask the API what the screen should show. */
async function bearer(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string, STORAGE_KEYS.session);
  return { authorization: `Bearer ${token}` };
}

async function dashboardFromApi(page: Page, orgId: string): Promise<OrgDashboard> {
  const response = await page.request.get(`/api/orgs/${orgId}/dashboard`, { headers: await bearer(page) });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as OrgDashboard;
}

const row = (page: Page, tsrNumber: string) => page.getByTestId('recent-requests').getByRole('row').filter({ hasText: tsrNumber });

test.describe('organization admin dashboard', () => {
  test('shows the API’s figures, approves and declines pending requests', async ({ page, request, ownOrg, capture }) => {
    const { orgId } = ownOrg;
    const toDecline = await requestBooking(request, orgId, 'Decline', '11:00');
    const toApprove = await requestBooking(request, orgId, 'Approve', '10:00');

    await signInAtLogin(page, ownOrg.adminEmail);
    await expect(page).toHaveURL('/org/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText(`${ownOrg.name} · All sites`)).toBeVisible();

    // The figures on screen are the API's answer for the same moment.
    await expect(row(page, toApprove.tsrNumber)).toBeVisible();
    const api = await dashboardFromApi(page, orgId);
    const stats = page.getByTestId('dashboard-stats');
    const cards: Array<[string, string]> = [
      ['Pending Requests', String(api.stats.pendingRequests)],
      ["Today's Bookings", String(api.stats.todaysBookings)],
      ['On Site Now', String(api.stats.onSiteNow)],
      ['Late Arrivals', String(api.stats.lateArrivals)],
      ['Utilization Today', `${api.stats.utilisationPercent}%`],
    ];
    for (const [label, value] of cards) {
      await expect(stats.locator(`[data-stat="${label}"]`)).toHaveText(`${label}${value}`);
    }
    expect(api.stats.pendingRequests).toBeGreaterThanOrEqual(2);
    expect(api.sites.map((s) => s.name)).toEqual(['North Terminal', 'South Terminal']);
    for (const site of api.sites) {
      const siteRow = page.getByTestId('sites-overview').locator(`[data-site="${site.name}"]`);
      await expect(siteRow.locator('[data-field="activeBays"]')).toHaveText(String(site.activeBays));
      await expect(siteRow.locator('[data-field="occupiedBays"]')).toHaveText(String(site.occupiedBays));
      await expect(siteRow.locator('[data-field="todaysBookings"]')).toHaveText(String(site.todaysBookings));
      if (site.isOpenToday) await expect(siteRow.locator('[data-field="utilisation"]')).toContainText(`${site.utilisationPercent}%`);
    }
    expect(api.sites.find((s) => s.name === 'North Terminal')?.activeBays).toBe(ownOrg.site('North Terminal').bays.length);
    const recent = page.getByTestId('recent-requests').getByRole('row');
    await expect(recent).toHaveCount(api.recentRequests.length + 1);
    await expect(recent.nth(1)).toContainText(api.recentRequests[0]!.tsrNumber);
    const live = page.getByTestId('live-operations');
    await expect(live.getByText(`On site now (${api.liveOperations.onSite.length})`)).toBeVisible();
    await expect(live.getByText(`Next arrivals today (${api.liveOperations.nextArrivals.length})`)).toBeVisible();
    for (const tool of ['Schedule', 'Bookings', 'Live Operations', 'Reports']) {
      await expect(page.getByRole('main').getByRole('link', { name: new RegExp(`^${tool}`) })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await capture('org-dashboard');

    // Approve: the row shows the new status; the figures follow.
    await row(page, toApprove.tsrNumber).getByRole('button', { name: /^Approve/ }).click();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Booking approved' })).toBeVisible();
    await expect(row(page, toApprove.tsrNumber)).toContainText('Approved');
    await expect(row(page, toApprove.tsrNumber).getByRole('button')).toHaveCount(0);
    await expect(stats.locator('[data-stat="Pending Requests"]')).toHaveText(`Pending Requests${api.stats.pendingRequests - 1}`);

    // Decline: a reason is required, and it reaches the haulier.
    await row(page, toDecline.tsrNumber).getByRole('button', { name: /^Decline/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline this booking?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Decline booking' }).click();
    await expect(dialog.getByText('A reason is required')).toBeVisible();
    await capture('org-dashboard-decline');
    const reason = 'Bay 3 is closed for resurfacing that morning';
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await dialog.getByRole('button', { name: 'Decline booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, toDecline.tsrNumber)).toContainText('Declined');
    await expect.poll(() => latestMailTo(toDecline.email), { timeout: 15_000 }).toContain(`Reason: ${reason}`);
  });

  test('a request changed meanwhile is refused with the server’s message and refreshed', async ({ page, request, ownOrg }) => {
    const { orgId } = ownOrg;
    const stale = await requestBooking(request, orgId, 'Stale', '12:00');
    // A screen that missed the change: its live-update socket is cut off (answered by a mock that
    // never passes anything on), or the push would refresh the row before the click.
    await page.routeWebSocket(/\/api\/realtime/, () => undefined);
    await signInAtLogin(page, ownOrg.adminEmail);
    await expect(row(page, stale.tsrNumber)).toBeVisible();

    // Someone else approves it first, through the API.
    const api = await dashboardFromApi(page, orgId);
    const booking = api.recentRequests.find((b) => b.tsrNumber === stale.tsrNumber)!;
    const moved = await page.request.post(`/api/orgs/${orgId}/bookings/${booking.id}/transitions`, {
      headers: await bearer(page),
      data: { to: 'approved', version: booking.version },
    });
    expect(moved.ok()).toBeTruthy();

    await row(page, stale.tsrNumber).getByRole('button', { name: /^Approve/ }).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Booking changed' });
    await expect(toast).toContainText('now approved');
    await expect(row(page, stale.tsrNumber)).toContainText('Approved');
    await expect(row(page, stale.tsrNumber).getByRole('button')).toHaveCount(0);
  });

  test('a second signed-in browser sees an approval on its dashboard without reloading', async ({ page, request, browser, ownOrg }) => {
    const { orgId } = ownOrg;
    const live = await requestBooking(request, orgId, 'Live', '14:00');
    await signInAtLogin(page, ownOrg.adminEmail);
    await expect(page).toHaveURL(/\/org\/dashboard/);
    const other = await browser.newContext();
    const watcher = await other.newPage();
    try {
      await signInAtLogin(watcher, ownOrg.adminEmail);
      await expect(watcher).toHaveURL(/\/org\/dashboard/);
      await expect(row(watcher, live.tsrNumber)).toContainText('Pending');
      let reloaded = false;
      watcher.on('load', () => (reloaded = true));

      await expect(row(page, live.tsrNumber)).toBeVisible();
      await row(page, live.tsrNumber).getByRole('button', { name: /^Approve/ }).click();
      await expect(row(page, live.tsrNumber)).toContainText('Approved');

      // Pushed over the WebSocket: well before the dashboard's one-minute refetch.
      await expect(row(watcher, live.tsrNumber)).toContainText('Approved', { timeout: 5_000 });
      expect(reloaded).toBe(false);
    } finally {
      await other.close();
    }
  });
});
